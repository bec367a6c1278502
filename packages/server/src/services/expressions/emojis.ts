import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError, formError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { parseBody, snowflake } from '../../core/validation.js';
import { emojiWire, type EmojiRow } from '../../wire/expressions.js';
import { imageFromDataUri, type AssetFormat } from './assets.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { getApplication } from '../identity/applications.js';
import { requireGuildRecord } from '../guilds/lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { getUser, getUsers } from '../identity/users.js';

/**
 * Guild emoji (GUILD_EMOJIS_UPDATE on every change) and application emoji (up to 2000 per app, managed with the app's
 * bot token). Creating needs CREATE_GUILD_EXPRESSIONS (which MANAGE_GUILD_EXPRESSIONS grants until the 2026-02-23
 * cutover, judged by `has()` on the server clock); editing and deleting need MANAGE_GUILD_EXPRESSIONS, or
 * CREATE_GUILD_EXPRESSIONS for one's own emoji.
 */

export const EMOJI_FORMATS: AssetFormat[] = ['png', 'apng', 'jpeg', 'gif', 'webp', 'avif'];
export const MAX_EMOJI_BYTES = 256 * 1024;
export const MAX_APP_EMOJIS = 2000;
/** Static and animated slots per premium tier (counted apart). */
const SLOTS = [50, 100, 150, 250];

export const unknownEmoji = () => new ApiError(404, 10014, 'Unknown Emoji');

const NAME_RE = /^[A-Za-z0-9_]+$/;
const emojiName = z.string().superRefine((v, c) => {
  if (v.length < 2 || v.length > 32) c.addIssue({ code: 'custom', message: 'Must be between 2 and 32 in length.', params: { code: 'BASE_TYPE_BAD_LENGTH' } });
  else if (!NAME_RE.test(v)) c.addIssue({ code: 'custom', message: 'String value did not match validation regex.', params: { code: 'STRING_TYPE_REGEX' } });
});
const roleList = z.array(snowflake.nullable()).max(250).nullable().optional();

const CreateBody = z.object({ name: emojiName, image: z.string(), roles: roleList });
const PatchBody = z.object({ name: emojiName.optional(), roles: roleList });
const AppCreateBody = z.object({ name: emojiName, image: z.string() });
const AppPatchBody = z.object({ name: emojiName.optional() });

type Row = EmojiRow & { created_at: unknown };

async function guildRows(ctx: Ctx, guildId: string): Promise<Row[]> {
  return ctx.repos.expressions.emojisOfGuild(guildId);
}

/** The guild's emoji as GUILD_CREATE, GET /guilds/{id} and GUILD_EMOJIS_UPDATE carry them (no uploader). */
export async function guildEmojis(ctx: Ctx, guildId: string) {
  if (!isId(guildId)) return [];
  return (await guildRows(ctx, guildId)).map((r) => emojiWire(r));
}

async function announce(ctx: Ctx, guildId: string): Promise<void> {
  ctx.bus.publish({ t: 'GUILD_EMOJIS_UPDATE', d: { guild_id: guildId, emojis: await guildEmojis(ctx, guildId) }, guild_id: guildId });
}

/** Whether the caller may see who uploaded expressions of this guild. */
export const seesUploaders = (ctx: Ctx, perms: bigint) =>
  ctx.access.hasPerm(perms, P.MANAGE_GUILD_EXPRESSIONS) || ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS);

/** MANAGE_GUILD_EXPRESSIONS, or CREATE_GUILD_EXPRESSIONS on one's own expression. */
export function requireExpressionManager(ctx: Ctx, perms: bigint, creatorId: string | null, actorId: string): void {
  if (ctx.access.hasPerm(perms, P.MANAGE_GUILD_EXPRESSIONS)) return;
  if (creatorId === actorId && ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS)) return;
  throw Errors.missingPermissions();
}

async function requireEmoji(ctx: Ctx, guildId: string, emojiId: string): Promise<Row> {
  checkId(emojiId, unknownEmoji);
  const row = await ctx.repos.expressions.emojiInGuild(guildId, emojiId);
  if (!row) throw unknownEmoji();
  return row;
}

/** Role ids must be roles of this guild (nulls are dropped, as the spec allows them in the array). */
async function checkRoles(ctx: Ctx, guildId: string, roles: (string | null)[] | null | undefined): Promise<string[] | undefined> {
  if (roles === undefined) return undefined;
  const ids = [...new Set((roles ?? []).filter((r): r is string => !!r))];
  if (!ids.length) return [];
  const found = new Set(await ctx.repos.roles.idsAmongInGuild(guildId, ids.filter(isId)));
  const bad = ids.map((id, i) => ({ id, i })).filter((x) => !found.has(x.id));
  if (bad.length) throw formError(bad.map((b) => ({ path: ['roles', b.i], code: 'ROLE_INVALID', message: 'Invalid role.' })));
  return ids;
}

export async function listGuildEmojis(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const rows = await guildRows(ctx, guildId);
  const users = seesUploaders(ctx, perms)
    ? await getUsers(
        ctx,
        rows
          .map((r) => r.user_id)
          .filter(Boolean)
          .map(String),
      )
    : new Map();
  return rows.map((r) => emojiWire(r, r.user_id ? users.get(String(r.user_id)) : null));
}

export async function getGuildEmoji(ctx: Ctx, actor: Actor, guildId: string, emojiId: string) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireEmoji(ctx, guildId, emojiId);
  const creator = row.user_id ? String(row.user_id) : null;
  const show = ctx.access.hasPerm(perms, P.MANAGE_GUILD_EXPRESSIONS) || (creator === actor.user.id && ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS));
  return emojiWire(row, show && creator ? await getUser(ctx, creator) : null);
}

/** POST /guilds/{id}/emojis: CREATE_GUILD_EXPRESSIONS; 256 KiB; static and animated slots by premium tier. */
export async function createGuildEmoji(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  if (!ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS)) throw Errors.missingPermissions();
  const b = parseBody(CreateBody, body);
  const asset = imageFromDataUri(b.image, { field: 'image', allowed: EMOJI_FORMATS, maxBytes: MAX_EMOJI_BYTES });
  const roles = (await checkRoles(ctx, guildId, b.roles)) ?? [];
  const guild = await requireGuildRecord(ctx, guildId);
  const slots = SLOTS[Math.min(Math.max(guild.premium_tier, 0), 3)];
  const rows = await guildRows(ctx, guildId);
  const animated = asset.animated || asset.format === 'gif';
  if (rows.filter((r) => Number(r.animated) === (animated ? 1 : 0)).length >= slots) {
    throw animated
      ? new ApiError(400, 30018, `Maximum number of animated emojis reached (${slots})`)
      : new ApiError(400, 30008, `Maximum number of emojis reached (${slots})`);
  }
  const row = {
    id: ctx.ids.next(),
    guild_id: guildId,
    application_id: null,
    name: b.name,
    user_id: actor.user.id,
    roles: JSON.stringify(roles),
    animated: animated ? 1 : 0,
    available: 1,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.expressions.insertEmoji(row, { contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  const out = emojiWire(row, actor.user);
  await announce(ctx, guildId);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.EMOJI_CREATE,
    targetId: row.id,
    changes: auditChanges('emoji', null, { name: b.name }),
  });
  return out;
}

export async function updateGuildEmoji(ctx: Ctx, actor: Actor, guildId: string, emojiId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireEmoji(ctx, guildId, emojiId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  const b = parseBody(PatchBody, body);
  const roles = await checkRoles(ctx, guildId, b.roles);
  const set: { name?: string; roles?: string } = {};
  if (b.name !== undefined) set.name = b.name;
  if (roles !== undefined) set.roles = JSON.stringify(roles);
  if (Object.keys(set).length) await ctx.repos.expressions.patchEmoji(String(row.id), set);
  const next = { ...row, ...set };
  const creator = row.user_id ? await getUser(ctx, String(row.user_id)) : null;
  const out = emojiWire(next, ctx.access.hasPerm(perms, P.MANAGE_GUILD_EXPRESSIONS) || creator?.id === actor.user.id ? creator : null);
  if (Object.keys(set).length) {
    await announce(ctx, guildId);
    await writeAuditLog(ctx, {
      guildId,
      userId: actor.user.id,
      actionType: AuditLogEvent.EMOJI_UPDATE,
      targetId: String(row.id),
      changes: auditChanges('emoji', { name: row.name }, { name: next.name }),
    });
  }
  return out;
}

export async function deleteGuildEmoji(ctx: Ctx, actor: Actor, guildId: string, emojiId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireEmoji(ctx, guildId, emojiId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  await ctx.repos.expressions.deleteEmoji(String(row.id));
  await announce(ctx, guildId);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.EMOJI_DELETE,
    targetId: String(row.id),
    changes: auditChanges('emoji', { name: row.name }, null),
  });
}

// ---- application emoji ------------------------------------------------------------------------------------------

/** The app whose emoji the caller manages: its bot token (or its owner's user token). */
async function requireEmojiApp(ctx: Ctx, actor: Actor, applicationId: string) {
  if (!isId(applicationId)) throw Errors.unknownApplication();
  const app = await getApplication(ctx, applicationId);
  if (!app) throw Errors.unknownApplication();
  if (actor.kind === 'bot' ? app.bot_user_id !== actor.user.id : app.owner_id !== actor.user.id) throw Errors.notAppOwner();
  return app;
}

async function requireAppEmoji(ctx: Ctx, applicationId: string, emojiId: string): Promise<Row> {
  checkId(emojiId, unknownEmoji);
  const row = await ctx.repos.expressions.emojiOfApp(applicationId, emojiId);
  if (!row) throw unknownEmoji();
  return row;
}

async function appEmojiView(ctx: Ctx, rows: Row[]) {
  const users = await getUsers(
    ctx,
    rows
      .map((r) => r.user_id)
      .filter(Boolean)
      .map(String),
  );
  return rows.map((r) => emojiWire(r, r.user_id ? users.get(String(r.user_id)) : null));
}

async function nameTaken(ctx: Ctx, applicationId: string, name: string, except: string | null): Promise<void> {
  if (await ctx.repos.expressions.appEmojiNameTaken(applicationId, name, except))
    throw fieldError('name', 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', 'Emoji name already taken.');
}

export async function listAppEmojis(ctx: Ctx, actor: Actor, applicationId: string) {
  const app = await requireEmojiApp(ctx, actor, applicationId);
  const rows = await ctx.repos.expressions.emojisOfApp(app.id);
  return { items: await appEmojiView(ctx, rows) };
}

export async function getAppEmoji(ctx: Ctx, actor: Actor, applicationId: string, emojiId: string) {
  const app = await requireEmojiApp(ctx, actor, applicationId);
  return (await appEmojiView(ctx, [await requireAppEmoji(ctx, app.id, emojiId)]))[0];
}

/** POST /applications/{id}/emojis: names are unique per app; at most 2000. */
export async function createAppEmoji(ctx: Ctx, actor: Actor, applicationId: string, body: unknown) {
  const app = await requireEmojiApp(ctx, actor, applicationId);
  const b = parseBody(AppCreateBody, body);
  const asset = imageFromDataUri(b.image, { field: 'image', allowed: EMOJI_FORMATS, maxBytes: MAX_EMOJI_BYTES });
  await nameTaken(ctx, app.id, b.name, null);
  if ((await ctx.repos.expressions.countAppEmojis(app.id)) >= MAX_APP_EMOJIS)
    throw new ApiError(400, 30008, `Maximum number of emojis reached (${MAX_APP_EMOJIS})`);
  const row = {
    id: ctx.ids.next(),
    guild_id: null,
    application_id: app.id,
    name: b.name,
    user_id: actor.user.id,
    roles: '[]',
    animated: asset.animated || asset.format === 'gif' ? 1 : 0,
    available: 1,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.expressions.insertEmoji(row, { contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  return emojiWire(row, actor.user);
}

export async function updateAppEmoji(ctx: Ctx, actor: Actor, applicationId: string, emojiId: string, body: unknown) {
  const app = await requireEmojiApp(ctx, actor, applicationId);
  const row = await requireAppEmoji(ctx, app.id, emojiId);
  const b = parseBody(AppPatchBody, body);
  if (b.name !== undefined && b.name !== row.name) {
    await nameTaken(ctx, app.id, b.name, String(row.id));
    await ctx.repos.expressions.patchEmoji(String(row.id), { name: b.name });
  }
  return (await appEmojiView(ctx, [{ ...row, name: b.name ?? row.name }]))[0];
}

export async function deleteAppEmoji(ctx: Ctx, actor: Actor, applicationId: string, emojiId: string): Promise<void> {
  const app = await requireEmojiApp(ctx, actor, applicationId);
  const row = await requireAppEmoji(ctx, app.id, emojiId);
  await ctx.repos.expressions.deleteEmoji(String(row.id));
}

/** Custom emoji a guild or app owns, for checks elsewhere (reactions, soundboard emoji_id). */
export async function findEmoji(ctx: Ctx, emojiId: string): Promise<Row | null> {
  if (!isId(emojiId)) return null;
  return ctx.repos.expressions.emojiById(emojiId);
}
