import type { Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { P } from '@accord/protocol';
import { publicUser } from '../../../wire/user.js';
import { getChannelRecord } from '../../guilds/lookup.js';
import { isId } from '../../../core/ids.js';
import { urlIssue } from '../../../core/url-policy.js';
import { outgoingFor } from '../../../core/outgoing.js';
import { saveInviteExtras } from '../../invites/targets.js';
import { getUser, getUsers } from '../../identity/users.js';
import {
  CAN_LINK_LOBBY,
  DEFAULT_IDLE_TIMEOUT_S,
  SECRET_TTL_MS,
  jsonOrNull,
  lobbyMemberWire,
  lobbyMembers,
  lobbyWire,
  requireLobby,
  requireMembership,
  toLobby,
  touchLobby,
  unknownLobby,
  type Lobby,
  type LobbyCaller,
  type LobbyMember,
  type MemberFieldsInput,
} from './model.js';
import type { z } from 'zod';
import type { BulkMembers, CreateLobby, CreateOrJoinLobby, EditLobby } from './model.js';
import { limitCommunication } from '../sdk/limits.js';
import { randomInt } from '../../../core/random.js';

/**
 * Lobby lifecycle: create (app) and create-or-join by secret (players), read, edit, delete, members (add, update,
 * remove, bulk, leave), channel linking and the single-use guild invites of a linked channel.
 *
 * Gateway events go to the sessions of the member users: LOBBY_CREATE to a user who joins (or is added),
 * LOBBY_MEMBER_ADD / UPDATE / REMOVE `{member, lobby_id, application_id}` to the other members, LOBBY_UPDATE to all
 * members when the lobby itself changes, LOBBY_DELETE `{id, reason}` with reason "removed" to a member who is taken
 * out and "deleted" to every member when the lobby goes away.
 */

const publish = (ctx: Ctx, t: string, d: unknown, userIds: string[]) => {
  const ids = [...new Set(userIds)];
  if (ids.length) ctx.bus.publish({ t, d, user_ids: ids });
};

/** Tells every process's bridge which guild channel a lobby is linked to (null: unlinked). */
const announceLink = (ctx: Ctx, lobbyId: string, channelId: string | null, previous: string | null) =>
  ctx.bus.publish({ t: '__LOBBY_LINK', d: { lobby_id: lobbyId, channel_id: channelId, previous } });

/** The users must exist: 10013 otherwise. */
async function requireUsers(ctx: Ctx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  if (!ids.every(isId)) throw Errors.unknownUser();
  const found = await getUsers(ctx, ids);
  if (ids.some((id) => !found.has(id))) throw Errors.unknownUser();
}

// ------------------------------------------------------------------------------------------------------ members

interface MemberChanges {
  upserts: { id: string; fields: MemberFieldsInput }[];
  removes: string[];
}

interface MemberOutcome {
  added: LobbyMember[];
  updated: LobbyMember[];
  removed: LobbyMember[];
  /** Every upserted member as it now is (changed or not), in request order. */
  upserted: LobbyMember[];
  /** The members after the change. */
  members: LobbyMember[];
}

/** Given fields replace the member's; omitted ones keep their value (a new member starts with none). */
function mergeMember(existing: LobbyMember | undefined, lobbyId: string, userId: string, f: MemberFieldsInput, now: number): LobbyMember {
  return {
    lobby_id: lobbyId,
    user_id: userId,
    metadata: f.metadata !== undefined ? f.metadata : (existing?.metadata ?? null),
    flags: f.flags !== undefined ? (f.flags ?? 0) : (existing?.flags ?? 0),
    additional_name: f.additional_name !== undefined ? f.additional_name : (existing?.additional_name ?? null),
    joined_at: existing?.joined_at ?? now,
  };
}

const sameMember = (a: LobbyMember, b: LobbyMember) =>
  JSON.stringify(a.metadata) === JSON.stringify(b.metadata) && a.flags === b.flags && a.additional_name === b.additional_name;

/** Writes member changes in one transaction and says what changed. */
async function changeMembers(ctx: Ctx, lobby: Lobby, current: LobbyMember[], changes: MemberChanges): Promise<MemberOutcome> {
  const now = ctx.clock.now();
  const byId = new Map(current.map((m) => [m.user_id, m]));
  const out: MemberOutcome = { added: [], updated: [], removed: [], upserted: [], members: [] };
  for (const { id, fields } of changes.upserts) {
    const before = byId.get(id);
    const after = mergeMember(before, lobby.id, id, fields, now);
    out.upserted.push(after);
    if (!before) out.added.push(after);
    else if (!sameMember(before, after)) out.updated.push(after);
    byId.set(id, after);
  }
  for (const id of changes.removes) {
    const before = byId.get(id);
    if (!before) continue;
    out.removed.push(before);
    byId.delete(id);
  }
  out.members = [...byId.values()];
  if (!out.added.length && !out.updated.length && !out.removed.length) return out;
  await ctx.repos.lobbies.saveMembers(
    lobby.id,
    [...out.added, ...out.updated],
    out.removed.map((m) => m.user_id),
  );
  return out;
}

const memberEvent = (lobby: Lobby, m: LobbyMember) => ({ member: lobbyMemberWire(m), lobby_id: lobby.id, application_id: lobby.application_id });

/** The Gateway side of a member change (see the module comment). */
async function announceMembers(ctx: Ctx, lobby: Lobby, o: MemberOutcome): Promise<void> {
  const finalIds = o.members.map((m) => m.user_id);
  const addedIds = new Set(o.added.map((m) => m.user_id));
  if (addedIds.size) publish(ctx, 'LOBBY_CREATE', await lobbyWire(ctx, lobby, o.members, { forApp: false }), [...addedIds]);
  const others = finalIds.filter((id) => !addedIds.has(id));
  for (const m of o.added) publish(ctx, 'LOBBY_MEMBER_ADD', memberEvent(lobby, m), others);
  for (const m of o.updated) publish(ctx, 'LOBBY_MEMBER_UPDATE', memberEvent(lobby, m), finalIds);
  for (const m of o.removed) {
    publish(ctx, 'LOBBY_DELETE', { id: lobby.id, reason: 'removed' }, [m.user_id]);
    publish(ctx, 'LOBBY_MEMBER_REMOVE', memberEvent(lobby, m), finalIds);
  }
}

/** Later entries for the same user win (a request naming a user twice means its last word). */
function dedupe<T extends { id: string }>(items: T[]): T[] {
  const last = new Map<string, T>();
  for (const it of items) last.set(it.id, it);
  return [...last.values()];
}

// ------------------------------------------------------------------------------------------------------ lobbies

function newLobbyRow(
  ctx: Ctx,
  appId: string,
  input: { timeout?: number | null; metadata?: Record<string, string> | null; flags?: number | null; url?: string | null; secret?: string },
) {
  const now = ctx.clock.now();
  const timeout = input.timeout ?? DEFAULT_IDLE_TIMEOUT_S;
  return {
    id: ctx.ids.next(),
    application_id: appId,
    secret: input.secret ?? null,
    secret_expires_at: input.secret ? now + SECRET_TTL_MS : null,
    by_secret: input.secret ? 1 : 0,
    metadata: jsonOrNull(input.metadata),
    flags: input.flags ?? 0,
    idle_timeout_seconds: timeout,
    idle_deadline: now + timeout * 1000,
    override_event_webhooks_url: input.url ?? null,
    linked_channel_id: null,
    linked_guild_id: null,
    linked_by: null,
    created_at: now,
  };
}

/** An override webhook URL must be one the server may call: https, or http to a host the operator allowed. */
function checkWebhookUrl(ctx: Ctx, url: string | null | undefined): void {
  const issue = url ? urlIssue(url, 'fetch', outgoingFor(ctx)) : null;
  if (issue) throw fieldError('override_event_webhooks_url', issue.code, issue.message);
}

/** POST /lobbies (app): a lobby with up to 25 members; each member gets LOBBY_CREATE. */
export async function createLobby(ctx: Ctx, caller: LobbyCaller, b: z.infer<typeof CreateLobby>) {
  if (!caller.isApp) throw Errors.onlyBots();
  checkWebhookUrl(ctx, b.override_event_webhooks_url);
  const members = dedupe(b.members ?? []);
  await requireUsers(
    ctx,
    members.map((m) => m.id),
  );
  const row = newLobbyRow(ctx, caller.appId, { timeout: b.idle_timeout_seconds, metadata: b.metadata, flags: b.flags, url: b.override_event_webhooks_url });
  await ctx.repos.lobbies.insert(row);
  const lobby = toLobby(row);
  const outcome = await changeMembers(ctx, lobby, [], { upserts: members.map(({ id, ...fields }) => ({ id, fields })), removes: [] });
  await announceMembers(ctx, lobby, outcome);
  return lobbyWire(ctx, lobby, outcome.members, { forApp: true });
}

/** The live lobby behind a secret; a secret past its 30 days is released (the lobby stays, unreachable by it). */
async function lobbyBySecret(ctx: Ctx, appId: string, secret: string): Promise<Lobby | null> {
  const lobby = await ctx.repos.lobbies.bySecret(appId, secret);
  if (!lobby) return null;
  if (lobby.secret_expires_at !== null && lobby.secret_expires_at <= ctx.clock.now()) {
    await ctx.repos.lobbies.releaseSecret(lobby.id);
    return null;
  }
  return lobby;
}

/**
 * PUT /lobbies: the lobby of this secret (made on first use), joined by the calling player with `member_metadata`.
 * `lobby_metadata`, `idle_timeout_seconds` and `flags`, when given, are applied to an existing lobby too. Only lobbies
 * made this way can be found by secret. With the app's Bot token the lobby is made or found without a member.
 */
export async function createOrJoinLobby(ctx: Ctx, caller: LobbyCaller, b: z.infer<typeof CreateOrJoinLobby>) {
  if (!caller.isApp) await limitCommunication(ctx, caller.appId, 'message');
  let lobby = await lobbyBySecret(ctx, caller.appId, b.secret);
  let created = false;
  if (!lobby) {
    const row = newLobbyRow(ctx, caller.appId, { timeout: b.idle_timeout_seconds, metadata: b.lobby_metadata, flags: b.flags, secret: b.secret });
    try {
      await ctx.repos.lobbies.insert(row);
      lobby = toLobby(row);
      created = true;
    } catch {
      // A concurrent join made it first (unique application_id + secret).
      lobby = await lobbyBySecret(ctx, caller.appId, b.secret);
      if (!lobby) throw unknownLobby();
    }
  }
  let changed = false;
  if (!created) {
    const patch: { metadata?: string | null; idle_timeout_seconds?: number; flags?: number } = {};
    if (b.lobby_metadata !== undefined && JSON.stringify(b.lobby_metadata) !== JSON.stringify(lobby.metadata)) {
      patch.metadata = jsonOrNull(b.lobby_metadata);
      lobby.metadata = b.lobby_metadata ?? null;
    }
    if (b.idle_timeout_seconds != null && b.idle_timeout_seconds !== lobby.idle_timeout_seconds)
      patch.idle_timeout_seconds = lobby.idle_timeout_seconds = b.idle_timeout_seconds;
    if (b.flags != null && b.flags !== lobby.flags) patch.flags = lobby.flags = b.flags;
    if (Object.keys(patch).length) {
      await ctx.repos.lobbies.patch(lobby.id, patch);
      changed = true;
    }
  }
  const current = created ? [] : await lobbyMembers(ctx, lobby.id);
  if (changed)
    publish(
      ctx,
      'LOBBY_UPDATE',
      await lobbyWire(ctx, lobby, current, { forApp: false }),
      current.map((m) => m.user_id),
    );
  let members = current;
  if (!caller.isApp) {
    const fields: MemberFieldsInput = b.member_metadata !== undefined ? { metadata: b.member_metadata } : {};
    const outcome = await changeMembers(ctx, lobby, current, { upserts: [{ id: caller.user.id, fields }], removes: [] });
    await announceMembers(ctx, lobby, outcome);
    members = outcome.members;
  }
  await touchLobby(ctx, lobby);
  return lobbyWire(ctx, lobby, members, { forApp: caller.isApp });
}

/** GET /lobbies/{id}: the app, or a member. */
export async function getLobby(ctx: Ctx, caller: LobbyCaller, lobbyId: string) {
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  requireMembership(caller, members);
  return lobbyWire(ctx, lobby, members, { forApp: caller.isApp });
}

/**
 * PATCH /lobbies/{id} (app): given fields replace the lobby's; `members` replaces the member list (members left out are
 * removed, listed ones added or updated).
 */
export async function editLobby(ctx: Ctx, caller: LobbyCaller, lobbyId: string, b: z.infer<typeof EditLobby>) {
  if (!caller.isApp) throw Errors.onlyBots();
  checkWebhookUrl(ctx, b.override_event_webhooks_url);
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  const patch: { metadata?: string | null; idle_timeout_seconds?: number; flags?: number; override_event_webhooks_url?: string | null } = {};
  if (b.metadata !== undefined) {
    patch.metadata = jsonOrNull(b.metadata);
    lobby.metadata = b.metadata ?? null;
  }
  if (b.idle_timeout_seconds !== undefined) patch.idle_timeout_seconds = lobby.idle_timeout_seconds = b.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_S;
  if (b.flags !== undefined) patch.flags = lobby.flags = b.flags ?? 0;
  if (b.override_event_webhooks_url !== undefined) patch.override_event_webhooks_url = lobby.override_event_webhooks_url = b.override_event_webhooks_url;
  let outcome: MemberOutcome | null = null;
  if (b.members != null) {
    const wanted = dedupe(b.members);
    await requireUsers(
      ctx,
      wanted.map((m) => m.id),
    );
    const keep = new Set(wanted.map((m) => m.id));
    outcome = await changeMembers(ctx, lobby, members, {
      upserts: wanted.map(({ id, ...fields }) => ({ id, fields })),
      removes: members.filter((m) => !keep.has(m.user_id)).map((m) => m.user_id),
    });
  }
  if (Object.keys(patch).length) await ctx.repos.lobbies.patch(lobby.id, patch);
  await touchLobby(ctx, lobby);
  const finalMembers = outcome?.members ?? members;
  if (outcome) await announceMembers(ctx, lobby, outcome);
  if (Object.keys(patch).length) {
    const addedIds = new Set(outcome?.added.map((m) => m.user_id) ?? []);
    publish(
      ctx,
      'LOBBY_UPDATE',
      await lobbyWire(ctx, lobby, finalMembers, { forApp: false }),
      finalMembers.map((m) => m.user_id).filter((id) => !addedIds.has(id)),
    );
  }
  return lobbyWire(ctx, lobby, finalMembers, { forApp: true });
}

/** Removes a lobby with its members and messages; every member gets LOBBY_DELETE (reason "deleted"). */
export async function destroyLobby(ctx: Ctx, lobby: Lobby): Promise<void> {
  const members = await lobbyMembers(ctx, lobby.id);
  await ctx.repos.lobbies.destroy(lobby.id);
  if (lobby.linked_channel_id) announceLink(ctx, lobby.id, null, lobby.linked_channel_id);
  publish(
    ctx,
    'LOBBY_DELETE',
    { id: lobby.id, reason: 'deleted' },
    members.map((m) => m.user_id),
  );
}

/**
 * DELETE /lobbies/{id} (app): as GET, a lobby of another app, an unknown one and one already deleted are all 404
 * 10031 (ownership before existence: the answer never tells whether another app's lobby exists); repeating is harmless.
 */
export async function deleteLobby(ctx: Ctx, caller: LobbyCaller, lobbyId: string): Promise<void> {
  if (!caller.isApp) throw Errors.onlyBots();
  const { lobby } = await requireLobby(ctx, caller, lobbyId);
  await destroyLobby(ctx, lobby);
}

/** PUT /lobbies/{id}/members/{user_id} (app): adds the user, or updates the given fields of a member. */
export async function putLobbyMember(ctx: Ctx, caller: LobbyCaller, lobbyId: string, userId: string, fields: MemberFieldsInput) {
  if (!caller.isApp) throw Errors.onlyBots();
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  if (!isId(userId) || !(await getUser(ctx, userId))) throw Errors.unknownUser();
  const outcome = await changeMembers(ctx, lobby, members, { upserts: [{ id: userId, fields }], removes: [] });
  await touchLobby(ctx, lobby);
  await announceMembers(ctx, lobby, outcome);
  return lobbyMemberWire(outcome.upserted[0]);
}

/** DELETE /lobbies/{id}/members/{user_id} (app): removing someone who is not a member changes nothing. */
export async function deleteLobbyMember(ctx: Ctx, caller: LobbyCaller, lobbyId: string, userId: string): Promise<void> {
  if (!caller.isApp) throw Errors.onlyBots();
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  const outcome = await changeMembers(ctx, lobby, members, { upserts: [], removes: [userId] });
  await announceMembers(ctx, lobby, outcome);
}

/**
 * POST /lobbies/{id}/members/bulk (app): up to 25 adds, updates and removals (`remove_member: true`) in one request.
 * Answers the members that were added or updated, as they now are. A user named twice is refused.
 */
export async function bulkLobbyMembers(ctx: Ctx, caller: LobbyCaller, lobbyId: string, items: z.infer<typeof BulkMembers>) {
  if (!caller.isApp) throw Errors.onlyBots();
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  const seen = new Set<string>();
  items.forEach((it, i) => {
    if (seen.has(it.id)) throw fieldError([i, 'id'], 'LOBBY_MEMBER_DUPLICATE', 'This user is already in the request.');
    seen.add(it.id);
  });
  const upserts = items.filter((it) => !it.remove_member);
  await requireUsers(
    ctx,
    upserts.map((it) => it.id),
  );
  const outcome = await changeMembers(ctx, lobby, members, {
    upserts: upserts.map(({ id, metadata, flags, additional_name }) => ({ id, fields: { metadata, flags, additional_name } })),
    removes: items.filter((it) => it.remove_member).map((it) => it.id),
  });
  await touchLobby(ctx, lobby);
  await announceMembers(ctx, lobby, outcome);
  return outcome.upserted.map(lobbyMemberWire);
}

/**
 * DELETE /lobbies/{id}/members/@me: a player leaves a lobby made by PUT /lobbies (lobbies the app made with POST
 * /lobbies are the app's to manage: 50001). Leaving a lobby one is not in changes nothing.
 */
export async function leaveLobby(ctx: Ctx, caller: LobbyCaller, lobbyId: string): Promise<void> {
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  if (!members.some((m) => m.user_id === caller.user.id)) return;
  if (!caller.isApp && !lobby.by_secret) throw Errors.missingAccess();
  const outcome = await changeMembers(ctx, lobby, members, { upserts: [], removes: [caller.user.id] });
  await announceMembers(ctx, lobby, outcome);
}

// ------------------------------------------------------------------------------------------------------ linked channels

/** Guild channel types a lobby can be linked to. */
const LINKABLE = new Set([0]);

/**
 * PATCH /lobbies/{id}/channel-linking: links a guild text channel (`channel_id`) or unlinks (null or no body). Players
 * need the CAN_LINK_LOBBY member flag; whoever links needs VIEW_CHANNEL and MANAGE_CHANNELS there. A channel serves one
 * lobby at a time. While linked, lobby messages are posted to the channel and the channel's messages reach the lobby.
 */
export async function linkLobbyChannel(ctx: Ctx, caller: LobbyCaller, lobbyId: string, channelId: string | null | undefined) {
  if (!caller.isApp) await limitCommunication(ctx, caller.appId, 'link');
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  const me = requireMembership(caller, members);
  if (!caller.isApp && !((me?.flags ?? 0) & CAN_LINK_LOBBY)) throw Errors.missingPermissions();
  const previous = lobby.linked_channel_id;
  if (channelId == null) {
    if (!previous) return lobbyWire(ctx, lobby, members, { forApp: caller.isApp });
    await ctx.repos.lobbies.setLink(lobby.id, null, null, null);
    Object.assign(lobby, { linked_channel_id: null, linked_guild_id: null, linked_by: null });
  } else {
    const ch = await getChannelRecord(ctx, channelId);
    if (!ch || !ch.guild_id) throw Errors.unknownChannel();
    // Access before anything about the channel: its type must not tell a stranger that it exists.
    await ctx.access.requireChannel(ch.guild_id, ch.id, caller.user.id, P.VIEW_CHANNEL | P.MANAGE_CHANNELS);
    if (!LINKABLE.has(ch.type)) throw Errors.wrongChannelType();
    if (previous === ch.id) return lobbyWire(ctx, lobby, members, { forApp: caller.isApp });
    const taken = await ctx.repos.lobbies.linkedTo(ch.id);
    const alreadyLinked = () => fieldError('channel_id', 'LOBBY_CHANNEL_ALREADY_LINKED', 'This channel is already linked to a lobby.');
    if (taken) throw alreadyLinked();
    try {
      await ctx.repos.lobbies.setLink(lobby.id, ch.id, ch.guild_id, caller.user.id);
    } catch {
      throw alreadyLinked(); // a concurrent link won the unique index
    }
    Object.assign(lobby, { linked_channel_id: ch.id, linked_guild_id: ch.guild_id, linked_by: caller.user.id });
  }
  announceLink(ctx, lobby.id, lobby.linked_channel_id, previous);
  await touchLobby(ctx, lobby);
  publish(
    ctx,
    'LOBBY_UPDATE',
    await lobbyWire(ctx, lobby, members, { forApp: false }),
    members.map((m) => m.user_id),
  );
  return lobbyWire(ctx, lobby, members, { forApp: caller.isApp });
}

/** Forgets the link of a lobby whose channel went away (the bridge calls this on CHANNEL_DELETE). */
export async function channelGone(ctx: Ctx, channelId: string): Promise<void> {
  const lobby = await ctx.repos.lobbies.linkedTo(channelId);
  if (!lobby) return;
  await ctx.repos.lobbies.setLink(lobby.id, null, null, null);
  Object.assign(lobby, { linked_channel_id: null, linked_guild_id: null, linked_by: null });
  announceLink(ctx, lobby.id, null, channelId);
  const members = await lobbyMembers(ctx, lobby.id);
  publish(
    ctx,
    'LOBBY_UPDATE',
    await lobbyWire(ctx, lobby, members, { forApp: false }),
    members.map((m) => m.user_id),
  );
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const INVITE_MAX_AGE_S = 3600;

/**
 * POST /lobbies/{id}/members/@me/invites and …/members/{user_id}/invites: a guild invite to the linked channel that
 * only this member may accept, once, within an hour. The inviter is whoever linked the channel.
 */
export async function lobbyChannelInvite(ctx: Ctx, caller: LobbyCaller, lobbyId: string, userId: string | null) {
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  let target: string;
  if (userId === null) {
    requireMembership(caller, members);
    if (!caller.isApp) await limitCommunication(ctx, caller.appId, 'link');
    target = caller.user.id;
  } else {
    if (!caller.isApp) throw Errors.onlyBots();
    if (!members.some((m) => m.user_id === userId)) throw Errors.unknownMember();
    target = userId;
  }
  const ch = lobby.linked_channel_id ? await getChannelRecord(ctx, lobby.linked_channel_id) : null;
  if (!ch || !ch.guild_id) throw Errors.unknownChannel();
  const now = ctx.clock.now();
  let code = '';
  do code = Array.from({ length: 10 }, () => BASE62[randomInt(62)]).join('');
  while (await ctx.repos.invites.codeExists(code));
  const inviterId = lobby.linked_by ?? caller.user.id;
  await ctx.repos.invites.insertInvite({
    code,
    guild_id: ch.guild_id,
    channel_id: ch.id,
    inviter_id: inviterId,
    max_age: INVITE_MAX_AGE_S,
    max_uses: 1,
    uses: 0,
    temporary: 0,
    target_type: null,
    target_user_id: null,
    flags: 0,
    created_at: now,
  });
  await saveInviteExtras(ctx, code, { roleIds: [], targets: [target] });
  const inviter = await getUser(ctx, inviterId);
  ctx.bus.publish({
    t: 'INVITE_CREATE',
    d: {
      channel_id: ch.id,
      guild_id: ch.guild_id,
      code,
      created_at: new Date(now).toISOString(),
      ...(inviter ? { inviter: publicUser(inviter) } : {}),
      max_age: INVITE_MAX_AGE_S,
      max_uses: 1,
      temporary: false,
      uses: 0,
      expires_at: new Date(now + INVITE_MAX_AGE_S * 1000).toISOString(),
    },
    guild_id: ch.guild_id,
    channel_id: ch.id,
    channel_permission: String(P.MANAGE_CHANNELS),
  });
  await touchLobby(ctx, lobby);
  return { code };
}
