import { incidentsData } from './settings.js';
import { announceLostFollowers, deleteGuildExtras, type FollowerTarget } from './teardown.js';
import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { guild as guildWire } from '../../wire/guild.js';
import type { GuildRecord } from '../../store/records.js';
import { createGuild, type GuildCreateInput } from './create.js';
import { getChannelRecord, guildCounts, guildRoles, requireGuildRecord } from './lookup.js';
import { checkId } from '../../core/ids.js';
import { getUser } from '../identity/users.js';
import { deleteGuildResources, guildExpressions } from './resources.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { GUILD_IMAGE_KINDS, setGuildImage } from './guild-images.js';

/** Features a guild manager may toggle; the rest are granted by the platform (or the dev API). */
const MUTABLE_FEATURES = new Set(['COMMUNITY', 'DISCOVERABLE', 'INVITES_DISABLED', 'RAID_ALERTS_DISABLED', 'MEMBER_VERIFICATION_GATE_ENABLED']);
const TEXT_TYPES = new Set([0, 5]);

export async function renderGuild(ctx: Ctx, g: GuildRecord, withCounts = false) {
  const wire = guildWire(g, await guildRoles(ctx, g.id), withCounts ? await guildCounts(ctx, g.id) : undefined, await guildExpressions(ctx, g.id));
  return { ...wire, incidents_data: await incidentsData(ctx, g.id) };
}

/** POST /guilds: people only (apps lost this on 2025-07-15). */
export async function createGuildAs(ctx: Ctx, actor: Actor, input: GuildCreateInput) {
  if (actor.kind === 'bot' || actor.user.bot) throw Errors.botsCannotUse();
  if (actor.kind === 'bearer') throw Errors.missingScope();
  const id = await createGuild(ctx, actor.user, input);
  return renderGuild(ctx, await requireGuildRecord(ctx, id));
}

export async function viewGuild(ctx: Ctx, actor: Actor, guildId: string, withCounts: boolean) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  return renderGuild(ctx, await requireGuildRecord(ctx, guildId), withCounts);
}

export interface GuildPatch {
  name?: string;
  icon?: string | null;
  splash?: string | null;
  banner?: string | null;
  description?: string | null;
  afk_channel_id?: string | null;
  afk_timeout?: number;
  verification_level?: number;
  default_message_notifications?: number;
  explicit_content_filter?: number;
  system_channel_id?: string | null;
  system_channel_flags?: number;
  rules_channel_id?: string | null;
  public_updates_channel_id?: string | null;
  safety_alerts_channel_id?: string | null;
  preferred_locale?: string;
  features?: string[];
  premium_progress_bar_enabled?: boolean;
  owner_id?: string;
}

const CHANNEL_REFS = ['afk_channel_id', 'system_channel_id', 'rules_channel_id', 'public_updates_channel_id', 'safety_alerts_channel_id'] as const;
const PLAIN = [
  'name',
  'description',
  'afk_timeout',
  'verification_level',
  'default_message_notifications',
  'explicit_content_filter',
  'system_channel_flags',
  'preferred_locale',
] as const;

/** PATCH /guilds/{id}: MANAGE_GUILD; ownership transfer is the owner's alone. Emits GUILD_UPDATE. */
export async function updateGuild(ctx: Ctx, actor: Actor, guildId: string, patch: GuildPatch) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
  const g = await requireGuildRecord(ctx, guildId);
  const values: Record<string, unknown> = {};
  for (const k of PLAIN) if (patch[k] !== undefined) values[k] = patch[k];

  // Channel references must point at a channel of this guild of the right kind.
  for (const k of CHANNEL_REFS) {
    const v = patch[k];
    if (v === undefined) continue;
    if (v !== null) {
      const ch = await getChannelRecord(ctx, v);
      const ok = ch && ch.guild_id === guildId && (k === 'afk_channel_id' ? ch.type === 2 : TEXT_TYPES.has(ch.type));
      if (!ok) throw fieldError(k, 'CHANNEL_INVALID', 'Invalid channel.');
    }
    values[k] = v;
  }
  if (patch.features !== undefined) {
    const kept = g.features.filter((f) => !MUTABLE_FEATURES.has(f));
    const wanted = patch.features.filter((f) => MUTABLE_FEATURES.has(f));
    values.features = JSON.stringify([...new Set([...kept, ...wanted])]);
  }
  if (patch.premium_progress_bar_enabled !== undefined) values.premium_progress_bar_enabled = patch.premium_progress_bar_enabled ? 1 : 0;
  if (patch.owner_id !== undefined && patch.owner_id !== g.owner_id) {
    if (actor.user.id !== g.owner_id) throw Errors.missingPermissions();
    if (!(await ctx.access.isMember(guildId, patch.owner_id)))
      throw fieldError('owner_id', 'GUILD_OWNER_INVALID', 'The new owner must be a member of the guild.');
    const next = await getUser(ctx, patch.owner_id);
    if (!next || next.bot) throw Errors.ownershipToBot();
    values.owner_id = patch.owner_id;
  }

  // Images last: every other field was checked, so a refused patch stores none.
  for (const k of GUILD_IMAGE_KINDS) if (patch[k] !== undefined) values[k] = await setGuildImage(ctx, guildId, k, patch[k] ?? null);

  if (Object.keys(values).length) await ctx.repos.guilds.patch(guildId, values);
  const out = await renderGuild(ctx, await requireGuildRecord(ctx, guildId));
  ctx.bus.publish({ t: 'GUILD_UPDATE', d: out, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_UPDATE,
    targetId: guildId,
    changes: auditChanges('guild', g, out),
  });
  return out;
}

/** DELETE /guilds/{id}: the owner only. Everything the guild holds goes with it; every member gets GUILD_DELETE. */
export async function deleteGuild(ctx: Ctx, actor: Actor, guildId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  if ((await ctx.access.ownerId(guildId)) !== actor.user.id) throw Errors.missingPermissions();
  const memberIds = await ctx.repos.members.userIdsOf(guildId);
  let lostFollowers: FollowerTarget[] = [];
  await ctx.repos.transaction(async (tx) => {
    lostFollowers = await deleteGuildExtras(tx, guildId); // templates, vanity, settings, followers, guild commands, …
    await tx.reactions.deleteInGuild(guildId);
    await tx.threads.deleteMembersInGuild(guildId);
    await tx.files.deleteInGuild(guildId);
    await tx.messages.deleteInGuild(guildId);
    await tx.webhooks.deleteInGuild(guildId);
    await tx.invites.deleteInGuild(guildId);
    await tx.moderation.deleteBansOf(guildId);
    await tx.channels.deleteInGuild(guildId);
    await tx.members.deleteInGuild(guildId);
    await tx.roles.deleteInGuild(guildId);
    await tx.guilds.images.delete(guildId);
    await deleteGuildResources(tx, guildId); // emoji, stickers, sounds, events, stages, audit log, AutoMod
    await tx.guilds.deleteRow(guildId);
  });
  ctx.access.invalidate(guildId);
  ctx.bus.publish({ t: 'GUILD_DELETE', d: { id: guildId }, guild_id: guildId, user_ids: memberIds });
  announceLostFollowers(ctx, lostFollowers);
}
