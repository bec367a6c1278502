import type { Actor, Ctx } from '../context.js';
import { fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { guildRoles, outranks, requireGuildPerms } from './lookup.js';
import { removeMember } from './membership.js';
import { AuditLogEvent, writeAuditLog } from '../moderation/audit-log.js';

/** Guild prune: counting and kicking members inactive for a number of days. */

export interface PruneInput {
  days?: number;
  include_roles?: string[];
  compute_prune_count?: boolean;
}

/**
 * Members a prune would remove: joined more than `days` ago, silent in the guild since then (messages are the only
 * activity the server records), holding no role except those in `include_roles`, and below the caller. The owner and
 * the caller are never pruned.
 */
async function pruneCandidates(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput): Promise<string[]> {
  const days = input.days ?? 7;
  const cutoff = ctx.clock.now() - days * 86400_000;
  const include = new Set(input.include_roles ?? []);
  const roles = new Set((await guildRoles(ctx, guildId)).map((r) => r.id));
  input.include_roles?.forEach((id, i) => {
    if (!roles.has(id)) throw fieldError(['include_roles', i], 'ROLE_INVALID', 'Invalid role.');
  });
  const rows = await ctx.repos.members.joinedBy(guildId, cutoff);
  const active = new Set(await ctx.repos.messages.authorsInGuildSince(guildId, cutoff));
  const owner = await ctx.access.ownerId(guildId);
  const out: string[] = [];
  for (const m of rows) {
    if (m.user_id === owner || m.user_id === actor.user.id || active.has(m.user_id)) continue;
    if (m.roles.some((r) => roles.has(r) && !include.has(r))) continue;
    if (!(await outranks(ctx, guildId, actor.user.id, m.user_id))) continue;
    out.push(m.user_id);
  }
  return out;
}

/** GET /guilds/{id}/prune: MANAGE_GUILD and KICK_MEMBERS. */
export async function pruneCount(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD | P.KICK_MEMBERS);
  return { pruned: (await pruneCandidates(ctx, actor, guildId, input)).length };
}

/** POST /guilds/{id}/prune: MANAGE_GUILD and KICK_MEMBERS; kicks the candidates; audit MEMBER_PRUNE (21). */
export async function beginPrune(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD | P.KICK_MEMBERS);
  const ids = await pruneCandidates(ctx, actor, guildId, input);
  let removed = 0;
  for (const id of ids) if (await removeMember(ctx, guildId, id)) removed++;
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.MEMBER_PRUNE,
    targetId: null,
    options: { delete_member_days: input.days ?? 7, members_removed: removed },
  });
  return { pruned: input.compute_prune_count === false ? null : removed };
}
