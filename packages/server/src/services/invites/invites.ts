import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { invite as inviteWire } from '../../wire/invite.js';
import { publicUser } from '../../wire/user.js';
import type { InviteRecord } from '../../store/records.js';
import { THREAD_TYPES } from '../../wire/channel.js';
import { getChannelRecord, getGuildRecord, guildCounts } from '../guilds/lookup.js';
import { checkId } from '../../core/ids.js';
import { addMember } from '../guilds/membership.js';
import { getUser } from '../identity/users.js';
import { acceptRules, checkInviteRoles, codesWithMeta, deleteInviteExtras, inviteMeta, inviteRoles, saveInviteExtras } from './targets.js';
import { countVanityUse, vanityGuild } from '../guilds/vanity.js';
import { AuditLogEvent, auditChanges, inviteAudit, writeAuditLog } from '../moderation/audit-log.js';
import { randomInt } from '../../core/random.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const MAX_INVITES = 1000;

const newCode = () => Array.from({ length: 8 }, () => BASE62[randomInt(62)]).join('');

/** An invite stops working when its age or its uses run out; it then reads as unknown. */
export function isLive(i: InviteRecord, now: number): boolean {
  if (i.max_age > 0 && i.created_at + i.max_age * 1000 <= now) return false;
  if (i.max_uses > 0 && i.uses >= i.max_uses) return false;
  return true;
}

async function findInvite(ctx: Ctx, code: string): Promise<InviteRecord | null> {
  if (!/^[A-Za-z0-9-]{1,32}$/.test(code)) return null;
  const inv = (await ctx.repos.invites.byCode(code)) ?? (await vanityInvite(ctx, code));
  return inv && isLive(inv, ctx.clock.now()) ? inv : null;
}

/** A guild's vanity code reads as a permanent invite to its system channel (or its first text channel). */
async function vanityInvite(ctx: Ctx, code: string): Promise<InviteRecord | null> {
  const guildId = await vanityGuild(ctx, code);
  const guild = guildId ? await getGuildRecord(ctx, guildId) : null;
  if (!guild) return null;
  const first = await ctx.repos.channels.firstTextChannelId(guild.id);
  const channelId = guild.system_channel_id ?? first;
  if (!channelId) return null;
  return {
    code,
    guild_id: guild.id,
    channel_id: channelId,
    inviter_id: null,
    max_age: 0,
    max_uses: 0,
    uses: 0,
    temporary: false,
    target_type: null,
    target_user_id: null,
    flags: 0,
    created_at: guild.created_at,
    vanity: true,
  } as InviteRecord;
}
const isVanity = (i: InviteRecord) => (i as InviteRecord & { vanity?: boolean }).vanity === true;

/** A live invite by code (10006 otherwise), for the routes of invite extras. */
export const requireInviteFor = (ctx: Ctx, code: string) => requireInvite(ctx, code);

async function requireInvite(ctx: Ctx, code: string): Promise<InviteRecord> {
  const inv = await findInvite(ctx, code);
  if (!inv) throw Errors.unknownInvite();
  return inv;
}

/** The invite object; `metadata` adds uses, limits and creation time (for managers and the inviter). */
export async function renderInvite(ctx: Ctx, i: InviteRecord, opts: { counts?: boolean; metadata?: boolean } = {}) {
  const [guild, channel, inviter] = await Promise.all([
    i.guild_id ? getGuildRecord(ctx, i.guild_id) : null,
    getChannelRecord(ctx, i.channel_id),
    i.inviter_id ? getUser(ctx, i.inviter_id) : null,
  ]);
  if (!channel) throw Errors.unknownInvite();
  const counts = opts.counts && i.guild_id ? await guildCounts(ctx, i.guild_id) : undefined;
  const out = inviteWire(i, { guild, channel, inviter, counts, withMetadata: opts.metadata });
  const roles = await inviteRoles(ctx, i, await inviteMeta(ctx, i.code));
  if (roles) out.roles = roles;
  return out;
}

export interface InviteInput {
  max_age?: number;
  max_uses?: number;
  temporary?: boolean;
  unique?: boolean;
  /** Roles granted on accept. */
  role_ids?: string[];
  /** Only these users may accept (from `target_users_file` or `target_user_ids`). */
  target_users?: string[] | null;
}

/**
 * POST /channels/{id}/invites: CREATE_INSTANT_INVITE. Without `unique`, a live invite of the same caller with the same
 * settings is handed back instead of minting another.
 */
export async function createInvite(ctx: Ctx, actor: Actor, channelId: string, input: InviteInput) {
  const ch = await getChannelRecord(ctx, channelId);
  if (!ch) throw Errors.unknownChannel();
  if (ch.guild_id === null) throw Errors.cannotDM();
  if (ch.type === 4 || THREAD_TYPES.has(ch.type)) throw Errors.wrongChannelType();
  const guildId = ch.guild_id;
  await ctx.access.requireChannel(guildId, ch.id, actor.user.id, P.CREATE_INSTANT_INVITE);
  const roleIds = input.role_ids ?? [];
  const extras = roleIds.length > 0 || !!input.target_users;
  await checkInviteRoles(ctx, actor, guildId, roleIds);
  const maxAge = input.max_age ?? 86400;
  const maxUses = input.max_uses ?? 0;
  const temporary = input.temporary ?? false;
  const now = ctx.clock.now();

  if (!input.unique && !extras) {
    const rows = await ctx.repos.invites.sameSettings(ch.id, actor.user.id, maxAge, maxUses, temporary);
    const special = await codesWithMeta(
      ctx,
      rows.map((r) => r.code),
    );
    const reuse = rows.find((i) => isLive(i, now) && i.target_type === null && !special.has(i.code));
    if (reuse) return renderInvite(ctx, reuse, { metadata: true });
  }
  if ((await ctx.repos.invites.countInGuild(guildId)) >= MAX_INVITES) throw Errors.maxInvites();

  let code = newCode();
  while (await ctx.repos.invites.codeExists(code)) code = newCode();
  const inv: InviteRecord = {
    code,
    guild_id: guildId,
    channel_id: ch.id,
    inviter_id: actor.user.id,
    max_age: maxAge,
    max_uses: maxUses,
    uses: 0,
    temporary,
    target_type: null,
    target_user_id: null,
    flags: 0,
    created_at: now,
  };
  await ctx.repos.invites.insert(inv);
  if (extras) await saveInviteExtras(ctx, code, { roleIds, targets: input.target_users ?? null });
  ctx.bus.publish({
    t: 'INVITE_CREATE',
    d: {
      channel_id: ch.id,
      guild_id: guildId,
      code,
      created_at: new Date(now).toISOString(),
      inviter: publicUser(actor.user),
      max_age: maxAge,
      max_uses: maxUses,
      temporary,
      uses: 0,
      expires_at: maxAge > 0 ? new Date(now + maxAge * 1000).toISOString() : null,
    },
    guild_id: guildId,
    channel_id: ch.id,
    channel_permission: String(P.MANAGE_CHANNELS), // only to who may manage it
  });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.INVITE_CREATE,
    targetId: null,
    changes: auditChanges('invite', null, inviteAudit(inv)),
  });
  return renderInvite(ctx, inv, { metadata: true });
}

async function liveInvites(ctx: Ctx, column: 'channel_id' | 'guild_id', id: string) {
  const rows = column === 'channel_id' ? await ctx.repos.invites.ofChannel(id) : await ctx.repos.invites.ofGuild(id);
  const now = ctx.clock.now();
  return Promise.all(rows.filter((i) => isLive(i, now)).map((i) => renderInvite(ctx, i, { metadata: true })));
}

/** GET /channels/{id}/invites: MANAGE_CHANNELS there. */
export async function listChannelInvites(ctx: Ctx, actor: Actor, channelId: string) {
  const ch = await getChannelRecord(ctx, channelId);
  if (!ch) throw Errors.unknownChannel();
  if (ch.guild_id === null) throw Errors.cannotDM();
  await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id, P.MANAGE_CHANNELS);
  return liveInvites(ctx, 'channel_id', ch.id);
}

/** GET /guilds/{id}/invites: MANAGE_GUILD. */
export async function listGuildInvites(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
  return liveInvites(ctx, 'guild_id', guildId);
}

/** GET /invites/{code}: anyone may resolve a live invite (expires_at is always present, so with_expiration is moot). */
export async function resolveInvite(ctx: Ctx, code: string, opts: { withCounts: boolean }) {
  return renderInvite(ctx, await requireInvite(ctx, code), { counts: opts.withCounts });
}

/** DELETE /invites/{code}: the inviter, MANAGE_CHANNELS on its channel, or MANAGE_GUILD. */
export async function revokeInvite(ctx: Ctx, actor: Actor, code: string) {
  const inv = await requireInvite(ctx, code);
  if (isVanity(inv)) throw Errors.unknownInvite();
  if (inv.inviter_id !== actor.user.id) {
    if (!inv.guild_id) throw Errors.missingPermissions();
    const guildPerms = await ctx.access.requireGuild(inv.guild_id, actor.user.id);
    const chanPerms = (await ctx.access.channelPerms(inv.guild_id, inv.channel_id, actor.user.id)) ?? 0n;
    if (!ctx.access.hasPerm(chanPerms, P.MANAGE_CHANNELS) && !ctx.access.hasPerm(guildPerms, P.MANAGE_GUILD)) throw Errors.missingPermissions();
  }
  const out = await renderInvite(ctx, inv);
  await removeInvite(ctx, inv);
  if (inv.guild_id)
    await writeAuditLog(ctx, {
      guildId: inv.guild_id,
      userId: actor.user.id,
      actionType: AuditLogEvent.INVITE_DELETE,
      targetId: null,
      changes: auditChanges('invite', inviteAudit(inv), null),
    });
  return out;
}

async function removeInvite(ctx: Ctx, inv: InviteRecord): Promise<void> {
  await ctx.repos.invites.delete(inv.code);
  await deleteInviteExtras(ctx, inv.code);
  ctx.bus.publish({
    t: 'INVITE_DELETE',
    d: { channel_id: inv.channel_id, guild_id: inv.guild_id ?? undefined, code: inv.code },
    guild_id: inv.guild_id,
    channel_id: inv.channel_id,
    channel_permission: String(P.MANAGE_CHANNELS),
  });
}

/**
 * POST /invites/{code}: people only. Joining uses the invite once (atomically, so max_uses holds under races); an
 * invite used up is deleted. Banned users get 40007; existing members get the invite back with new_member false.
 */
export async function acceptInvite(ctx: Ctx, actor: Actor, code: string) {
  if (actor.kind === 'bot' || actor.user.bot) throw Errors.botsCannotUse();
  if (actor.kind === 'bearer') throw Errors.missingAccess();
  const inv = await requireInvite(ctx, code);
  const guildId = inv.guild_id;
  if (!guildId) throw Errors.unknownInvite();
  const out = await renderInvite(ctx, inv);
  if (await ctx.access.isMember(guildId, actor.user.id)) return { ...out, new_member: false };
  if (await ctx.repos.moderation.isBannedFrom(guildId, actor.user.id)) throw Errors.userBanned();
  const roles = await acceptRules(ctx, inv, actor.user.id);
  if (isVanity(inv)) {
    const joined = await addMember(ctx, guildId, actor.user.id);
    if (joined) await countVanityUse(ctx, inv.code);
    return { ...out, new_member: joined !== null };
  }

  if (!(await ctx.repos.invites.useOnce(inv.code))) throw Errors.unknownInvite();
  const joined = await addMember(ctx, guildId, actor.user.id, { roles });
  if (inv.max_uses > 0) {
    const uses = await ctx.repos.invites.uses(inv.code);
    if (uses !== null && uses >= inv.max_uses) await removeInvite(ctx, inv);
  }
  return { ...out, new_member: joined !== null };
}
