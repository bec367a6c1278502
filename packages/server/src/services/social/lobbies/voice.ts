import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { voiceStates, type VoiceStateRecord } from '../../voice/states.js';
import { findLobby, lobbyMembers } from './model.js';

/**
 * Lobby calls: a lobby's members talk on Accord's voice gateway (wss, UDP, DAVE) as in a voice channel whose server
 * and channel id are the lobby's id. An SDK session joins or leaves with Gateway op 17 `{lobby_id, self_mute,
 * self_deaf, leave?}`; members hear LOBBY_VOICE_STATE_UPDATE (the voice state plus `lobby_id`, `channel_id` null once
 * gone) and the joining session alone gets LOBBY_VOICE_SERVER_UPDATE `{lobby_id, token, endpoint}`. The states and
 * tokens live in the voice states store (the voice gateway admits by them); their `session_id` is `lobby:<gateway
 * session>` so guild voice never mistakes them for its own. A member leaving the lobby, the lobby going away, or the
 * gateway session ending ends the call for that user.
 */

const stateSession = (gatewaySessionId: string) => `lobby:${gatewaySessionId}`;

async function announce(ctx: Ctx, lobbyId: string, state: VoiceStateRecord, connected: boolean, memberIds: string[]) {
  const d = {
    lobby_id: lobbyId,
    user_id: state.user_id,
    session_id: state.session_id,
    channel_id: connected ? lobbyId : null,
    self_mute: state.self_mute,
    self_deaf: state.self_deaf,
    mute: false,
    deaf: false,
    self_video: false,
    self_stream: false,
    suppress: false,
  };
  const ids = [...new Set([...memberIds, state.user_id])];
  ctx.bus.publish({ t: 'LOBBY_VOICE_STATE_UPDATE', d, user_ids: ids });
}

/** Op 17 from a session of `appId`: joins (or updates) the caller's voice state in a lobby, or leaves it. */
export async function lobbyVoiceState(
  ctx: Ctx,
  input: { userId: string; appId: string | null; gatewaySessionId: string; lobbyId: string; selfMute: boolean; selfDeaf: boolean; leave: boolean },
): Promise<void> {
  const store = voiceStates(ctx).store;
  const lobby = await findLobby(ctx, input.lobbyId);
  const current = await store.get(input.lobbyId, input.userId);
  if (input.leave) {
    if (current) await leaveLobbyVoice(ctx, input.lobbyId, input.userId);
    return;
  }
  if (!lobby || (input.appId && lobby.application_id !== input.appId)) return;
  const members = await lobbyMembers(ctx, lobby.id);
  if (!members.some((m) => m.user_id === input.userId)) return; // like guild voice, a refused join is silent
  const state: VoiceStateRecord = {
    guild_id: lobby.id,
    channel_id: lobby.id,
    user_id: input.userId,
    session_id: stateSession(input.gatewaySessionId),
    deaf: false,
    mute: false,
    self_deaf: input.selfDeaf,
    self_mute: input.selfMute,
    self_stream: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
  await store.set(state);
  await announce(
    ctx,
    lobby.id,
    state,
    true,
    members.map((m) => m.user_id),
  );
  if (current?.session_id === state.session_id) return; // a mute change: same voice session
  const token = crypto.randomBytes(16).toString('hex');
  await store.putGrant({ token, userId: input.userId, guildId: lobby.id, channelId: lobby.id, sessionId: state.session_id, lobby: true });
  ctx.bus.publish({
    t: 'LOBBY_VOICE_SERVER_UPDATE',
    d: { lobby_id: lobby.id, token, endpoint: await voiceStates(ctx).endpointFor(lobby.id) },
    user_ids: [input.userId],
    session_id: input.gatewaySessionId,
  });
}

/** Ends a user's lobby call (op 17 leave, removed from the lobby, the lobby deleted). */
export async function leaveLobbyVoice(ctx: Ctx, lobbyId: string, userId: string): Promise<void> {
  const store = voiceStates(ctx).store;
  const current = await store.get(lobbyId, userId);
  if (!current || !current.session_id.startsWith('lobby:')) return;
  await store.delete(lobbyId, userId);
  await store.revokeGrants(lobbyId, userId);
  const members = await lobbyMembers(ctx, lobbyId);
  await announce(
    ctx,
    lobbyId,
    current,
    false,
    members.map((m) => m.user_id),
  );
}

/** A gateway session ended for good: its lobby calls end. */
export async function lobbyVoiceSessionEnded(ctx: Ctx, gatewaySessionId: string): Promise<void> {
  for (const s of await voiceStates(ctx).store.bySession(stateSession(gatewaySessionId))) await leaveLobbyVoice(ctx, s.guild_id, s.user_id);
}

/** Voice states of a lobby for the Gateway lobby object (READY, LOBBY_CREATE). */
export async function lobbyVoiceStates(ctx: Ctx, lobbyId: string) {
  return (await voiceStates(ctx).store.inChannel(lobbyId))
    .filter((s) => s.session_id.startsWith('lobby:'))
    .map((s) => ({ user_id: s.user_id, session_id: s.session_id, channel_id: lobbyId, self_mute: s.self_mute, self_deaf: s.self_deaf }));
}
