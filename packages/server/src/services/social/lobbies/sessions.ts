import type { Ctx } from '../../context.js';
import { lobbyMemberWire, lobbyMembers, lobbyWire } from './model.js';
import { lobbyVoiceStates } from './voice.js';

/**
 * Lobbies and the Gateway sessions of SDK clients that identify with AUTO_LOBBY_CONNECT: READY carries their lobbies
 * (the Gateway lobby: the lobby object plus `voice_states` and `connected` members), and a member's first such session
 * connects them to their lobbies (LOBBY_MEMBER_CONNECT `{member, lobby_id, application_id}` to the other members),
 * their last one disconnects them (LOBBY_MEMBER_DISCONNECT).
 */

async function lobbiesOf(ctx: Ctx, userId: string, appId: string) {
  return ctx.repos.lobbies.ofMember(userId, appId);
}

/** READY `lobbies` for an SDK session of `appId`. */
export async function readyLobbies(ctx: Ctx, userId: string, appId: string, isConnected: (userId: string) => boolean) {
  const out = [];
  for (const lobby of await lobbiesOf(ctx, userId, appId)) {
    const members = await lobbyMembers(ctx, lobby.id);
    const wire = await lobbyWire(ctx, lobby, members, { forApp: false });
    out.push({
      ...wire,
      members: members.map((m) => ({ ...lobbyMemberWire(m), connected: m.user_id === userId || isConnected(m.user_id) })),
      voice_states: await lobbyVoiceStates(ctx, lobby.id),
    });
  }
  return out;
}

/** LOBBY_MEMBER_CONNECT / DISCONNECT for every lobby of the app the user is in. */
export async function announceLobbyConnection(ctx: Ctx, userId: string, appId: string, connected: boolean): Promise<void> {
  for (const lobby of await lobbiesOf(ctx, userId, appId)) {
    const members = await lobbyMembers(ctx, lobby.id);
    const me = members.find((m) => m.user_id === userId);
    if (!me) continue;
    const others = members.map((m) => m.user_id).filter((u) => u !== userId);
    if (others.length) {
      ctx.bus.publish({
        t: connected ? 'LOBBY_MEMBER_CONNECT' : 'LOBBY_MEMBER_DISCONNECT',
        d: { member: { ...lobbyMemberWire(me), connected }, lobby_id: lobby.id, application_id: lobby.application_id },
        user_ids: others,
      });
    }
  }
}

/** Moves lobby memberships of `from` to `to` (merge: all apps; unmerge: one app), with the member events. */
export async function moveLobbyMemberships(ctx: Ctx, from: string, to: string, appId: string | null): Promise<void> {
  for (const r of await ctx.repos.lobbies.membershipsOf(from, appId)) {
    const lobbyId = r.lobby_id;
    const members = await lobbyMembers(ctx, lobbyId);
    const old = members.find((m) => m.user_id === from)!;
    const already = members.some((m) => m.user_id === to);
    await ctx.repos.lobbies.replaceMember(lobbyId, from, already ? null : { ...old, user_id: to });
    const others = members.map((m) => m.user_id).filter((u) => u !== from && u !== to);
    const appIdOf = r.application_id;
    if (others.length) {
      ctx.bus.publish({ t: 'LOBBY_MEMBER_REMOVE', d: { member: lobbyMemberWire(old), lobby_id: lobbyId, application_id: appIdOf }, user_ids: others });
      if (!already)
        ctx.bus.publish({
          t: 'LOBBY_MEMBER_ADD',
          d: { member: lobbyMemberWire({ ...old, user_id: to }), lobby_id: lobbyId, application_id: appIdOf },
          user_ids: others,
        });
    }
    const lobby = (await ctx.repos.lobbies.byId(lobbyId))!;
    ctx.bus.publish({ t: 'LOBBY_CREATE', d: await lobbyWire(ctx, lobby, await lobbyMembers(ctx, lobbyId), { forApp: false }), user_ids: [to] });
  }
}
