import type { VoiceState } from '../platform/state.js';

/**
 * RPC views of platform objects, shaped as the platform's client shapes them for apps (transformChannel,
 * transformVoiceState, transformInternalTextMessage): built field by field, never a copy of an API answer.
 */

export const guildIconUrl = (cdnBase: string, g: { id: string; icon: string | null }): string | null =>
  g.icon ? `${cdnBase}/icons/${g.id}/${g.icon}.${g.icon.startsWith('a_') ? 'gif' : 'png'}?size=128` : null;

export function rpcUser(u: any) {
  if (!u) return null;
  return {
    id: String(u.id),
    username: u.username,
    discriminator: u.discriminator ?? '0',
    global_name: u.global_name ?? null,
    avatar: u.avatar ?? null,
    avatar_decoration_data: u.avatar_decoration_data ?? null,
    bot: !!u.bot,
    flags: u.public_flags ?? u.flags ?? 0,
    premium_type: u.premium_type ?? 0,
  };
}

export function rpcVoiceState(v: VoiceState) {
  const user = v.member?.user ?? v.user ?? { id: v.user_id };
  return {
    nick: v.member?.nick ?? user.global_name ?? user.username ?? null,
    mute: false,
    volume: 100,
    pan: { left: 1, right: 1 },
    voice_state: { mute: !!v.mute, deaf: !!v.deaf, self_mute: !!v.self_mute, self_deaf: !!v.self_deaf, suppress: !!v.suppress },
    user: rpcUser(user),
  };
}

export function rpcMessage(m: any) {
  return {
    id: String(m.id),
    blocked: false,
    bot: !!m.author?.bot,
    content: m.content ?? '',
    nick: m.member?.nick ?? undefined,
    edited_timestamp: m.edited_timestamp ?? null,
    timestamp: m.timestamp,
    tts: !!m.tts,
    mentions: m.mentions ?? [],
    mention_everyone: !!m.mention_everyone,
    mention_roles: m.mention_roles ?? [],
    embeds: m.embeds ?? [],
    attachments: m.attachments ?? [],
    author: m.author ? rpcUser(m.author) : undefined,
    pinned: !!m.pinned,
    type: m.type ?? 0,
  };
}

/** GET_CHANNEL's answer: messages only when the app may read them, voice states from the Gateway session. */
export function rpcChannel(c: any, messages: any[], voiceStates: VoiceState[]) {
  return {
    id: String(c.id),
    name: c.name ?? '',
    type: c.type,
    topic: c.topic ?? '',
    bitrate: c.bitrate ?? 0,
    user_limit: c.user_limit ?? 0,
    guild_id: c.guild_id ?? null,
    position: c.position ?? 0,
    messages: messages.map(rpcMessage),
    voice_states: voiceStates.map(rpcVoiceState),
  };
}
