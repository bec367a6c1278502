import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';

/**
 * Communication features of an app not yet approved for them (the Social SDK's "limited access") are rate limited
 * per app: 100 per two hours for messages, lobby joins and invites, 20 per two hours for channel linking. Only
 * players' calls count (Bearer tokens); the app's own Bot token is not limited. The windows run on the server clock
 * and are counted in `ctx.limits`: this process's memory, or Redis in distributed mode (one count per deployment).
 */
export const COMMUNICATION_LIMITS = {
  message: { count: 100, windowMs: 2 * 3600_000 },
  link: { count: 20, windowMs: 2 * 3600_000 },
} as const;
export type CommunicationKind = keyof typeof COMMUNICATION_LIMITS;

export async function isApproved(ctx: Ctx, appId: string): Promise<boolean> {
  return ctx.repos.social.isApproved(appId);
}

/** Counts one communication call of an unapproved app; 429 with `retry_after` (seconds) once the window is full. */
export async function limitCommunication(ctx: Ctx, appId: string, kind: CommunicationKind): Promise<void> {
  if (await isApproved(ctx, appId)) return;
  const { count, windowMs } = COMMUNICATION_LIMITS[kind];
  const w = await ctx.limits.take(`social-unapproved:${appId}:${kind}`, count, windowMs);
  if (!w.allowed) {
    const retryAfter = Math.max(0.001, (w.resetAtMs - ctx.clock.now()) / 1000);
    throw new ApiError(429, 0, 'You are being rate limited: communication features of this application are limited until it is approved.', undefined, {
      retry_after: Number(retryAfter.toFixed(3)),
      global: false,
    });
  }
}

/** Approves (or un-approves) an app for communication features: the platform's call (dev route). */
export async function setApproval(ctx: Ctx, appId: string, approved: boolean): Promise<void> {
  await ctx.repos.social.setApproval(appId, approved, ctx.clock.now());
}
