import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { UploadedFile } from '../../core/uploads.js';
import { parseBody } from '../../core/validation.js';
import { stickerWire, type StickerRow } from '../../wire/expressions.js';
import { assetFromBytes, type Asset } from './assets.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { requireExpressionManager, seesUploaders } from './emojis.js';
import { requireGuildRecord } from '../guilds/lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { getUser, getUsers } from '../identity/users.js';

/**
 * Guild stickers (multipart upload of a PNG, APNG, GIF or Lottie JSON file, at most 512 KiB; Lottie only for VERIFIED or
 * PARTNERED guilds), the built-in standard sticker packs, and GET /stickers/{id} for both kinds. Every guild change
 * publishes GUILD_STICKERS_UPDATE with the full list.
 */

export const unknownSticker = () => new ApiError(404, 10060, 'Unknown Sticker');
const unknownPack = () => new ApiError(404, 10061, 'Unknown Sticker Pack');
const MAX_STICKER_BYTES = 512 * 1024;
/** Sticker slots per premium tier. */
const SLOTS = [5, 15, 30, 60];
const FORMAT_TYPES = { png: 1, apng: 2, lottie: 3, gif: 4 } as const;

const stickerName = z.string().superRefine((v, c) => {
  if (v.length < 2 || v.length > 30) c.addIssue({ code: 'custom', message: 'Must be between 2 and 30 in length.', params: { code: 'BASE_TYPE_BAD_LENGTH' } });
});
/** Empty, or 2-100 characters. */
const stickerDescription = z.string().superRefine((v, c) => {
  if (v.length === 1 || v.length > 100)
    c.addIssue({ code: 'custom', message: 'Must be between 2 and 100 in length.', params: { code: 'BASE_TYPE_BAD_LENGTH' } });
});
const stickerTags = z.string().min(1).max(200);

const CreateBody = z.object({ name: stickerName, tags: stickerTags, description: stickerDescription.nullable().optional() });
const PatchBody = z.object({ name: stickerName.optional(), tags: stickerTags.optional(), description: stickerDescription.nullable().optional() });

// ---- standard stickers ------------------------------------------------------------------------------------------

interface StandardSticker {
  id: string;
  name: string;
  description: string;
  tags: string;
  sort_value: number;
}
interface Pack {
  id: string;
  sku_id: string;
  name: string;
  description: string;
  cover_sticker_id: string;
  banner_asset_id: string;
  stickers: StandardSticker[];
}

/** The packs every user has. Their files are small generated Lottie animations. */
const PACKS: Pack[] = [
  {
    id: '1100000000000000100',
    sku_id: '1100000000000000101',
    name: 'Accord Basics',
    description: 'Say hello with Accord',
    cover_sticker_id: '1100000000000000110',
    banner_asset_id: '1100000000000000102',
    stickers: [
      { id: '1100000000000000110', name: 'Wave', description: 'A friendly wave', tags: 'wave, hello, hi, 👋', sort_value: 1 },
      { id: '1100000000000000111', name: 'Thumbs Up', description: 'Sounds good', tags: 'ok, yes, thumbs up, 👍', sort_value: 2 },
      { id: '1100000000000000112', name: 'Party', description: 'Time to celebrate', tags: 'party, celebrate, 🎉', sort_value: 3 },
    ],
  },
];

const standardWire = (s: StandardSticker, pack: Pack) => ({
  id: s.id,
  name: s.name,
  tags: s.tags,
  type: 1,
  format_type: 3,
  description: s.description,
  pack_id: pack.id,
  sort_value: s.sort_value,
});
const packWire = (p: Pack) => ({
  id: p.id,
  sku_id: p.sku_id,
  name: p.name,
  description: p.description,
  stickers: p.stickers.map((s) => standardWire(s, p)),
  cover_sticker_id: p.cover_sticker_id,
  banner_asset_id: p.banner_asset_id,
});

function findStandard(stickerId: string): { sticker: StandardSticker; pack: Pack } | null {
  for (const pack of PACKS) for (const sticker of pack.stickers) if (sticker.id === stickerId) return { sticker, pack };
  return null;
}

/** A tiny Lottie document (one shape, one second) for a standard sticker's CDN file. */
export function standardStickerFile(stickerId: string): Buffer | null {
  const found = findStandard(stickerId);
  if (!found) return null;
  const hue = (found.sticker.sort_value * 97) % 360;
  const doc = {
    v: '5.7.4',
    fr: 30,
    ip: 0,
    op: 30,
    w: 320,
    h: 320,
    nm: found.sticker.name,
    ddd: 0,
    assets: [],
    layers: [
      {
        ddd: 0,
        ind: 1,
        ty: 4,
        nm: 'shape',
        sr: 1,
        ip: 0,
        op: 30,
        st: 0,
        bm: 0,
        ks: {
          o: { a: 0, k: 100 },
          r: {
            a: 1,
            k: [
              { t: 0, s: [0] },
              { t: 30, s: [360] },
            ],
          },
          p: { a: 0, k: [160, 160, 0] },
          a: { a: 0, k: [0, 0, 0] },
          s: { a: 0, k: [100, 100, 100] },
        },
        shapes: [
          { ty: 'el', p: { a: 0, k: [0, 0] }, s: { a: 0, k: [200, 200] } },
          { ty: 'fl', c: { a: 0, k: [((hue % 120) + 60) / 255, 0.6, 0.9, 1] }, o: { a: 0, k: 100 } },
        ],
      },
    ],
  };
  return Buffer.from(JSON.stringify(doc));
}

export const listStickerPacks = () => ({ sticker_packs: PACKS.map(packWire) });

export function getStickerPack(packId: string) {
  const p = PACKS.find((x) => x.id === packId);
  if (!p) throw unknownPack();
  return packWire(p);
}

/** GET /stickers/{id}: a standard sticker, or a guild sticker (the platform shows these to anyone holding the id). */
export async function getSticker(ctx: Ctx, stickerId: string) {
  const std = findStandard(stickerId);
  if (std) return standardWire(std.sticker, std.pack);
  checkId(stickerId, unknownSticker);
  const row = await ctx.repos.expressions.stickerById(stickerId);
  if (!row) throw unknownSticker();
  return stickerWire(row);
}

// ---- guild stickers ---------------------------------------------------------------------------------------------

async function guildRows(ctx: Ctx, guildId: string): Promise<StickerRow[]> {
  return ctx.repos.expressions.stickersOfGuild(guildId);
}

/** The guild's stickers as GUILD_CREATE, GET /guilds/{id} and GUILD_STICKERS_UPDATE carry them. */
export async function guildStickers(ctx: Ctx, guildId: string) {
  if (!isId(guildId)) return [];
  return (await guildRows(ctx, guildId)).map((r) => stickerWire(r));
}

async function announce(ctx: Ctx, guildId: string): Promise<void> {
  ctx.bus.publish({ t: 'GUILD_STICKERS_UPDATE', d: { guild_id: guildId, stickers: await guildStickers(ctx, guildId) }, guild_id: guildId });
}

async function requireSticker(ctx: Ctx, guildId: string, stickerId: string): Promise<StickerRow> {
  checkId(stickerId, unknownSticker);
  const row = await ctx.repos.expressions.stickerInGuild(guildId, stickerId);
  if (!row) throw unknownSticker();
  return row;
}

export async function listGuildStickers(ctx: Ctx, actor: Actor, guildId: string) {
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
  return rows.map((r) => stickerWire(r, r.user_id ? users.get(String(r.user_id)) : null));
}

export async function getGuildSticker(ctx: Ctx, actor: Actor, guildId: string, stickerId: string) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSticker(ctx, guildId, stickerId);
  return stickerWire(row, seesUploaders(ctx, perms) && row.user_id ? await getUser(ctx, String(row.user_id)) : null);
}

function stickerFile(files: UploadedFile[], lottieAllowed: boolean): { asset: Asset; format: number } {
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (!file) throw fieldError('file', 'BASE_TYPE_REQUIRED', 'This field is required');
  const invalid = () => new ApiError(400, 50046, 'Invalid file uploaded');
  const asset = assetFromBytes(file.data, { field: 'file', allowed: ['png', 'apng', 'gif', 'lottie'], maxBytes: MAX_STICKER_BYTES }, invalid);
  if (asset.format === 'lottie') {
    if (!lottieAllowed) throw fieldError('file', 'STICKER_LOTTIE_NOT_ALLOWED', 'Lottie stickers need a VERIFIED or PARTNERED guild.');
    if (/data:image\/(?:png|jpe?g|webp|gif)/i.test(asset.data.toString('utf8')))
      throw new ApiError(400, 170002, 'Uploaded Lotties cannot contain rasterized images such as PNG or JPEG');
  }
  return { asset, format: FORMAT_TYPES[asset.format as keyof typeof FORMAT_TYPES] };
}

/** POST /guilds/{id}/stickers (multipart: name, tags, description, file): CREATE_GUILD_EXPRESSIONS. */
export async function createGuildSticker(ctx: Ctx, actor: Actor, guildId: string, body: Record<string, unknown>, files: UploadedFile[]) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  if (!ctx.access.hasPerm(perms, P.CREATE_GUILD_EXPRESSIONS)) throw Errors.missingPermissions();
  const b = parseBody(CreateBody, body);
  const guild = await requireGuildRecord(ctx, guildId);
  const { asset, format } = stickerFile(files, guild.features.includes('VERIFIED') || guild.features.includes('PARTNERED'));
  const slots = SLOTS[Math.min(Math.max(guild.premium_tier, 0), 3)];
  if ((await guildRows(ctx, guildId)).length >= slots) throw new ApiError(400, 30039, `Maximum number of stickers reached (${slots})`);
  const row = {
    id: ctx.ids.next(),
    guild_id: guildId,
    name: b.name,
    description: b.description || null,
    tags: b.tags,
    format_type: format,
    available: 1,
    user_id: actor.user.id,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.expressions.insertSticker(row, { contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  const out = stickerWire(row, actor.user);
  await announce(ctx, guildId);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.STICKER_CREATE,
    targetId: row.id,
    changes: auditChanges('sticker', null, out),
  });
  return out;
}

export async function updateGuildSticker(ctx: Ctx, actor: Actor, guildId: string, stickerId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSticker(ctx, guildId, stickerId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  const b = parseBody(PatchBody, body);
  const set: { name?: string; tags?: string; description?: string | null } = {};
  if (b.name !== undefined) set.name = b.name;
  if (b.tags !== undefined) set.tags = b.tags;
  if (b.description !== undefined) set.description = b.description || null;
  if (Object.keys(set).length) await ctx.repos.expressions.patchSticker(String(row.id), set);
  const before = stickerWire(row);
  const out = stickerWire({ ...row, ...set }, seesUploaders(ctx, perms) && row.user_id ? await getUser(ctx, String(row.user_id)) : null);
  if (Object.keys(set).length) {
    await announce(ctx, guildId);
    await writeAuditLog(ctx, {
      guildId,
      userId: actor.user.id,
      actionType: AuditLogEvent.STICKER_UPDATE,
      targetId: before.id,
      changes: auditChanges('sticker', before, out),
    });
  }
  return out;
}

export async function deleteGuildSticker(ctx: Ctx, actor: Actor, guildId: string, stickerId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireSticker(ctx, guildId, stickerId);
  requireExpressionManager(ctx, perms, row.user_id ? String(row.user_id) : null, actor.user.id);
  await ctx.repos.expressions.deleteSticker(String(row.id));
  await announce(ctx, guildId);
  const before = stickerWire(row);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.STICKER_DELETE,
    targetId: before.id,
    changes: auditChanges('sticker', before, null),
  });
}

/**
 * The `sticker_items` of a message sending `sticker_ids`: each must be a standard sticker or a sticker of this guild
 * (50081 "Invalid sticker sent" otherwise).
 */
export async function stickerItems(ctx: Ctx, guildId: string | null, ids: string[]): Promise<{ id: string; name: string; format_type: number }[]> {
  const out: { id: string; name: string; format_type: number }[] = [];
  for (const sid of ids) {
    const std = findStandard(String(sid));
    if (std) {
      out.push({ id: std.sticker.id, name: std.sticker.name, format_type: 3 });
      continue;
    }
    const row = guildId && isId(String(sid)) ? await ctx.repos.expressions.stickerInGuild(guildId, String(sid)) : null;
    if (!row || Number(row.available) !== 1) throw new ApiError(400, 50081, 'Invalid sticker sent');
    out.push({ id: String(row.id), name: row.name, format_type: Number(row.format_type) });
  }
  return out;
}
