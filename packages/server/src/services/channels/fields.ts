import type { Ctx } from '../context.js';
import { Errors, fieldError, formError } from '../../core/errors.js';
import { ALL_PERMISSIONS, P, type Overwrite } from '@accord/protocol';
import type { GuildRecord } from '../../store/records.js';
import { getChannelRecord, isAdmin } from '../guilds/lookup.js';
import { isId } from '../../core/ids.js';

/** Channel fields as the create and edit routes accept them (already shape-checked by the route). */
export interface OverwriteInput {
  id: string;
  type: number;
  allow?: string | null;
  deny?: string | null;
}
export interface TagInput {
  id?: string;
  name: string;
  moderated?: boolean | null;
  emoji_id?: string | null;
  emoji_name?: string | null;
}
export interface ChannelInput {
  name?: string;
  type?: number;
  topic?: string | null;
  bitrate?: number | null;
  user_limit?: number | null;
  rate_limit_per_user?: number | null;
  position?: number | null;
  permission_overwrites?: OverwriteInput[] | null;
  parent_id?: string | null;
  nsfw?: boolean | null;
  rtc_region?: string | null;
  video_quality_mode?: number | null;
  default_auto_archive_duration?: number | null;
  default_reaction_emoji?: { emoji_id?: string | null; emoji_name?: string | null } | null;
  available_tags?: TagInput[] | null;
  default_sort_order?: number | null;
  default_forum_layout?: number | null;
  default_thread_rate_limit_per_user?: number | null;
  flags?: number | null;
}

export const TEXTLIKE = new Set([0, 5, 15, 16]);
export const VOICELIKE = new Set([2, 13]);
export const FORUMLIKE = new Set([15, 16]);
const VOICE_BITRATE_BY_TIER = [96000, 128000, 256000, 384000];
const MAX_CATEGORY_CHILDREN = 50;

/** Limits that depend on the channel type (fields that do not apply to a type are ignored, as the platform does). */
export function checkTypeFields(guild: GuildRecord, type: number, input: ChannelInput): void {
  const topicMax = FORUMLIKE.has(type) ? 4096 : 1024;
  if (TEXTLIKE.has(type) && input.topic && input.topic.length > topicMax) {
    throw fieldError('topic', 'BASE_TYPE_MAX_LENGTH', `Must be ${topicMax} or fewer in length.`);
  }
  if (VOICELIKE.has(type) && input.bitrate != null) {
    const max = type === 13 ? 64000 : guild.features.includes('VIP_REGIONS') ? 384000 : (VOICE_BITRATE_BY_TIER[guild.premium_tier] ?? 96000);
    if (input.bitrate > max) throw fieldError('bitrate', 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
  }
  if (VOICELIKE.has(type) && input.user_limit != null) {
    const max = type === 13 ? 10000 : 99;
    if (input.user_limit > max) throw fieldError('user_limit', 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
  }
}

/** A parent must be a category of the same guild with room left; categories cannot nest. */
export async function checkParent(ctx: Ctx, guildId: string, parentId: string, type: number, selfId: string | null): Promise<void> {
  const bad = () => fieldError('parent_id', 'CHANNEL_PARENT_INVALID', 'Invalid parent channel.');
  if (type === 4) throw bad();
  const parent = await getChannelRecord(ctx, parentId);
  if (!parent || parent.guild_id !== guildId || parent.type !== 4) throw bad();
  const siblings = await ctx.repos.channels.childIdsOf(parentId);
  if (siblings.filter((s) => s !== selfId).length >= MAX_CATEGORY_CHILDREN) {
    throw fieldError('parent_id', 'CHANNEL_PARENT_MAX_CHANNELS', `Category cannot have more than ${MAX_CATEGORY_CHILDREN} channels.`);
  }
}

/** Checks overwrite targets (a role of the guild, or a user) and masks unknown bits. Later duplicates win. */
export async function normalizeOverwrites(ctx: Ctx, guildId: string, list: OverwriteInput[], path = 'permission_overwrites'): Promise<Overwrite[]> {
  const roleIds = new Set((await ctx.repos.roles.ofGuild(guildId)).map((r) => r.id));
  const userIds = list.filter((o) => o.type === 1 && isId(o.id)).map((o) => o.id);
  const users = userIds.length ? new Set((await ctx.repos.users.byIds(userIds)).keys()) : new Set<string>();
  const leaves: { path: (string | number)[]; code: string; message: string }[] = [];
  const out = new Map<string, Overwrite>();
  list.forEach((o, i) => {
    const known = o.type === 0 ? roleIds.has(o.id) : users.has(o.id);
    if (!known)
      leaves.push({ path: [path, i, 'id'], code: o.type === 0 ? 'ROLE_INVALID' : 'USER_INVALID', message: o.type === 0 ? 'Unknown role.' : 'Unknown user.' });
    out.set(`${o.type}:${o.id}`, { id: o.id, type: o.type as 0 | 1, allow: mask(o.allow), deny: mask(o.deny) });
  });
  if (leaves.length) throw formError(leaves);
  return [...out.values()];
}

const mask = (v: string | null | undefined) => (BigInt(v ?? '0') & ALL_PERMISSIONS).toString();

/**
 * Non-admins may only allow or deny bits they hold (only the bits that change are judged, so an existing overwrite
 * does not block unrelated edits). `manageRolesAdminOnly`: MANAGE_ROLES in an overwrite is for administrators.
 */
export function checkOverwriteGrant(callerPerms: bigint, before: Overwrite[], after: Overwrite[], manageRolesAdminOnly = false): void {
  if (isAdmin(callerPerms)) return;
  let changed = 0n;
  for (const o of after) {
    const old = before.find((b) => b.id === o.id && b.type === o.type);
    changed |= (BigInt(o.allow) ^ BigInt(old?.allow ?? '0')) | (BigInt(o.deny) ^ BigInt(old?.deny ?? '0'));
  }
  for (const old of before) {
    if (!after.some((o) => o.id === old.id && o.type === old.type)) changed |= BigInt(old.allow) | BigInt(old.deny);
  }
  if (changed & ~callerPerms) throw Errors.missingPermissions();
  if (manageRolesAdminOnly && changed & P.MANAGE_ROLES) throw Errors.missingPermissions();
}

/** Rarely used per-type settings live in the JSON `extra` column; null clears a setting back to its default. */
export function extraFor(ctx: Ctx, type: number, input: ChannelInput, prev: Record<string, any> = {}): Record<string, any> {
  const e: Record<string, any> = { ...prev };
  const set = (k: string, v: unknown) => {
    if (v === undefined) return;
    if (v === null) delete e[k];
    else e[k] = v;
  };
  if (TEXTLIKE.has(type)) {
    set('default_auto_archive_duration', input.default_auto_archive_duration);
    set('default_thread_rate_limit_per_user', input.default_thread_rate_limit_per_user);
  }
  if (FORUMLIKE.has(type)) {
    if (input.available_tags !== undefined) {
      const old = new Set(((prev.available_tags ?? []) as { id: string }[]).map((t) => t.id));
      set(
        'available_tags',
        input.available_tags?.map((t) => ({
          id: t.id && old.has(t.id) ? t.id : ctx.ids.next(),
          name: t.name,
          moderated: !!t.moderated,
          emoji_id: t.emoji_id ?? null,
          emoji_name: t.emoji_name ?? null,
        })) ?? null,
      );
    }
    set(
      'default_reaction_emoji',
      input.default_reaction_emoji === undefined
        ? undefined
        : input.default_reaction_emoji && {
            emoji_id: input.default_reaction_emoji.emoji_id ?? null,
            emoji_name: input.default_reaction_emoji.emoji_name ?? null,
          },
    );
    set('default_sort_order', input.default_sort_order);
    set('default_forum_layout', input.default_forum_layout);
  }
  if (VOICELIKE.has(type)) set('video_quality_mode', input.video_quality_mode);
  return e;
}
