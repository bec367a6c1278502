import type { Cache, MessageRecord } from './cache.js';
import { activityFromWire, type Activity } from './activity.js';
import { AdditionalContentType, AvatarType, ChannelType, DisclosureTypes, RelationshipType, StatusType, avatarTypeToString } from './enums.js';
import type { Snowflake } from './snowflake.js';

/**
 * Handles are live views over the client's cache: each getter reads the cache again, so a handle kept by the game
 * follows changes (a user renamed, a member added). Ids are snowflake strings.
 */

const STATUS: Record<string, StatusType> = {
  online: StatusType.Online,
  idle: StatusType.Idle,
  dnd: StatusType.Dnd,
  invisible: StatusType.Invisible,
  offline: StatusType.Offline,
};

/** An avatar format: the C++ AvatarType (Gif 0, Webp 1, Png 2, Jpeg 3) or its file extension. */
export type AvatarFormat = AvatarType | 'png' | 'jpeg' | 'webp' | 'gif';
const EXTENSION: Record<AvatarType, string> = { 0: 'gif', 1: 'webp', 2: 'png', 3: 'jpeg' };
const extension = (f: AvatarFormat) => (typeof f === 'number' ? EXTENSION[f] : f);

export class UserHandle {
  constructor(
    private readonly cache: Cache,
    readonly webBase: string,
    readonly cdnBase: string,
    private readonly userId: Snowflake,
  ) {}
  private get u() {
    return this.cache.users.get(this.userId) ?? (this.cache.me?.id === this.userId ? this.cache.me : undefined);
  }
  id(): Snowflake {
    return this.userId;
  }
  username(): string {
    return this.u?.username ?? '';
  }
  globalName(): string | undefined {
    return this.u?.global_name ?? undefined;
  }
  /** The global name, else the username. */
  displayName(): string {
    return this.u?.global_name || this.u?.username || '';
  }
  avatar(): string | undefined {
    return this.u?.avatar ?? undefined;
  }
  static avatarTypeToString = avatarTypeToString;
  /**
   * The avatar's CDN URL: an animated avatar (hash `a_…`) in `animatedType`, a still one in `staticType` (one argument:
   * both); without an avatar, one of the default avatars.
   */
  avatarUrl(animatedType?: AvatarFormat, staticType?: AvatarFormat): string {
    const u = this.u;
    if (!u?.avatar) return `${this.cdnBase}/embed/avatars/${Number((BigInt(this.userId) >> 22n) % 6n)}.png`;
    const format = u.avatar.startsWith('a_') ? (animatedType ?? AvatarType.Gif) : (staticType ?? animatedType ?? AvatarType.Png);
    return `${this.cdnBase}/avatars/${this.userId}/${u.avatar}.${extension(format)}`;
  }
  isProvisional(): boolean {
    return !!this.u?.is_provisional;
  }
  status(): StatusType {
    if (this.relationship()?.discordRelationshipType() === RelationshipType.Blocked) return StatusType.Blocked;
    const p = this.cache.presences.get(this.userId);
    return p ? (STATUS[p.status] ?? StatusType.Unknown) : StatusType.Offline;
  }
  /** The rich presence of the game this client belongs to, else the first activity. */
  gameActivity(): Activity | undefined {
    const acts = this.cache.presences.get(this.userId)?.activities ?? [];
    return acts.length ? activityFromWire(acts[0]) : undefined;
  }
  relationship(): RelationshipHandle | undefined {
    return this.cache.relationships.has(this.userId) ? new RelationshipHandle(this.cache, this, this.userId) : undefined;
  }
  userApplicationProfiles(): UserApplicationProfile[] {
    return (this.cache.profiles.get(this.userId) ?? []).map(toProfile);
  }
}

export interface UserApplicationProfile {
  avatarHash: string | null;
  metadata: Record<string, string>;
  providerId: string;
  providerIssuedUserId: string;
  providerType: string;
  username: string | null;
}

export const toProfile = (p: any): UserApplicationProfile => ({
  avatarHash: p.avatar_hash ?? null,
  metadata: p.metadata ?? {},
  providerId: p.provider_id,
  providerIssuedUserId: p.provider_issued_user_id,
  providerType: p.provider_type,
  username: p.username ?? null,
});

export class RelationshipHandle {
  constructor(
    private readonly cache: Cache,
    private readonly owner: UserHandle,
    private readonly userId: Snowflake,
  ) {}
  private get r() {
    return this.cache.relationships.get(this.userId);
  }
  id(): Snowflake {
    return this.userId;
  }
  discordRelationshipType(): RelationshipType {
    return (this.r?.discordType ?? 0) as RelationshipType;
  }
  gameRelationshipType(): RelationshipType {
    return (this.r?.gameType ?? 0) as RelationshipType;
  }
  isSpamRequest(): boolean {
    return false;
  }
  nickname(): string | null {
    return this.r?.nickname ?? null;
  }
  user(): UserHandle {
    return this.owner;
  }
}

export class LobbyMemberHandle {
  constructor(
    private readonly lobby: LobbyHandle,
    private readonly userId: Snowflake,
    private readonly userView: () => UserHandle,
  ) {}
  private get m() {
    return this.lobby.raw()?.members?.find((m: any) => m.id === this.userId);
  }
  id(): Snowflake {
    return this.userId;
  }
  canLinkLobby(): boolean {
    return ((this.m?.flags ?? 0) & 1) === 1;
  }
  connected(): boolean {
    return !!this.m?.connected;
  }
  metadata(): Record<string, string> {
    return this.m?.metadata ?? {};
  }
  user(): UserHandle {
    return this.userView();
  }
}

/** A participant's own mute and deafen (Call and CallInfoHandle GetVoiceStateHandle). */
export interface VoiceStateHandle {
  selfMute(): boolean;
  selfDeaf(): boolean;
}

/** Who is in a lobby's call, seen from the lobby (also by members not in the call). */
export class CallInfoHandle {
  constructor(private readonly lobby: LobbyHandle) {}
  private get states(): any[] {
    return this.lobby.raw()?.voice_states ?? [];
  }
  /** The call's channel: the lobby's id. */
  channelId(): Snowflake {
    return this.lobby.id();
  }
  /** A lobby call belongs to no guild (null, as Call.getGuildId). */
  guildId(): Snowflake | null {
    return null;
  }
  getParticipants(): Snowflake[] {
    return this.states.map((s) => s.user_id);
  }
  participants(): Snowflake[] {
    return this.getParticipants();
  }
  getVoiceStateHandle(userId: Snowflake): VoiceStateHandle | undefined {
    const has = () => this.states.find((s) => s.user_id === userId);
    if (!has()) return undefined;
    return { selfMute: () => !!has()?.self_mute, selfDeaf: () => !!has()?.self_deaf };
  }
}

export class LobbyHandle {
  constructor(
    private readonly cache: Cache,
    private readonly lobbyId: Snowflake,
    private readonly userView: (id: Snowflake) => UserHandle,
  ) {}
  raw(): any {
    return this.cache.lobbies.get(this.lobbyId);
  }
  id(): Snowflake {
    return this.lobbyId;
  }
  metadata(): Record<string, string> {
    return this.raw()?.metadata ?? {};
  }
  linkedChannel(): { id: Snowflake; name: string; guildId: Snowflake } | undefined {
    const c = this.raw()?.linked_channel;
    return c ? { id: c.id, name: c.name, guildId: c.guild_id } : undefined;
  }
  lobbyMemberIds(): Snowflake[] {
    return (this.raw()?.members ?? []).map((m: any) => m.id);
  }
  lobbyMembers(): LobbyMemberHandle[] {
    return this.lobbyMemberIds().map((id) => this.getLobbyMemberHandle(id)!);
  }
  getLobbyMemberHandle(userId: Snowflake): LobbyMemberHandle | undefined {
    return this.lobbyMemberIds().includes(userId) ? new LobbyMemberHandle(this, userId, () => this.userView(userId)) : undefined;
  }
  /** Who is in the lobby's call. */
  getCallInfoHandle(): CallInfoHandle | undefined {
    return this.raw()?.voice_states?.length ? new CallInfoHandle(this) : undefined;
  }
}

/** What a message carries that a game may not render (images, embeds, polls…): its kind, a title, how many. */
export interface AdditionalContent {
  type: AdditionalContentType;
  title: string | null;
  count: number;
}

/** The handles a message leads to, resolved by the client. */
export interface MessageViews {
  user(id: Snowflake): UserHandle;
  channel(id: Snowflake): ChannelHandle | undefined;
  lobby(id: Snowflake): LobbyHandle | undefined;
}

const VOICE_MESSAGE = 1 << 13;

/** The first kind of extra content a message has, as the real SDK reports one. */
export function additionalContentOf(m: any): AdditionalContent | undefined {
  const n = (x: unknown) => (Array.isArray(x) ? x.length : 0);
  if ((m?.flags ?? 0) & VOICE_MESSAGE) return { type: AdditionalContentType.VoiceMessage, title: null, count: Math.max(1, n(m.attachments)) };
  if (m?.poll) return { type: AdditionalContentType.Poll, title: m.poll.question?.text ?? null, count: 1 };
  if (m?.thread) return { type: AdditionalContentType.Thread, title: m.thread.name ?? null, count: 1 };
  if (n(m?.attachments)) return { type: AdditionalContentType.Attachment, title: null, count: n(m.attachments) };
  if (n(m?.sticker_items)) return { type: AdditionalContentType.Sticker, title: m.sticker_items[0].name ?? null, count: n(m.sticker_items) };
  if (n(m?.embeds)) return { type: AdditionalContentType.Embed, title: m.embeds[0].title ?? null, count: n(m.embeds) };
  return undefined;
}

export class MessageHandle {
  constructor(
    private readonly cache: Cache,
    private readonly messageId: Snowflake,
    private readonly views: MessageViews,
  ) {}
  private userView(id: Snowflake): UserHandle {
    return this.views.user(id);
  }
  private get m(): MessageRecord | undefined {
    return this.cache.messages.get(this.messageId);
  }
  id(): Snowflake {
    return this.messageId;
  }
  authorId(): Snowflake {
    return this.m?.authorId ?? '0';
  }
  author(): UserHandle | undefined {
    return this.m ? this.userView(this.m.authorId) : undefined;
  }
  channelId(): Snowflake {
    return this.m?.channelId ?? '0';
  }
  /** The DM or lobby the message was sent in. */
  channel(): ChannelHandle | undefined {
    return this.m ? this.views.channel(this.m.lobbyId ?? this.m.channelId) : undefined;
  }
  /** The lobby, for a lobby message. */
  lobby(): LobbyHandle | undefined {
    return this.m?.lobbyId ? this.views.lobby(this.m.lobbyId) : undefined;
  }
  /** Images, videos, embeds, polls, stickers, a thread: what the game likely cannot render, to point to the platform. */
  additionalContent(): AdditionalContent | undefined {
    return additionalContentOf(this.m?.raw);
  }
  /** Set on the SDK's own explanatory messages (MessageDataVisibleOnDiscord), undefined on players' messages. */
  disclosureType(): DisclosureTypes | undefined {
    return this.m?.raw?.disclosure_type === DisclosureTypes.MessageDataVisibleOnDiscord ? DisclosureTypes.MessageDataVisibleOnDiscord : undefined;
  }
  content(): string {
    return this.m?.content ?? '';
  }
  rawContent(): string {
    return this.m?.raw?.content ?? '';
  }
  metadata(): Record<string, string> {
    return this.m?.metadata ?? {};
  }
  /** The app's own moderation metadata (only the app's Bot token sees it; empty in the game). */
  moderationMetadata(): Record<string, string> {
    return this.m?.raw?.moderation_metadata ?? {};
  }
  lobbyId(): Snowflake | undefined {
    return this.m?.lobbyId ?? undefined;
  }
  recipientId(): Snowflake | undefined {
    return this.m?.recipientId ?? undefined;
  }
  recipient(): UserHandle | undefined {
    return this.m?.recipientId ? this.userView(this.m.recipientId) : undefined;
  }
  applicationId(): Snowflake | undefined {
    return this.m?.applicationId ?? undefined;
  }
  sentFromGame(): boolean {
    return !!this.m?.applicationId;
  }
  /** The server-set name of the author in the lobby (lobby messages). */
  additionalName(): string | undefined {
    return this.m?.additionalName ?? undefined;
  }
  sentTimestamp(): number {
    return this.m?.sentTimestamp ?? 0;
  }
  editedTimestamp(): number {
    return this.m?.editedTimestamp ?? 0;
  }
}

export interface ChannelHandle {
  id: Snowflake;
  name: string;
  type: number;
  recipients: Snowflake[];
}

/** A DM the client knows (by its partner) or a lobby it is in; undefined otherwise. */
export function channelHandleOf(cache: Cache, userView: (id: Snowflake) => UserHandle, id: Snowflake): ChannelHandle | undefined {
  const other = cache.dmChannels.get(id);
  if (other) return { id, name: userView(other).displayName(), type: ChannelType.Dm, recipients: [other] };
  const lobby = cache.lobbies.get(id);
  if (lobby) return { id, name: '', type: ChannelType.Lobby, recipients: (lobby.members ?? []).map((m: any) => m.id) };
  return undefined;
}

export interface GuildChannel {
  id: Snowflake;
  name: string;
  type: number;
  position: number;
  parentId: Snowflake | null;
  isLinkable: boolean;
  isViewableAndWriteableByAllMembers: boolean;
  linkedLobby: { applicationId: Snowflake; lobbyId: Snowflake } | null;
}

export interface ActivityInvite {
  senderId: Snowflake;
  channelId: Snowflake;
  messageId: Snowflake;
  type: number;
  applicationId: Snowflake;
  parentApplicationId: Snowflake | null;
  partyId: string;
  sessionId: string | null;
  isValid: boolean;
}
