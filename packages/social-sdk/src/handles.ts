import type { Cache, MessageRecord } from './cache.js';
import { activityFromWire, type Activity } from './activity.js';
import { RelationshipType, StatusType } from './enums.js';
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

export type AvatarType = 'png' | 'jpeg' | 'webp' | 'gif';

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
  avatarUrl(type: AvatarType = 'png'): string {
    const u = this.u;
    if (!u?.avatar) return `${this.cdnBase}/embed/avatars/${Number((BigInt(this.userId) >> 22n) % 6n)}.png`;
    return `${this.cdnBase}/avatars/${this.userId}/${u.avatar}.${type}`;
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

export interface CallInfoHandle {
  channelId(): Snowflake;
  participants(): Snowflake[];
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
    const states: any[] = this.raw()?.voice_states ?? [];
    if (!states.length) return undefined;
    return { channelId: () => this.lobbyId, participants: () => states.map((s) => s.user_id) };
  }
}

export class MessageHandle {
  constructor(
    private readonly cache: Cache,
    private readonly messageId: Snowflake,
    private readonly userView: (id: Snowflake) => UserHandle,
  ) {}
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
