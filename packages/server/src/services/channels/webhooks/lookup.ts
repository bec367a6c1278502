import crypto from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { WebhookRecord } from '../../../store/records.js';

/** Webhook lookups and the token check, shared by the management and execution services. */

/** Webhook names and username overrides: 1-80 characters, without "clyde" or "discord". */
export const WebhookName = z
  .string()
  .min(1)
  .max(80)
  .superRefine((v, c) => {
    if (/clyde|discord/i.test(v))
      c.addIssue({ code: 'custom', message: 'Username cannot contain "clyde" or "discord"', params: { code: 'USERNAME_INVALID_CONTAINS' } });
  });

/** Constant-time token check (hashing first makes the lengths equal). */
export function tokenMatches(w: WebhookRecord, presented: string): boolean {
  if (!w.token) return false;
  const a = crypto.createHash('sha256').update(w.token).digest();
  const b = crypto.createHash('sha256').update(presented).digest();
  return crypto.timingSafeEqual(a, b);
}

export async function loadWebhook(ctx: Ctx, webhookId: string): Promise<WebhookRecord | null> {
  if (!isSnowflake(webhookId)) return null;
  return ctx.repos.webhooks.byId(webhookId);
}

/** The webhook for a token route: 10015 when unknown, 50027 when the token is wrong. */
export async function requireWebhookByToken(ctx: Ctx, webhookId: string, token: string): Promise<WebhookRecord> {
  const w = await loadWebhook(ctx, webhookId);
  if (!w) throw Errors.unknownWebhook();
  if (!tokenMatches(w, token)) throw Errors.invalidWebhookToken();
  return w;
}
