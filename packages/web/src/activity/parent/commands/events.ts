import { EVENTS, RpcError, RpcErrorCode, invalidPayload } from '../protocol.js';
import { isSnowflake, requireScopes, type Handler } from '../session.js';

/**
 * SUBSCRIBE / UNSUBSCRIBE. The SDK sends SUBSCRIBE for the first listener of an event (never READY) and expects
 * `{evt}` back. Scoped events need AUTHENTICATE's scopes; some take an argument that must name the Activity's place.
 */

const SCOPES: Record<string, string[]> = {
  VOICE_STATE_UPDATE: ['rpc.voice.read'],
  SPEAKING_START: ['rpc.voice.read'],
  SPEAKING_STOP: ['rpc.voice.read'],
  CURRENT_USER_UPDATE: ['identify'],
  CURRENT_GUILD_MEMBER_UPDATE: ['identify', 'guilds.members.read'],
  RELATIONSHIP_UPDATE: ['relationships.read'],
};

function eventOf(evt: unknown): string {
  if (typeof evt !== 'string' || !(EVENTS as readonly string[]).includes(evt) || evt === 'READY') {
    throw new RpcError(RpcErrorCode.INVALID_EVENT, `Unknown event ${String(evt)}`);
  }
  return evt;
}

export const subscribe: Handler = async (s, args, frame) => {
  const evt = eventOf(frame.evt);
  const scopes = SCOPES[evt];
  if (scopes) requireScopes(s, ...scopes);
  if (evt === 'VOICE_STATE_UPDATE' && !isSnowflake(args.channel_id)) throw invalidPayload('channel_id is required');
  if (evt === 'CURRENT_GUILD_MEMBER_UPDATE' && args.guild_id !== s.host.launch.guildId) throw new RpcError(RpcErrorCode.INVALID_GUILD, 'Unknown guild');
  s.subscriptions.set(evt, { ...args });
  return { evt };
};

export const unsubscribe: Handler = async (s, _args, frame) => {
  const evt = eventOf(frame.evt);
  s.subscriptions.delete(evt);
  return { evt };
};
