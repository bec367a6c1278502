import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { parseBody, snowflake } from '../../core/validation.js';
import { soundWire, type SoundRow } from '../../wire/expressions.js';
import { assetFromBytes, audioDuration, decodeDataUri, silentMp3 } from './assets.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { findEmoji, requireExpressionManager, seesUploaders } from './emojis.js';
import { requireGuildRecord } from '../guilds/lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { getUser, getUsers } from '../identity/users.js';

/**
 * Soundboard sounds: the default set every user has, and guild sounds (an MP3 or Ogg data URI, at most 512 KiB and
 * 5.2 seconds). Guild changes publish GUILD_SOUNDBOARD_SOUND_CREATE / _UPDATE / _DELETE. Playing a sound in a voice
 * channel belongs to voice.
 */

export const unknownSound = () => new ApiError(404, 10097, 'Unknown sound');
const MAX_SOUND_BYTES = 512 * 1024;
const MAX_SECONDS = 5.2;
/** Sound slots per premium tier. */
const SLOTS = [8, 24, 36, 48];

const soundName = z.string().superRefine((v, c) => {
  if (v.length < 2 || v.length > 32) c.addIssue({ code: 'custom', message: 'Must be between 2 and 32 in length.', params: { code: 'BASE_TYPE_BAD_LENGTH' } });
});
const volume = z.number().min(0).max(1);
const emojiName = z.string().min(1).max(32);

const CreateBody = z.object({
  name: soundName,
  sound: z.string(),
  volume: volume.nullable().optional(),
  emoji_id: snowflake.nullable().optional(),
  emoji_name: emojiName.nullable().optional(),
});
const PatchBody = z.object({
  name: soundName.optional(),
  volume: volume.nullable().optional(),
  emoji_id: snowflake.nullable().optional(),
  emoji_name: emojiName.nullable().optional(),
});

// ---- default sounds ---------------------------------------------------------------------------------------------

const DEFAULTS = [
  { sound_id: '1', name: 'quack', emoji_name: '🦆', seconds: 0.6 },
  { sound_id: '2', name: 'airhorn', emoji_name: '🔊', seconds: 1.2 },
  { sound_id: '3', name: 'cricket', emoji_name: '🦗', seconds: 1.5 },
  { sound_id: '4', name: 'golf clap', emoji_name: '⛳', seconds: 1.8 },
  { sound_id: '5', name: 'sad horn', emoji_name: '🎺', seconds: 2 },
  { sound_id: '7', name: 'ba dum tss', emoji_name: '🥁', seconds: 1.4 },
];

export const defaultSounds = () =>
  DEFAULTS.map((d) => ({ name: d.name, sound_id: d.sound_id, volume: 1, emoji_id: null, emoji_name: d.emoji_name, available: true }));

/** The bytes of a default sound, for the CDN. */
export function defaultSoundFile(soundId: string): Buffer | null {
  const d = DEFAULTS.find((x) => x.sound_id === soundId);
  return d ? silentMp3(d.seconds) : null;
}

// ---- guild sounds -----------------------------------------------------------------------------------------------

async function guildRows(ctx: Ctx, guildId: string): Promise<SoundRow[]> {
  return ctx.repos.expressions.soundsOfGuild(guildId);
}

/** The guild's sounds as GUILD_CREATE and Request Soundboard Sounds (op 31) carry them. */
export async function guildSounds(ctx: Ctx, guildId: string) {
  if (!isId(guildId)) return [];
  return (await guildRows(ctx, guildId)).map((r) => soundWire(r));
}

async function requireSound(ctx: Ctx, guildId: string, soundId: string): Promise<SoundRow> {
  checkId(soundId, unknownSound);
  const row = await ctx.repos.expressions.soundInGuild(guildId, soundId);
  if (!row) throw unknownSound();
  return row;
}

async function checkEmoji(ctx: Ctx, emojiId: string | null | undefined): Promise<void> {
  if (!emojiId) return;
  const e = await findEmoji(ctx, emojiId);
  if (!e || e.guild_id == null) throw fieldError('emoji_id', 'EMOJI_INVALID', 'Invalid emoji.');
}

export async function listGuildSounds(ctx: Ctx, actor: Actor, guildId: string) {
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
  return { items: rows.map((r) => soundWire(r, r.user_id ? users.get(String(r.user_id)) : null)) };
}

export async function getGuildSound(ctx: Ctx, actor: Actor, guildId: string, soundId: string) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSound(ctx, guildId, soundId);
  return soundWire(row, seesUploaders(ctx, perms) && row.user_id ? await getUser(ctx, String(row.user_id)) : null);
}

/** POST /guilds/{id}/soundboard-sounds: CREATE_GUILD_EXPRESSIONS. */
export async function createGuildSound(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  if (!ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS)) throw Errors.missingPermissions();
  const b = parseBody(CreateBody, body);
  const data = decodeDataUri(b.sound);
  if (!data) throw fieldError('sound', 'BINARY_TYPE_INVALID', 'Invalid sound data.');
  const asset = assetFromBytes(
    data,
    { field: 'sound', allowed: ['mp3', 'ogg'], maxBytes: MAX_SOUND_BYTES },
    () => new ApiError(400, 50123, 'The provided file type is invalid.'),
  );
  const seconds = audioDuration(asset);
  if (seconds === null || seconds <= 0) throw new ApiError(400, 50192, 'The provided file does not have a valid duration.');
  if (seconds > MAX_SECONDS + 1e-6) throw new ApiError(400, 50124, 'The provided file duration exceeds maximum of 5.2 seconds.');
  await checkEmoji(ctx, b.emoji_id);
  const guild = await requireGuildRecord(ctx, guildId);
  const slots = SLOTS[Math.min(Math.max(guild.premium_tier, 0), 3)];
  if ((await guildRows(ctx, guildId)).length >= slots) throw new ApiError(400, 30045, `Maximum number of soundboard sounds reached (${slots})`);
  const row = {
    id: ctx.ids.next(),
    guild_id: guildId,
    name: b.name,
    volume: b.volume ?? 1,
    emoji_id: b.emoji_id ?? null,
    emoji_name: b.emoji_id ? null : (b.emoji_name ?? null),
    user_id: actor.user.id,
    available: 1,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.expressions.insertSound(row, { contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  const out = soundWire(row, actor.user);
  ctx.bus.publish({ t: 'GUILD_SOUNDBOARD_SOUND_CREATE', d: soundWire(row, actor.user), guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.SOUNDBOARD_SOUND_CREATE,
    targetId: row.id,
    changes: auditChanges('sound', null, out),
  });
  return out;
}

export async function updateGuildSound(ctx: Ctx, actor: Actor, guildId: string, soundId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSound(ctx, guildId, soundId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  const b = parseBody(PatchBody, body);
  await checkEmoji(ctx, b.emoji_id);
  const set: { name?: string; volume?: number; emoji_id?: string | null; emoji_name?: string | null } = {};
  if (b.name !== undefined) set.name = b.name;
  if (b.volume !== undefined) set.volume = b.volume ?? 1;
  if (b.emoji_id !== undefined) set.emoji_id = b.emoji_id;
  if (b.emoji_name !== undefined) set.emoji_name = b.emoji_name;
  if (set.emoji_id) set.emoji_name = null;
  if (Object.keys(set).length) await ctx.repos.expressions.patchSound(String(row.id), set);
  const creator = row.user_id ? await getUser(ctx, String(row.user_id)) : null;
  const before = soundWire(row);
  const next = { ...row, ...set };
  const out = soundWire(next, seesUploaders(ctx, perms) ? creator : null);
  ctx.bus.publish({ t: 'GUILD_SOUNDBOARD_SOUND_UPDATE', d: soundWire(next, creator), guild_id: guildId });
  if (Object.keys(set).length) {
    await writeAuditLog(ctx, {
      guildId,
      userId: actor.user.id,
      actionType: AuditLogEvent.SOUNDBOARD_SOUND_UPDATE,
      targetId: before.sound_id,
      changes: auditChanges('sound', before, out),
    });
  }
  return out;
}

export async function deleteGuildSound(ctx: Ctx, actor: Actor, guildId: string, soundId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSound(ctx, guildId, soundId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  await ctx.repos.expressions.deleteSound(String(row.id));
  const before = soundWire(row);
  ctx.bus.publish({ t: 'GUILD_SOUNDBOARD_SOUND_DELETE', d: { sound_id: before.sound_id, guild_id: guildId }, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.SOUNDBOARD_SOUND_DELETE,
    targetId: before.sound_id,
    changes: auditChanges('sound', before, null),
  });
}
