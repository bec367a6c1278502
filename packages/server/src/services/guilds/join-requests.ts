import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { checkId } from '../../core/ids.js';
import { parseBody, snowflake } from '../../core/validation.js';
import { P } from '@accord/protocol';
import { requireGuildRecord } from './lookup.js';
import { addMember } from './membership.js';
import { getUsers } from '../identity/users.js';
import { publicUser } from '../../wire/user.js';
import '../../store/tables/fidelity.js';

/**
 * Member-verification join requests ("apply to join"): a user who is not a member applies to a guild that asks for
 * manual approval (feature MEMBER_VERIFICATION_GATE_ENABLED); moderators (KICK_MEMBERS or MANAGE_GUILD) list the
 * requests and approve (the applicant joins) or reject them (with an optional reason).
 */
export const JOIN_APPROVAL_FEATURE = 'MEMBER_VERIFICATION_GATE_ENABLED';
const STATUSES = ['STARTED', 'SUBMITTED', 'REJECTED', 'APPROVED'] as const;
const unknownRequest = () => new ApiError(404, 10068, 'Unknown Guild Member Verification Form');

const Submit = z.object({ form_responses: z.array(z.record(z.string(), z.unknown())).max(10).default([]) });
const ListQuery = z.object({
  status: z.enum(STATUSES).optional(),
  limit: z.preprocess((v) => (v === undefined ? undefined : Number(v)), z.number().int().min(1).max(100).default(100)),
  before: snowflake.optional(),
  after: snowflake.optional(),
});
const Action = z.object({ action: z.enum(['APPROVED', 'REJECTED']), rejection_reason: z.string().max(160).nullish() });

type Row = {
  id: string | number;
  guild_id: string | number;
  user_id: string | number;
  status: string;
  form_responses: string;
  rejection_reason: string | null;
  actioned_by: string | number | null;
  created_at: number | string;
  reviewed_at: number | string | null;
};

async function requireReviewer(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  if (!ctx.access.hasPerm(perms, P.KICK_MEMBERS) && !ctx.access.hasPerm(perms, P.MANAGE_GUILD)) throw Errors.missingPermissions();
}

async function toWire(ctx: Ctx, rows: Row[]) {
  const users = await getUsers(
    ctx,
    rows.flatMap((r) => [String(r.user_id), ...(r.actioned_by ? [String(r.actioned_by)] : [])]),
  );
  const iso = (v: number | string | null) => (v == null ? null : new Date(Number(v)).toISOString());
  return rows.map((r) => {
    const user = users.get(String(r.user_id));
    const by = r.actioned_by ? users.get(String(r.actioned_by)) : undefined;
    return {
      id: String(r.id),
      guild_id: String(r.guild_id),
      user_id: String(r.user_id),
      created_at: iso(r.created_at)!,
      reviewed_at: iso(r.reviewed_at),
      application_status: r.status,
      rejection_reason: r.status === 'REJECTED' ? r.rejection_reason : null,
      user: user ? publicUser(user) : null,
      form_responses: JSON.parse(r.form_responses),
      actioned_by_user: by ? publicUser(by) : null,
    };
  });
}

/** PUT /guilds/{id}/requests/@me: a non-member applies; one request per applicant (a new one replaces a rejected one). */
export async function submitJoinRequest(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const g = await requireGuildRecord(ctx, guildId);
  if (!g.features.includes(JOIN_APPROVAL_FEATURE)) throw Errors.missingAccess();
  if (await ctx.access.isMember(guildId, actor.user.id)) throw new ApiError(400, 40061, 'You are already a member of this guild');
  const banned = await ctx.repos.moderation.isBanned(guildId, actor.user.id);
  if (banned) throw Errors.userBanned();
  const input = parseBody(Submit, body);
  const existing = await ctx.repos.guilds.joinRequestOf(guildId, actor.user.id);
  if (existing && existing.status === 'SUBMITTED') return (await toWire(ctx, [existing as Row]))[0];
  if (existing) await ctx.repos.guilds.deleteJoinRequest(String(existing.id));
  const row = {
    id: ctx.ids.next(),
    guild_id: guildId,
    user_id: actor.user.id,
    status: 'SUBMITTED',
    form_responses: JSON.stringify(input.form_responses),
    rejection_reason: null,
    actioned_by: null,
    created_at: ctx.clock.now(),
    reviewed_at: null,
  };
  await ctx.repos.guilds.insertJoinRequest(row);
  return (await toWire(ctx, [row]))[0];
}

/** GET /guilds/{id}/requests: KICK_MEMBERS or MANAGE_GUILD; newest first, filtered by status. */
export async function listJoinRequests(ctx: Ctx, actor: Actor, guildId: string, query: unknown) {
  await requireReviewer(ctx, actor, guildId);
  const q = parseBody(ListQuery, query);
  const { rows, total } = await ctx.repos.guilds.joinRequestsPage(guildId, { status: q.status, before: q.before, after: q.after, limit: q.limit });
  return { guild_join_requests: await toWire(ctx, rows as Row[]), total };
}

/** PATCH /guilds/{id}/requests/{request_id}: approve (the applicant joins) or reject a SUBMITTED request. */
export async function actionJoinRequest(ctx: Ctx, actor: Actor, guildId: string, requestId: string, body: unknown) {
  await requireReviewer(ctx, actor, guildId);
  const input = parseBody(Action, body);
  checkId(requestId, unknownRequest);
  const row = await ctx.repos.guilds.joinRequestById(guildId, requestId);
  if (!row) throw unknownRequest();
  if (row.status !== 'SUBMITTED') throw new ApiError(400, 0, 'This join request has already been reviewed');
  if (input.action === 'APPROVED') await addMember(ctx, guildId, String(row.user_id));
  const update = {
    status: input.action,
    rejection_reason: input.action === 'REJECTED' ? (input.rejection_reason ?? null) : null,
    actioned_by: actor.user.id,
    reviewed_at: ctx.clock.now(),
  };
  await ctx.repos.guilds.patchJoinRequest(requestId, update);
  return (await toWire(ctx, [{ ...(row as Row), ...update }]))[0];
}
