import { Capability, sdkVersionVerdict } from '@accord/protocol';
import type { Ctx } from '../services/context.js';
import type { Session } from './session.js';
import type { Presence, PresenceState } from './presence.js';
import { gameRelationshipList, presenceAudience, relationshipList } from '../services/social/relationships/model.js';
import { announceLobbyConnection, readyLobbies } from '../services/social/lobbies/sessions.js';
import { lobbyVoiceSessionEnded, lobbyVoiceState } from '../services/social/lobbies/voice.js';
import { endOfLifeMessage } from '../services/social/sdk/versions.js';
import { provisionalIds } from '../services/identity/provisional/accounts.js';
import { isId } from '../core/ids.js';
import type { AccordSelfUser } from '../wire/extensions.js';

/**
 * The Gateway side of the Social SDK: SDK sessions (Bearer tokens with `gateway.connect`), their READY additions
 * (relationships, friends' presences, game relationships, and lobbies with AUTO_LOBBY_CONNECT), presence fan-out to
 * friends, lobby calls (op 17) and lobby connection events.
 */

/** Whether a Bearer token may open a Gateway session (the SDK's scopes expand to gateway.connect). */
export const mayConnect = (scopes: string[]) => scopes.includes('gateway.connect');

/** Why an Identify's reported SDK release is refused, or null. */
export function refusedSdkVersion(properties: unknown): string | null {
  const v = properties && typeof properties === 'object' ? (properties as Record<string, unknown>).sdk_version : undefined;
  return typeof v === 'string' && sdkVersionVerdict(v) === 'end_of_life' ? endOfLifeMessage(v.slice(0, 32)) : null;
}

const sdkApp = (s: Session) => (s.actor.kind === 'bearer' ? s.actor.applicationId : null);
export const autoLobbyConnect = (s: Session) => !!sdkApp(s) && (s.capabilities & Capability.AUTO_LOBBY_CONNECT) !== 0;

/** READY fields for people's sessions (bots have no friends). */
export async function socialReady(ctx: Ctx, s: Session, user: AccordSelfUser, presences: PresenceState, isConnected: (userId: string) => boolean) {
  if (s.isBot) return {};
  const provisional = (await provisionalIds(ctx, [s.userId])).has(s.userId);
  const relationships = await relationshipList(ctx, s.userId);
  const app = sdkApp(s);
  const gameRelationships = app ? await gameRelationshipList(ctx, s.userId, app) : [];
  const friends = await presenceAudience(ctx, s.userId);
  const friendPresences = friends.map((id) => ({ user: { id }, ...presences.visible(id) })).filter((p) => p.status !== 'offline');
  return {
    // The SDK's UserHandle::IsProvisional for the current user.
    user: { ...user, is_provisional: provisional },
    relationships,
    presences: friendPresences,
    ...(app ? { game_relationships: gameRelationships } : {}),
    ...(autoLobbyConnect(s) ? { lobbies: await readyLobbies(ctx, s.userId, app!, isConnected) } : {}),
  };
}

/** Presence changes also reach friends and game friends (without `guild_id`), once per change. */
export async function publishPresenceToFriends(ctx: Ctx, userId: string, p: Presence): Promise<void> {
  const audience = await presenceAudience(ctx, userId);
  if (audience.length)
    ctx.bus.publish({
      t: 'PRESENCE_UPDATE',
      d: { user: { id: userId }, status: p.status, activities: p.activities, client_status: p.client_status },
      user_ids: audience,
    });
}

/** Op 17 Lobby Voice States: join, update or leave (`leave: true`) a lobby's call. */
export async function handleLobbyVoiceStates(ctx: Ctx, s: Session, d: any): Promise<void> {
  if (!d || typeof d !== 'object' || typeof d.lobby_id !== 'string' || !isId(d.lobby_id)) return;
  await lobbyVoiceState(ctx, {
    userId: s.userId,
    appId: sdkApp(s),
    gatewaySessionId: s.id,
    lobbyId: d.lobby_id,
    selfMute: !!d.self_mute,
    selfDeaf: !!d.self_deaf,
    leave: !!d.leave,
  });
}

/** An SDK session with AUTO_LOBBY_CONNECT started (`first`: the user had no other such session). */
export async function sdkSessionStarted(ctx: Ctx, s: Session, first: boolean): Promise<void> {
  if (first && autoLobbyConnect(s)) await announceLobbyConnection(ctx, s.userId, sdkApp(s)!, true);
}

/** A session ended for good (`last`: no other session of the user remains). */
export async function sdkSessionEnded(ctx: Ctx, s: Session, last: boolean): Promise<void> {
  await lobbyVoiceSessionEnded(ctx, s.id);
  if (last && autoLobbyConnect(s)) await announceLobbyConnection(ctx, s.userId, sdkApp(s)!, false);
}
