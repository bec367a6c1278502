import type { Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import type { UploadedFile } from '../../../core/uploads.js';
import { enqueueWebhookEvent } from '../../apps/webhook-events/outbox.js';
import { getChannelRecord } from '../../guilds/lookup.js';
import { isId } from '../../../core/ids.js';
import { createMessage } from '../../messages/create.js';
import type { MessageCreateInput } from '../../messages/schema.js';
import { getUsers } from '../../identity/users.js';
import {
  jsonOrNull,
  lobbyMembers,
  lobbyMessageWire,
  requireLobby,
  requireMembership,
  toLobbyMessage,
  touchLobby,
  type Lobby,
  type LobbyCaller,
  type LobbyMember,
  type LobbyMessage,
  type StringMap,
} from './model.js';
import type { z } from 'zod';
import type { SendLobbyMessage } from './model.js';
import { limitCommunication } from '../sdk/limits.js';

/**
 * Lobby messages. They are stored in `lobby_messages` (not `messages`): a lobby is no channel row, has no permissions,
 * reactions or pins, and its history is read only through GET /lobbies/{id}/messages. Without a linked channel a
 * message's `channel_id` is the lobby id (reference: lobby messages have `channel_id == lobby_id`). While a guild
 * channel is linked, a message sent to the lobby is also posted to that channel (one id for both copies, `channel_id`
 * the channel's), and messages posted, edited or deleted in the channel reach the lobby (runtime.ts).
 *
 * Events: LOBBY_MESSAGE_CREATE / UPDATE / DELETE on the Gateway to the members' sessions, and the same three as webhook
 * events to the app (UPDATE carries `timestamp` and `edited_timestamp`, DELETE is `{id, lobby_id}`). Moderation
 * metadata edits fire neither.
 */

/** Guild messages stay within 2000 characters: a lobby message bridged to a linked channel must fit. */
const LINKED_CONTENT_MAX = 2000;

const publish = (ctx: Ctx, t: string, d: unknown, members: LobbyMember[]) => {
  if (members.length) ctx.bus.publish({ t, d, user_ids: members.map((m) => m.user_id) });
};

/** Webhook events go to the lobby's `override_event_webhooks_url` when it has one, else to the app's configured URL. */
const webhook = (ctx: Ctx, lobby: Lobby, type: string, data: unknown) =>
  void enqueueWebhookEvent(ctx, lobby.application_id, type, data, undefined, lobby.override_event_webhooks_url).catch((err) =>
    console.error('[lobbies] webhook event', type, err),
  );

/** Wire objects for messages of one lobby (authors and their lobby names loaded in bulk). */
async function render(ctx: Ctx, msgs: LobbyMessage[], members: LobbyMember[], opts: { forApp: boolean; timestamps?: boolean }) {
  const users = await getUsers(
    ctx,
    msgs.map((m) => m.author_id),
  );
  const byUser = new Map(members.map((m) => [m.user_id, m]));
  return msgs.map((m) => lobbyMessageWire(m, users.get(m.author_id), byUser.get(m.author_id), opts));
}

/** LOBBY_MESSAGE_CREATE to the members and the app. */
async function announceCreate(ctx: Ctx, lobby: Lobby, m: LobbyMessage, members: LobbyMember[]) {
  const [forUsers] = await render(ctx, [m], members, { forApp: false });
  publish(ctx, 'LOBBY_MESSAGE_CREATE', forUsers, members);
  webhook(ctx, lobby, 'LOBBY_MESSAGE_CREATE', forUsers);
  return forUsers;
}

/**
 * POST /lobbies/{id}/messages: the app (as its bot user) or a member sends text (≤ 4000 characters, ≤ 2000 while a
 * channel is linked) with optional metadata. Answers 201 with the lobby message.
 */
export async function sendLobbyMessage(ctx: Ctx, caller: LobbyCaller, lobbyId: string, b: z.infer<typeof SendLobbyMessage>, files: UploadedFile[]) {
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  requireMembership(caller, members);
  if (!caller.isApp) await limitCommunication(ctx, caller.appId, 'message');
  if (files.length) throw fieldError('attachments', 'LOBBY_MESSAGE_TEXT_ONLY', 'Lobby messages carry text only.');
  const content = b.content ?? '';
  if (!content.trim()) throw Errors.emptyMessage();
  const channel = lobby.linked_channel_id ? await getChannelRecord(ctx, lobby.linked_channel_id) : null;
  if (channel && content.length > LINKED_CONTENT_MAX) throw fieldError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${LINKED_CONTENT_MAX} or fewer in length.`);
  let id: string;
  let channelId = lobby.id;
  const now = ctx.clock.now();
  if (channel) {
    // The guild copy: posted for the player through the app, never pinging anyone, marked so the bridge skips it.
    const posted = await createMessage(ctx, {
      channel,
      author: caller.user,
      files: [],
      applicationId: caller.appId,
      skipPermissionChecks: true,
      body: { content, allowed_mentions: { parse: [] } } satisfies MessageCreateInput,
      extra: { lobby_id: lobby.id },
    });
    id = posted.id;
    channelId = channel.id;
  } else {
    id = ctx.ids.next();
  }
  const row = {
    id,
    lobby_id: lobby.id,
    channel_id: channelId,
    author_id: caller.user.id,
    application_id: caller.appId,
    type: 0,
    content,
    metadata: jsonOrNull(b.metadata),
    moderation_metadata: null,
    flags: 0,
    edited_at: null,
    created_at: now,
  };
  await ctx.repos.lobbies.insertMessage(row);
  await touchLobby(ctx, lobby);
  const msg = toLobbyMessage(row);
  await announceCreate(ctx, lobby, msg, members);
  const [out] = await render(ctx, [msg], members, { forApp: caller.isApp });
  return out;
}

/** How far back a player's SDK reads lobby history (GetLobbyMessagesWithLimit: 200 messages, 72 hours). */
export const SDK_HISTORY_WINDOW_MS = 72 * 3600_000;

/**
 * GET /lobbies/{id}/messages?limit=1..200 (default 50): the most recent messages, newest first; members and the app.
 * Players (Bearer tokens, the SDK) see the last 72 hours only; the app's Bot token sees all kept history.
 */
export async function listLobbyMessages(ctx: Ctx, caller: LobbyCaller, lobbyId: string, limit = 50) {
  const { lobby, members } = await requireLobby(ctx, caller, lobbyId);
  requireMembership(caller, members);
  const msgs = await ctx.repos.lobbies.messagesPage(lobby.id, caller.isApp ? null : ctx.clock.now() - SDK_HISTORY_WINDOW_MS, limit);
  return render(ctx, msgs, members, { forApp: caller.isApp });
}

/**
 * PUT /lobbies/{id}/messages/{message_id}/moderation-metadata (app): replaces the message's moderation metadata
 * (≤ 5 string values of ≤ 2000 characters; JSON or form fields). No event.
 */
export async function setLobbyModerationMetadata(ctx: Ctx, caller: LobbyCaller, lobbyId: string, messageId: string, metadata: StringMap): Promise<void> {
  if (!caller.isApp) throw Errors.onlyBots();
  const { lobby } = await requireLobby(ctx, caller, lobbyId);
  if (!isId(messageId)) throw Errors.unknownMessage();
  if (!(await ctx.repos.lobbies.setModerationMetadata(lobby.id, messageId, metadata))) throw Errors.unknownMessage();
}

// ------------------------------------------------------------------------------------------------------ bridge

async function linkedLobby(ctx: Ctx, lobbyId: string): Promise<Lobby | null> {
  return ctx.repos.lobbies.byId(lobbyId);
}

/** A message posted in a linked channel (not one the lobby itself sent there) becomes a lobby message. */
export async function bridgeCreate(ctx: Ctx, lobbyId: string, messageId: string): Promise<void> {
  const m = await ctx.repos.lobbies.bridgeSource(messageId);
  if (!m) return;
  if (m.extra.lobby_id) return; // the lobby's own message, already stored by sendLobbyMessage
  const lobby = await linkedLobby(ctx, lobbyId);
  if (!lobby || lobby.linked_channel_id !== String(m.channel_id)) return;
  const row = {
    id: String(m.id),
    lobby_id: lobby.id,
    channel_id: String(m.channel_id),
    author_id: String(m.author_id),
    application_id: null,
    type: Number(m.type),
    content: String(m.content ?? ''),
    metadata: null,
    moderation_metadata: null,
    flags: 0,
    edited_at: null,
    created_at: Number(m.created_at),
  };
  if (!(await ctx.repos.lobbies.insertBridgedMessage(row))) return;
  await touchLobby(ctx, lobby);
  await announceCreate(ctx, lobby, toLobbyMessage(row), await lobbyMembers(ctx, lobby.id));
}

/** An edit in the linked channel edits the lobby copy: LOBBY_MESSAGE_UPDATE. */
export async function bridgeUpdate(ctx: Ctx, messageId: string): Promise<void> {
  const m = await ctx.repos.lobbies.bridgeSource(messageId);
  const row = await ctx.repos.lobbies.message(messageId);
  if (!m || !row) return;
  const content = m.content;
  if (content === row.content) return;
  const editedAt = m.edited_at == null ? ctx.clock.now() : m.edited_at;
  await ctx.repos.lobbies.editMessage(messageId, content, editedAt);
  const lobby = await linkedLobby(ctx, String(row.lobby_id));
  if (!lobby) return;
  const members = await lobbyMembers(ctx, lobby.id);
  const msg: LobbyMessage = { ...row, content, edited_at: editedAt };
  const [d] = await render(ctx, [msg], members, { forApp: false, timestamps: true });
  publish(ctx, 'LOBBY_MESSAGE_UPDATE', d, members);
  webhook(ctx, lobby, 'LOBBY_MESSAGE_UPDATE', d);
}

/** A deletion in the linked channel deletes the lobby copy: LOBBY_MESSAGE_DELETE `{id, lobby_id}`. */
export async function bridgeDelete(ctx: Ctx, messageId: string): Promise<void> {
  const row = await ctx.repos.lobbies.message(messageId);
  if (!row) return;
  if (!(await ctx.repos.lobbies.deleteMessage(messageId))) return;
  const lobby = await linkedLobby(ctx, String(row.lobby_id));
  if (!lobby) return;
  const d = { id: messageId, lobby_id: lobby.id };
  publish(ctx, 'LOBBY_MESSAGE_DELETE', d, await lobbyMembers(ctx, lobby.id));
  webhook(ctx, lobby, 'LOBBY_MESSAGE_DELETE', d);
}
