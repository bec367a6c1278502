import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { publicUser } from '../../wire/user.js';
import type { UserRecord } from '../../store/records.js';
import { outranks } from '../guilds/lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { removeMember } from '../guilds/membership.js';
import { getUser, getUsers } from '../identity/users.js';
import { AuditLogEvent, auditBans } from './audit-log.js';

const CHUNK = 500;

const banView = (reason: string | null, user: UserRecord) => ({ reason, user: publicUser(user) });

export async function listBans(ctx: Ctx, actor: Actor, guildId: string, q: { limit?: number; before?: string; after?: string }) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.BAN_MEMBERS);
  const limit = q.limit ?? 1000;
  let rows;
  if (q.before !== undefined && !q.after) {
    // The page just before `before`, still returned in ascending order.
    rows = await ctx.repos.moderation.bansBefore(guildId, isId(q.before) ? q.before : null, limit);
  } else {
    if (q.after !== undefined && !isId(q.after)) return [];
    rows = await ctx.repos.moderation.bansAfter(guildId, q.after ?? '0', limit);
  }
  const users = await getUsers(
    ctx,
    rows.map((r) => r.user_id),
  );
  return rows.flatMap((r) => {
    const u = users.get(r.user_id);
    return u ? [banView(r.reason ?? null, u)] : [];
  });
}

export async function getBan(ctx: Ctx, actor: Actor, guildId: string, userId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.BAN_MEMBERS);
  checkId(userId, Errors.unknownBan);
  const row = await ctx.repos.moderation.banOf(guildId, userId);
  const user = row && (await getUser(ctx, userId));
  if (!row || !user) throw Errors.unknownBan();
  return banView(row.reason ?? null, user);
}

/** Whether the caller may ban this user: members must rank below the caller (the owner never can be banned). */
async function bannable(ctx: Ctx, guildId: string, actorId: string, userId: string): Promise<boolean> {
  if (!(await ctx.access.isMember(guildId, userId))) return true;
  return outranks(ctx, guildId, actorId, userId);
}

/**
 * Bans users already checked: one transaction writes the bans and removes their recent messages; then members are
 * removed and events go out (MESSAGE_DELETE_BULK per channel, GUILD_BAN_ADD per new ban).
 */
async function applyBans(ctx: Ctx, guildId: string, users: UserRecord[], deleteSeconds: number, reason: string | null): Promise<void> {
  const ids = users.map((u) => u.id);
  const already = new Set(await ctx.repos.moderation.bannedAmong(guildId, ids));
  const fresh = users.filter((u) => !already.has(u.id));
  const doomed = deleteSeconds > 0 ? await ctx.repos.messages.idsByAuthorsInGuildSince(guildId, ids, ctx.clock.now() - deleteSeconds * 1000) : [];
  const messageIds = doomed.map((m) => String(m.id));
  await ctx.repos.transaction(async (tx) => {
    if (fresh.length) {
      await tx.moderation.insertBans(fresh.map((u) => ({ guild_id: guildId, user_id: u.id, reason, created_at: ctx.clock.now() })));
    }
    for (let i = 0; i < messageIds.length; i += CHUNK) {
      const part = messageIds.slice(i, i + CHUNK);
      await tx.reactions.deleteOnMessages(part);
      await tx.messages.deleteByIds(part);
    }
  });
  for (const u of users) await removeMember(ctx, guildId, u.id);
  const byChannel = new Map<string, string[]>();
  for (const m of doomed) {
    const ch = String(m.channel_id);
    byChannel.set(ch, [...(byChannel.get(ch) ?? []), String(m.id)]);
  }
  for (const [channelId, list] of byChannel) {
    ctx.bus.publish({ t: 'MESSAGE_DELETE_BULK', d: { ids: list, channel_id: channelId, guild_id: guildId }, guild_id: guildId, channel_id: channelId });
  }
  for (const u of fresh) ctx.bus.publish({ t: 'GUILD_BAN_ADD', d: { guild_id: guildId, user: publicUser(u) }, guild_id: guildId });
}

/** PUT /guilds/{id}/bans/{user_id}: BAN_MEMBERS and a higher rank than the member; deletes their recent messages. */
export async function banUser(
  ctx: Ctx,
  actor: Actor,
  guildId: string,
  userId: string,
  opts: { deleteMessageSeconds: number; reason: string | null },
): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.BAN_MEMBERS);
  checkId(userId, Errors.unknownUser);
  const user = await getUser(ctx, userId);
  if (!user) throw Errors.unknownUser();
  if (!(await bannable(ctx, guildId, actor.user.id, userId))) throw Errors.missingPermissions();
  await applyBans(ctx, guildId, [user], opts.deleteMessageSeconds, opts.reason);
  await auditBans(ctx, actor.user.id, guildId, [userId], AuditLogEvent.MEMBER_BAN_ADD);
}

/** POST /guilds/{id}/bulk-ban: BAN_MEMBERS and MANAGE_GUILD; unknown, already banned or higher-ranked users fail. */
export async function bulkBan(ctx: Ctx, actor: Actor, guildId: string, userIds: string[], opts: { deleteMessageSeconds: number; reason: string | null }) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.BAN_MEMBERS | P.MANAGE_GUILD);
  const wanted = [...new Set(userIds)];
  const valid = wanted.filter(isId);
  const users = await getUsers(ctx, valid);
  const banned = new Set(valid.length ? await ctx.repos.moderation.bannedAmong(guildId, valid) : []);
  const ok: UserRecord[] = [];
  for (const id of valid) {
    const u = users.get(id);
    if (u && !banned.has(id) && (await bannable(ctx, guildId, actor.user.id, id))) ok.push(u);
  }
  if (!ok.length) throw new ApiError(400, 500000, 'Failed to ban users');
  await applyBans(ctx, guildId, ok, opts.deleteMessageSeconds, opts.reason);
  await auditBans(
    ctx,
    actor.user.id,
    guildId,
    ok.map((u) => u.id),
    AuditLogEvent.MEMBER_BAN_ADD,
  );
  const okIds = new Set(ok.map((u) => u.id));
  return { banned_users: ok.map((u) => u.id), failed_users: wanted.filter((id) => !okIds.has(id)) };
}

/** DELETE /guilds/{id}/bans/{user_id}. */
export async function unbanUser(ctx: Ctx, actor: Actor, guildId: string, userId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.BAN_MEMBERS);
  checkId(userId, Errors.unknownBan);
  if (!(await ctx.repos.moderation.unban(guildId, userId))) throw Errors.unknownBan();
  const user = await getUser(ctx, userId);
  await auditBans(ctx, actor.user.id, guildId, [userId], AuditLogEvent.MEMBER_BAN_REMOVE);
  ctx.bus.publish({ t: 'GUILD_BAN_REMOVE', d: { guild_id: guildId, user: user ? publicUser(user) : { id: userId } }, guild_id: guildId });
}
