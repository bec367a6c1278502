import { Capability } from '@accord/protocol';
import type { Ctx } from '../services/context.js';
import { voiceStates } from '../services/voice/states.js';
import { calls } from '../services/voice/calls.js';
import type { Session } from './session.js';
import { isId } from '../core/ids.js';

/** Op 13 Request Call Connect `{channel_id}` (user clients): the CALL_CREATE of a call already running there. */
export const REQUEST_CALL_CONNECT = 13;

const snowflake = (v: unknown): string | null => (v == null ? null : isId(String(v)) ? String(v) : null);

/**
 * Op 4 Voice State Update: join, move or leave (`channel_id: null`) a voice channel of one of the session's guilds,
 * or, with `guild_id: null`, a DM or group-DM call (users only). The voice states service (or the calls service)
 * answers with VOICE_STATE_UPDATE, then VOICE_SERVER_UPDATE to this session only.
 */
export async function handleVoiceStateUpdate(ctx: Ctx, s: Session, d: any): Promise<void> {
  if (!d || typeof d !== 'object') return;
  const channelId = snowflake(d.channel_id);
  if (d.channel_id != null && channelId === null) return;
  const self = { mute: !!d.self_mute, deaf: !!d.self_deaf, video: !!d.self_video };
  if (d.guild_id == null) {
    if (s.isBot) return; // calls are for users only
    // A person holds one voice connection: joining a call leaves guild voice.
    if (channelId !== null) await voiceStates(ctx).leaveOthers(s.id, null);
    return calls(ctx).fromGateway({ id: s.userId, bot: s.isBot }, s.id, channelId, self);
  }
  const guildId = String(d.guild_id);
  if (!s.guildIds.has(guildId)) return;
  // Bots may be in one voice channel per guild; a person in one place only, so joining here leaves any call.
  if (!s.isBot && channelId !== null) {
    await calls(ctx).fromGateway({ id: s.userId, bot: false }, s.id, null, self);
    await voiceStates(ctx).leaveOthers(s.id, guildId);
  }
  await voiceStates(ctx).fromGateway(s.userId, s.id, guildId, channelId, self);
}

/** After READY: a user session with AUTO_CALL_CONNECT learns of the calls running in its DMs and group DMs. */
export async function autoCallConnect(ctx: Ctx, s: Session): Promise<void> {
  if (s.isBot || !(s.capabilities & Capability.AUTO_CALL_CONNECT)) return;
  for (const call of await calls(ctx).runningFor(s.userId)) s.dispatch('CALL_CREATE', JSON.stringify(call));
}

/** Op 13: answered with CALL_CREATE when a call runs in that DM; bots have no calls. */
export async function handleCallConnect(ctx: Ctx, s: Session, d: any): Promise<void> {
  const channelId = snowflake(d?.channel_id);
  if (s.isBot || !channelId) return;
  const call = await calls(ctx).existing(s.userId, channelId);
  if (call) s.dispatch('CALL_CREATE', JSON.stringify(call));
}
