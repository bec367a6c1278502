import type { VoiceStateInfo, WireUser } from './host.js';

/**
 * API objects → the SDK's shapes. Each mapper names every field the SDK requires (its zod schemas drop a frame
 * missing one) and never sends `avatar: null` where the schema wants a string or nothing.
 */

const avatarField = (u: WireUser) => (u.avatar ? { avatar: u.avatar } : {});

/** READY's user: id, username, discriminator and, if set, avatar. */
export const readyUser = (u: WireUser) => ({ id: u.id, username: u.username, discriminator: u.discriminator ?? '0', ...avatarField(u) });

/** AUTHENTICATE's user. */
export const authUser = (u: WireUser) => ({
  id: u.id,
  username: u.username,
  discriminator: u.discriminator ?? '0',
  public_flags: u.public_flags ?? 0,
  global_name: u.global_name ?? null,
  avatar: u.avatar ?? null,
});

/** A participant / GET_USER / relationship user. */
export const sdkUser = (u: WireUser) => ({
  id: u.id,
  username: u.username,
  global_name: u.global_name ?? null,
  discriminator: u.discriminator ?? '0',
  avatar: u.avatar ?? null,
  flags: u.public_flags ?? u.flags ?? 0,
  bot: !!u.bot,
  premium_type: u.premium_type ?? null,
});

/** The common `User` schema (voice states, CURRENT_USER_UPDATE): `avatar_decoration_data` must be present. */
export const commonUser = (u: WireUser) => ({
  id: u.id,
  username: u.username,
  discriminator: u.discriminator ?? '0',
  global_name: u.global_name ?? null,
  avatar: u.avatar ?? null,
  avatar_decoration_data: null,
  bot: !!u.bot,
  flags: u.public_flags ?? 0,
  premium_type: u.premium_type ?? null,
});

export const participant = (u: WireUser, nickname?: string | null) => ({ ...sdkUser(u), ...(nickname ? { nickname } : {}) });

export const voiceState = (v: VoiceStateInfo) => ({
  mute: v.mute || v.self_mute,
  nick: v.nick ?? v.user.global_name ?? v.user.username,
  user: commonUser(v.user),
  voice_state: { mute: v.mute, deaf: v.deaf, self_mute: v.self_mute, self_deaf: v.self_deaf, suppress: v.suppress },
  volume: 100,
});

export interface ApiEntitlement {
  id: string;
  sku_id: string;
  application_id: string;
  user_id?: string;
  type: number;
  deleted?: boolean;
  consumed?: boolean;
  starts_at?: string | null;
  ends_at?: string | null;
}

export const entitlement = (e: ApiEntitlement, userId: string) => ({
  id: e.id,
  sku_id: e.sku_id,
  application_id: e.application_id,
  user_id: e.user_id ?? userId,
  gift_code_flags: 0,
  type: e.type,
  starts_at: e.starts_at ?? null,
  ends_at: e.ends_at ?? null,
  consumed: e.consumed ?? false,
  deleted: e.deleted ?? false,
});

export interface ApiSku {
  id: string;
  type: number;
  application_id: string;
  name: string;
  flags: number;
  price?: { amount: number; currency: string };
}

export const sku = (s: ApiSku) => ({
  id: s.id,
  name: s.name,
  type: s.type,
  price: { amount: s.price?.amount ?? 0, currency: s.price?.currency ?? 'usd' },
  application_id: s.application_id,
  flags: s.flags,
  release_date: null,
});

/** GET_CHANNEL: `voice_states` and `messages` must be present (empty lists are fine). */
export const channel = (
  c: {
    id: string;
    type: number;
    guild_id?: string | null;
    name?: string | null;
    topic?: string | null;
    bitrate?: number | null;
    user_limit?: number | null;
    position?: number | null;
  },
  voice: VoiceStateInfo[],
) => ({
  id: c.id,
  type: c.type,
  guild_id: c.guild_id ?? null,
  name: c.name ?? null,
  topic: c.topic ?? null,
  bitrate: c.bitrate ?? null,
  user_limit: c.user_limit ?? null,
  position: c.position ?? null,
  voice_states: voice.map(voiceState),
  messages: [],
});

/** A presence's first activity as GET_RELATIONSHIPS shapes it (optional strings are left out rather than null). */
export function relationshipActivity(a: any) {
  if (!a || typeof a.name !== 'string') return null;
  const out: Record<string, unknown> = { name: a.name };
  for (const k of ['type', 'created_at', 'flags']) if (typeof a[k] === 'number') out[k] = a[k];
  for (const k of ['url', 'application_id', 'state', 'details', 'state_url', 'details_url', 'platform']) if (typeof a[k] === 'string') out[k] = a[k];
  if (typeof a.instance === 'boolean') out.instance = a.instance;
  if (a.timestamps && typeof a.timestamps === 'object') {
    out.timestamps = Object.fromEntries(Object.entries(a.timestamps).filter(([k, v]) => (k === 'start' || k === 'end') && typeof v === 'number'));
  }
  return out;
}
