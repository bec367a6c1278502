import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { GuildRecord } from '../../store/records.js';
import { bool, num, parseJson } from '../../store/json.js';
import { publicUser } from '../../wire/user.js';
import { createGuild } from './create.js';
import { guildRoles, requireGuildRecord } from './lookup.js';
import { checkId } from '../../core/ids.js';
import { renderGuild } from './guild.js';
import { getUser } from '../identity/users.js';
import { randomInt } from '../../core/random.js';

/**
 * Guild templates: a snapshot of a guild's settings, roles and channels under a code. One template per guild (30031);
 * managing needs MANAGE_GUILD; anyone may read a template by code; people create guilds from one.
 */

const unknownTemplate = () => new ApiError(404, 10057, 'Unknown guild template');
const alreadyHasTemplate = () => new ApiError(400, 30031, 'Guild already has a template');
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const newCode = () => Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
/** Template channel types: announcement and stage channels are saved as their plain kind, media as forum. */
const TEMPLATE_TYPE: Record<number, number> = { 0: 0, 2: 2, 4: 4, 5: 0, 13: 2, 15: 15, 16: 15 };

interface TemplateRow {
  code: string;
  guild_id: string | number;
  name: string;
  description: string | null;
  creator_id: string | number;
  usage_count: number;
  snapshot: string;
  dirty: number;
  created_at: number | string;
  updated_at: number | string;
}

/** The serialized source guild: roles and channels renumbered from 0 (role 0 is @everyone), overwrites on those numbers. */
async function snapshot(ctx: Ctx, g: GuildRecord): Promise<Record<string, unknown>> {
  const roles = await guildRoles(ctx, g.id);
  const roleNo = new Map(roles.map((r, i) => [r.id, i]));
  const rows = await ctx.repos.channels.guildChannelsSorted(g.id);
  // Categories first, so a channel's parent always comes before it when the guild is rebuilt.
  const channels = rows.sort((a, b) => Number(b.type === 4) - Number(a.type === 4));
  const chanNo = new Map(channels.map((c, i) => [c.id, i + 1]));
  return {
    name: g.name,
    description: g.description,
    region: null,
    verification_level: g.verification_level,
    default_message_notifications: g.default_message_notifications,
    explicit_content_filter: g.explicit_content_filter,
    preferred_locale: g.preferred_locale,
    // Channel references are placeholder numbers like the ids, but typed as snowflake strings by the spec.
    afk_channel_id: g.afk_channel_id && chanNo.has(g.afk_channel_id) ? String(chanNo.get(g.afk_channel_id)) : null,
    afk_timeout: g.afk_timeout,
    system_channel_id: g.system_channel_id && chanNo.has(g.system_channel_id) ? String(chanNo.get(g.system_channel_id)) : null,
    system_channel_flags: g.system_channel_flags,
    roles: roles.map((r, i) => ({
      id: i,
      name: r.name,
      permissions: r.permissions.toString(),
      color: r.color,
      colors: { primary_color: r.color, secondary_color: r.secondary_color, tertiary_color: r.tertiary_color },
      hoist: r.hoist,
      mentionable: r.mentionable,
      icon: r.icon,
      unicode_emoji: r.unicode_emoji,
    })),
    channels: channels.map((c) => ({
      id: chanNo.get(c.id)!,
      type: TEMPLATE_TYPE[c.type] ?? 0,
      name: c.name,
      position: c.position,
      topic: c.topic,
      bitrate: c.bitrate ?? 64000,
      user_limit: c.user_limit ?? 0,
      nsfw: c.nsfw,
      rate_limit_per_user: c.rate_limit_per_user,
      parent_id: c.parent_id && chanNo.has(c.parent_id) ? String(chanNo.get(c.parent_id)) : null,
      default_auto_archive_duration: c.extra.default_auto_archive_duration ?? null,
      permission_overwrites: c.permission_overwrites
        .filter((o) => o.type === 0 && roleNo.has(o.id))
        .map((o) => ({ id: String(roleNo.get(o.id)), type: 0, allow: o.allow, deny: o.deny })),
      available_tags:
        c.type === 15 || c.type === 16
          ? (c.extra.available_tags ?? []).map((t: any) => ({
              id: null,
              name: t.name,
              emoji_id: t.emoji_id ?? null,
              emoji_name: t.emoji_name ?? null,
              moderated: !!t.moderated,
            }))
          : null,
      template: '',
      default_reaction_emoji: c.extra.default_reaction_emoji ?? null,
      default_thread_rate_limit_per_user: c.extra.default_thread_rate_limit_per_user ?? null,
      default_sort_order: c.extra.default_sort_order ?? null,
      default_forum_layout: c.extra.default_forum_layout ?? null,
      default_tag_setting: null,
      theme_color: null,
    })),
  };
}

/** A template is dirty when its guild no longer matches the snapshot (judged on read, so no change can be missed). */
async function isDirty(ctx: Ctx, row: TemplateRow): Promise<boolean> {
  if (bool(row.dirty)) return true;
  const g = await requireGuildRecord(ctx, String(row.guild_id)).catch(() => null);
  return !!g && JSON.stringify(await snapshot(ctx, g)) !== row.snapshot;
}

async function render(ctx: Ctx, row: TemplateRow) {
  const creator = await getUser(ctx, String(row.creator_id));
  const dirty = await isDirty(ctx, row);
  return {
    code: row.code,
    name: row.name,
    description: row.description ?? null,
    usage_count: num(row.usage_count),
    creator_id: String(row.creator_id),
    creator: creator ? publicUser(creator) : null,
    created_at: new Date(num(row.created_at)).toISOString(),
    updated_at: new Date(num(row.updated_at)).toISOString(),
    source_guild_id: String(row.guild_id),
    serialized_source_guild: parseJson(row.snapshot, {}),
    is_dirty: dirty ? true : null,
  };
}

async function findTemplate(ctx: Ctx, code: string): Promise<TemplateRow | null> {
  if (!/^[A-Za-z0-9]{1,32}$/.test(code)) return null;
  return (await ctx.repos.guilds.templateByCode(code)) as TemplateRow | null;
}

async function guildTemplate(ctx: Ctx, guildId: string, code: string): Promise<TemplateRow> {
  const row = await findTemplate(ctx, code);
  if (!row || String(row.guild_id) !== guildId) throw unknownTemplate();
  return row;
}

async function manage(ctx: Ctx, actor: Actor, guildId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
}

/** GET /guilds/templates/{code}: anyone. */
export async function getTemplate(ctx: Ctx, code: string) {
  const row = await findTemplate(ctx, code);
  if (!row) throw unknownTemplate();
  return render(ctx, row);
}

/** GET /guilds/{id}/templates: MANAGE_GUILD. */
export async function listTemplates(ctx: Ctx, actor: Actor, guildId: string) {
  await manage(ctx, actor, guildId);
  const rows = await ctx.repos.guilds.templatesOf(guildId);
  return Promise.all(rows.map((r) => render(ctx, r as TemplateRow)));
}

/** POST /guilds/{id}/templates: MANAGE_GUILD; a guild holds one template. */
export async function createTemplate(ctx: Ctx, actor: Actor, guildId: string, input: { name: string; description?: string | null }) {
  await manage(ctx, actor, guildId);
  const existing = (await ctx.repos.guilds.templatesOf(guildId))[0];
  if (existing) throw alreadyHasTemplate();
  const g = await requireGuildRecord(ctx, guildId);
  const now = ctx.clock.now();
  let code = newCode();
  while (await findTemplate(ctx, code)) code = newCode();
  const row = {
    code,
    guild_id: guildId,
    name: input.name,
    description: input.description ?? null,
    creator_id: actor.user.id,
    usage_count: 0,
    snapshot: JSON.stringify(await snapshot(ctx, g)),
    dirty: 0,
    created_at: now,
    updated_at: now,
  };
  await ctx.repos.guilds.insertTemplate(row);
  return render(ctx, row);
}

/** PUT /guilds/{id}/templates/{code}: re-snapshots the guild. */
export async function syncTemplate(ctx: Ctx, actor: Actor, guildId: string, code: string) {
  await manage(ctx, actor, guildId);
  const row = await guildTemplate(ctx, guildId, code);
  const g = await requireGuildRecord(ctx, guildId);
  const values = { snapshot: JSON.stringify(await snapshot(ctx, g)), dirty: 0, updated_at: ctx.clock.now() };
  await ctx.repos.guilds.patchTemplate(row.code, values);
  return render(ctx, { ...row, ...values });
}

/** PATCH /guilds/{id}/templates/{code}: name and description. */
export async function updateTemplate(ctx: Ctx, actor: Actor, guildId: string, code: string, input: { name?: string; description?: string | null }) {
  await manage(ctx, actor, guildId);
  const row = await guildTemplate(ctx, guildId, code);
  const values: Record<string, unknown> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.description !== undefined) values.description = input.description;
  if (Object.keys(values).length) await ctx.repos.guilds.patchTemplate(row.code, values);
  return render(ctx, { ...row, ...values } as TemplateRow);
}

/** DELETE /guilds/{id}/templates/{code}: returns the deleted template. */
export async function deleteTemplate(ctx: Ctx, actor: Actor, guildId: string, code: string) {
  await manage(ctx, actor, guildId);
  const row = await guildTemplate(ctx, guildId, code);
  const out = await render(ctx, row);
  await ctx.repos.guilds.deleteTemplate(row.code);
  return out;
}

/**
 * POST /guilds/templates/{code}: a person creates a guild from the template (roles, channels, their overwrites and
 * the guild settings); the template's usage count goes up.
 */
export async function createGuildFromTemplate(ctx: Ctx, actor: Actor, code: string, input: { name: string; icon?: string | null }) {
  if (actor.kind !== 'user' || actor.user.bot) throw Errors.botsCannotUse();
  const row = await findTemplate(ctx, code);
  if (!row) throw unknownTemplate();
  const s = parseJson<any>(row.snapshot, {});
  const roles: any[] = Array.isArray(s.roles) ? s.roles : [];
  const channels: any[] = Array.isArray(s.channels) ? s.channels : [];
  const guildId = await createGuild(ctx, actor.user, {
    name: input.name,
    icon: input.icon ?? null,
    verification_level: s.verification_level,
    default_message_notifications: s.default_message_notifications,
    explicit_content_filter: s.explicit_content_filter,
    preferred_locale: s.preferred_locale,
    afk_timeout: s.afk_timeout,
    system_channel_flags: s.system_channel_flags,
    roles: roles.map((r) => ({ id: r.id, name: r.name, permissions: r.permissions, color: r.color, hoist: r.hoist, mentionable: r.mentionable })),
    channels: channels.length
      ? channels.map((c) => ({ id: c.id, name: c.name ?? 'channel', type: c.type, parent_id: c.parent_id ?? null, topic: c.topic ?? null }))
      : undefined,
  });
  // createGuild keeps the template's order: role n sits at position n, channel n at position n.
  const newRoles = await guildRoles(ctx, guildId);
  const roleAt = new Map(newRoles.map((r) => [r.position, r.id]));
  const roleOf = new Map(roles.map((r, i) => [Number(r.id), roleAt.get(i)]));
  const chanRows = await ctx.repos.channels.positionsIn(guildId);
  const chanAt = new Map(chanRows.map((c) => [c.position, c.id]));
  const chanOf = new Map(channels.map((c, i) => [Number(c.id), chanAt.get(i)]));
  for (const [i, c] of channels.entries()) {
    const overwrites = (Array.isArray(c.permission_overwrites) ? c.permission_overwrites : [])
      .map((o: any) => ({ id: roleOf.get(Number(o.id)), type: 0, allow: String(o.allow ?? '0'), deny: String(o.deny ?? '0') }))
      .filter((o: any) => o.id);
    const id = chanAt.get(i);
    if (id && overwrites.length) await ctx.repos.channels.writeOverwrites(id, overwrites);
  }
  const refs: Record<string, string | null> = {};
  if (s.afk_channel_id != null) refs.afk_channel_id = chanOf.get(Number(s.afk_channel_id)) ?? null;
  if (s.system_channel_id != null) refs.system_channel_id = chanOf.get(Number(s.system_channel_id)) ?? null;
  if (Object.keys(refs).length) await ctx.repos.guilds.patch(guildId, refs);
  await ctx.repos.guilds.countTemplateUse(row.code);
  ctx.access.invalidate(guildId);
  return renderGuild(ctx, await requireGuildRecord(ctx, guildId));
}
