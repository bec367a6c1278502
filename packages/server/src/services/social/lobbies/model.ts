import { MAX_URL_LENGTH, urlField } from '../../../core/url-policy.js';
import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { ApiError, Errors } from '../../../core/errors.js';
import { snowflake } from '../../../core/validation.js';
import type { UserRecord } from '../../../store/records.js';
import { toLobby, toLobbyMember, toLobbyMessage, type Lobby, type LobbyMember, type LobbyMessage, type StringMap } from '../../../store/repos/lobbies.js';
import { channel as channelWire } from '../../../wire/channel.js';
import { publicUser } from '../../../wire/user.js';
import { applicationOfBot } from '../../identity/applications.js';
import { getChannelRecord } from '../../guilds/lookup.js';
import { isId } from '../../../core/ids.js';

/**
 * Social SDK lobbies: records, wire shapes, request schemas and who is calling. A lobby belongs to one application;
 * the app reaches it with its Bot token, the app's players with Bearer tokens of that app (`lobbies.write`, which
 * `sdk.social_layer` expands to) and only while they are members.
 */

export const unknownLobby = () => new ApiError(404, 10031, 'Unknown Lobby');

/** Lobby member flag: the member may link and unlink a guild channel. */
export const CAN_LINK_LOBBY = 1;
/** Idle lobbies go away after this long without a connected member or any activity (the SDK's "about 5 minutes"). */
export const DEFAULT_IDLE_TIMEOUT_S = 300;
/** How long a create-or-join secret keeps pointing at its lobby (the SDK's "about 30 days"). */
export const SECRET_TTL_MS = 30 * 86400_000;
/** Members per create, patch and bulk request. */
export const MAX_MEMBERS_PER_REQUEST = 25;

export type { Lobby, LobbyMember, LobbyMessage, StringMap };
export { toLobby, toLobbyMember, toLobbyMessage };

export const jsonOrNull = (m: StringMap | null | undefined): string | null => (m == null ? null : JSON.stringify(m));

// ------------------------------------------------------------------------------------------------------ callers

/** Who calls a lobby route: the app itself (Bot token) or one of its players (Bearer token of that app). */
export interface LobbyCaller {
  appId: string;
  user: UserRecord;
  /** True for the app's Bot token: it manages every lobby of the app without being a member. */
  isApp: boolean;
}

/** User tokens have no application behind them: lobby routes answer them 401 like any route not meant for them. */
export async function lobbyCaller(ctx: Ctx, actor: Actor): Promise<LobbyCaller> {
  if (actor.kind === 'bot') {
    const appId = actor.applicationId ?? (await applicationOfBot(ctx, actor.user.id))?.id;
    if (!appId) throw Errors.unknownApplication();
    return { appId, user: actor.user, isApp: true };
  }
  if (actor.kind === 'bearer' && actor.applicationId) return { appId: actor.applicationId, user: actor.user, isApp: false };
  throw Errors.unauthorized();
}

export async function findLobby(ctx: Ctx, lobbyId: string): Promise<Lobby | null> {
  if (!isId(lobbyId)) return null;
  return ctx.repos.lobbies.byId(lobbyId);
}

export async function lobbyMembers(ctx: Ctx, lobbyId: string): Promise<LobbyMember[]> {
  return ctx.repos.lobbies.members(lobbyId);
}

/** A lobby of the caller's app with its members; 10031 for unknown ids and other apps' lobbies. */
export async function requireLobby(ctx: Ctx, caller: LobbyCaller, lobbyId: string): Promise<{ lobby: Lobby; members: LobbyMember[] }> {
  const lobby = await findLobby(ctx, lobbyId);
  if (!lobby || lobby.application_id !== caller.appId) throw unknownLobby();
  return { lobby, members: await lobbyMembers(ctx, lobby.id) };
}

/** Players reach a lobby only as members (50001 otherwise); the app always does. */
export function requireMembership(caller: LobbyCaller, members: LobbyMember[]): LobbyMember | null {
  if (caller.isApp) return members.find((m) => m.user_id === caller.user.id) ?? null;
  const me = members.find((m) => m.user_id === caller.user.id);
  if (!me) throw Errors.missingAccess();
  return me;
}

/** Pushes the idle deadline out by the lobby's timeout: something happened in it. */
export async function touchLobby(ctx: Ctx, lobby: Lobby): Promise<void> {
  lobby.idle_deadline = ctx.clock.now() + lobby.idle_timeout_seconds * 1000;
  await ctx.repos.lobbies.setIdleDeadline(lobby.id, lobby.idle_deadline);
}

// ------------------------------------------------------------------------------------------------------ wire

export function lobbyMemberWire(m: LobbyMember) {
  return { id: m.user_id, metadata: m.metadata, flags: m.flags, ...(m.additional_name ? { additional_name: m.additional_name } : {}) };
}

/**
 * The lobby object. `linked_channel` only while a channel is linked; `override_event_webhooks_url` only for the app
 * (players and Gateway payloads never see where the app's events go).
 */
export async function lobbyWire(ctx: Ctx, l: Lobby, members: LobbyMember[], opts: { forApp: boolean }) {
  const out: Record<string, unknown> = {
    id: l.id,
    application_id: l.application_id,
    metadata: l.metadata,
    members: members.map(lobbyMemberWire),
    flags: l.flags,
  };
  if (l.linked_channel_id) {
    const ch = await getChannelRecord(ctx, l.linked_channel_id);
    if (ch) out.linked_channel = channelWire(ch);
  }
  if (opts.forApp && l.override_event_webhooks_url) out.override_event_webhooks_url = l.override_event_webhooks_url;
  return out;
}

/**
 * A lobby message: `channel_id` is the lobby id unless the message went through a linked channel; `lobby_member`
 * carries the author's server-set `additional_name`; `moderation_metadata` is the app's own and only shown to it.
 */
export function lobbyMessageWire(
  m: LobbyMessage,
  author: UserRecord | undefined,
  member: LobbyMember | undefined,
  opts: { forApp: boolean; timestamps?: boolean },
) {
  return {
    id: m.id,
    type: m.type,
    content: m.content,
    lobby_id: m.lobby_id,
    channel_id: m.channel_id,
    author: author
      ? publicUser(author)
      : { id: m.author_id, username: 'Deleted User', discriminator: '0', global_name: null, avatar: null, public_flags: 0, flags: 0, primary_guild: null },
    ...(member?.additional_name ? { lobby_member: { additional_name: member.additional_name } } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(opts.forApp && m.moderation_metadata ? { moderation_metadata: m.moderation_metadata } : {}),
    flags: m.flags,
    ...(m.application_id ? { application_id: m.application_id } : {}),
    ...(opts.timestamps
      ? { timestamp: new Date(m.created_at).toISOString(), edited_timestamp: m.edited_at == null ? null : new Date(m.edited_at).toISOString() }
      : {}),
  };
}

// ------------------------------------------------------------------------------------------------------ schemas

/** A string-to-string map with at most `maxKeys` entries (keys and values bounded). */
export const stringMap = (maxKeys: number, maxValue: number) =>
  z.record(z.string().min(1).max(1024), z.string().max(maxValue)).superRefine((m, c) => {
    if (Object.keys(m).length > maxKeys)
      c.addIssue({ code: 'custom', message: `Must be ${maxKeys} or fewer in length.`, params: { code: 'BASE_TYPE_MAX_LENGTH' } });
  });

/** Lobby and member metadata: at most 25 keys, values up to 1024 characters. */
export const Metadata = stringMap(25, 1024).nullable().optional();
/** CAN_LINK_LOBBY is the only flag (0 or null clear it). */
const MemberFlags = z.literal([0, 1]).nullable().optional();
const LobbyFlags = z.literal([0, 1]).nullable().optional();
const IdleTimeout = z.number().int().min(5).max(604800).nullable().optional();
/** A URL the server calls (core/url-policy.ts); the operator's outgoing rules are checked again with the lobby's app. */
const WebhookUrl = urlField('link').max(MAX_URL_LENGTH).nullable().optional();

export const MemberFields = z.object({
  metadata: Metadata,
  flags: MemberFlags,
  additional_name: z.string().min(1).max(80).nullable().optional(),
});
export type MemberFieldsInput = z.infer<typeof MemberFields>;

export const MemberInput = MemberFields.extend({ id: snowflake });
export const BulkMemberInput = MemberInput.extend({ remove_member: z.boolean().nullable().optional() });

export const CreateLobby = z.object({
  idle_timeout_seconds: IdleTimeout,
  members: z.array(MemberInput).max(MAX_MEMBERS_PER_REQUEST).nullable().optional(),
  metadata: Metadata,
  flags: LobbyFlags,
  override_event_webhooks_url: WebhookUrl,
});
export const EditLobby = CreateLobby;

export const CreateOrJoinLobby = z.object({
  secret: z.string().min(1).max(250),
  idle_timeout_seconds: IdleTimeout,
  lobby_metadata: Metadata,
  member_metadata: Metadata,
  flags: LobbyFlags,
});

export const BulkMembers = z.array(BulkMemberInput).min(1).max(MAX_MEMBERS_PER_REQUEST);

export const LinkChannel = z.object({ channel_id: snowflake.nullable().optional() });

const textOnly = z.array(z.unknown()).max(0, { message: 'Lobby messages carry text only.' }).nullable().optional();

/** Lobby messages carry text and metadata; the other fields of the spec's SDK message are refused, not dropped. */
export const SendLobbyMessage = z.object({
  content: z.string().max(4000).nullable().optional(),
  metadata: Metadata,
  flags: z.number().int().min(0).nullable().optional(),
  nonce: z
    .union([z.string().max(25), z.number().int()])
    .nullable()
    .optional(),
  tts: z.boolean().nullable().optional(),
  allowed_mentions: z.unknown().optional(),
  embeds: textOnly,
  sticker_ids: textOnly,
  components: textOnly,
  attachments: textOnly,
  poll: z.null().optional(),
  message_reference: z.null().optional(),
});

export const LobbyMessagesQuery = z.object({
  limit: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(1).max(200).optional()),
});

/** External moderation metadata: at most 5 keys, values up to 2000 characters. */
export const ModerationMetadata = stringMap(5, 2000);
