import type { APIEmoji, APISoundboardSound, APISticker } from 'discord-api-types/v10';
import type { UserRecord } from '../store/records.js';
import { bool, num, parseJson } from '../store/json.js';
import { id, idOrNull } from '../store/schema.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';

/** Emoji, sticker and soundboard sound objects, from their rows. `user` only when the viewer may see the uploader. */

export interface EmojiRow {
  id: unknown;
  guild_id: unknown;
  application_id: unknown;
  name: string;
  user_id: unknown;
  roles: unknown;
  animated: unknown;
  available: unknown;
}

export function emojiWire(r: EmojiRow, user?: UserRecord | null): APIEmoji {
  return dropUndefined<APIEmoji>({
    id: id(r.id as string),
    name: r.name,
    roles: parseJson<string[]>(r.roles, []),
    require_colons: true,
    managed: false,
    animated: bool(r.animated),
    available: bool(r.available),
    user: user ? publicUser(user) : undefined,
  });
}

export interface StickerRow {
  id: unknown;
  guild_id: unknown;
  name: string;
  description: string | null;
  tags: string;
  format_type: unknown;
  available: unknown;
  user_id: unknown;
}

export function stickerWire(r: StickerRow, user?: UserRecord | null): APISticker {
  return dropUndefined<APISticker>({
    id: id(r.id as string),
    name: r.name,
    tags: r.tags,
    type: 2,
    format_type: num(r.format_type),
    description: r.description ?? null,
    available: bool(r.available),
    guild_id: id(r.guild_id as string),
    user: user ? publicUser(user) : undefined,
  });
}

export interface SoundRow {
  id: unknown;
  guild_id: unknown;
  name: string;
  volume: unknown;
  emoji_id: unknown;
  emoji_name: string | null;
  user_id: unknown;
  available: unknown;
}

export function soundWire(r: SoundRow, user?: UserRecord | null): APISoundboardSound {
  return dropUndefined<APISoundboardSound>({
    name: r.name,
    sound_id: id(r.id as string),
    volume: Number(r.volume),
    emoji_id: idOrNull(r.emoji_id as string | null),
    emoji_name: r.emoji_name ?? null,
    guild_id: id(r.guild_id as string),
    available: bool(r.available),
    user: user ? publicUser(user) : undefined,
  });
}
