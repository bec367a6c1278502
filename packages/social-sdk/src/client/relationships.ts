/** Users and relationships: the current user, known users, friends (Discord and game), blocks. */
import { RelationshipGroupType, RelationshipType, Status, StatusType } from '../enums.js';
import { RelationshipHandle, UserHandle, toProfile, type UserApplicationProfile } from '../handles.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { ConnectionClient } from './connection.js';
import { allowedTypos, nameDistance } from '../friend-search.js';

export abstract class RelationshipsClient extends ConnectionClient {
  /** The current user once Ready; undefined before (no dummy data). */
  getCurrentUserV2(): UserHandle | undefined {
    if (this.status !== Status.Ready || !this.cache.me) return undefined;
    return this.userView(this.cache.me.id);
  }

  /** The deprecated GetCurrentUser: before Ready a handle of nobody (id "0", empty names), as the real one's dummy. */
  getCurrentUser(): UserHandle {
    return this.getCurrentUserV2() ?? this.userView('0');
  }

  /** A user the client knows (friends, lobby members, DM partners); undefined otherwise. */
  getUser(userId: SnowflakeInput): UserHandle | undefined {
    const id = snowflake(userId);
    return this.cache.users.has(id) ? this.userView(id) : undefined;
  }

  setUserUpdatedCallback(cb: ((userId: Snowflake) => void) | null): void {
    this.events.setSlot('userUpdated', cb && ((e) => cb(e.userId)));
  }

  /** The current user's application profiles (the external identities the game knows them by). */
  getUserApplicationProfiles(): Promise<UserApplicationProfile[]> {
    return this.op(async () => {
      const me = this.requireReady('getUserApplicationProfiles');
      const profiles = await this.api<any[]>('/users/@me/application-profiles');
      this.cache.profiles.set(me, profiles);
      return profiles.map(toProfile);
    });
  }

  /** The profiles already known, without waiting (the NoLock variant): empty before getUserApplicationProfiles. */
  getUserApplicationProfilesNoLock(): UserApplicationProfile[] {
    return this.cache.me ? (this.cache.profiles.get(this.cache.me.id) ?? []).map(toProfile) : [];
  }

  // ------------------------------------------------------------------------------------------------ relationships

  getRelationships(): RelationshipHandle[] {
    return [...this.cache.relationships.keys()].map((id) => this.getRelationshipHandle(id));
  }

  getRelationshipHandle(userId: SnowflakeInput): RelationshipHandle {
    const id = snowflake(userId);
    return new RelationshipHandle(this.cache, this.userView(id), id);
  }

  /** Friends by group: playing this game, online elsewhere, offline. */
  getRelationshipsByGroup(group: RelationshipGroupType): RelationshipHandle[] {
    return this.getRelationships().filter((r) => {
      if (r.discordRelationshipType() !== RelationshipType.Friend && r.gameRelationshipType() !== RelationshipType.Friend) return false;
      const user = r.user();
      const online = ![StatusType.Offline, StatusType.Invisible].includes(user.status() as 1 | 5);
      const playing = online && user.gameActivity()?.applicationId === this.applicationId;
      return group === RelationshipGroupType.OnlinePlayingGame ? playing : group === RelationshipGroupType.OnlineElsewhere ? online && !playing : !online;
    });
  }

  /**
   * Friends (platform or game) whose username or display name matches the search by Levenshtein distance
   * (friend-search.ts), closest first, then by display name.
   */
  searchFriendsByUsername(search: string): UserHandle[] {
    const max = allowedTypos(search.trim());
    return this.getRelationships()
      .filter((r) => r.discordRelationshipType() === RelationshipType.Friend || r.gameRelationshipType() === RelationshipType.Friend)
      .map((r) => ({ user: r.user(), d: nameDistance(search, [r.user().username(), r.user().displayName()]) }))
      .filter((x) => x.d <= max)
      .sort((a, b) => a.d - b.d || a.user.displayName().localeCompare(b.user.displayName()))
      .map((x) => x.user);
  }

  sendDiscordFriendRequest(username: string): Promise<void> {
    return this.op(() => this.api('/users/@me/relationships', { method: 'POST', body: { username } }));
  }
  sendDiscordFriendRequestById(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'PUT', body: {} }));
  }
  acceptDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.sendDiscordFriendRequestById(userId);
  }
  rejectDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'DELETE' }));
  }
  cancelDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.rejectDiscordFriendRequest(userId);
  }
  sendGameFriendRequest(username: string): Promise<void> {
    return this.op(() => this.api('/users/@me/game-relationships', { method: 'POST', body: { username } }));
  }
  sendGameFriendRequestById(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/game-relationships/${snowflake(userId)}`, { method: 'PUT' }));
  }
  acceptGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.sendGameFriendRequestById(userId);
  }
  rejectGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/game-relationships/${snowflake(userId)}`, { method: 'DELETE' }));
  }
  cancelGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.rejectGameFriendRequest(userId);
  }
  removeGameFriend(userId: SnowflakeInput): Promise<void> {
    return this.rejectGameFriendRequest(userId);
  }
  removeDiscordAndGameFriend(userId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(userId);
      const r = this.cache.relationships.get(id);
      if (r?.discordType) await this.api(`/users/@me/relationships/${id}`, { method: 'DELETE' });
      if (r?.gameType) await this.api(`/users/@me/game-relationships/${id}`, { method: 'DELETE' });
    });
  }
  blockUser(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'PUT', body: { type: RelationshipType.Blocked } }));
  }
  unblockUser(userId: SnowflakeInput): Promise<void> {
    return this.rejectDiscordFriendRequest(userId);
  }
  setRelationshipCreatedCallback(cb: ((userId: Snowflake, isDiscordRelationshipUpdate: boolean) => void) | null): void {
    this.events.setSlot('relationshipCreated', cb && ((e) => cb(e.userId, e.isDiscordRelationshipUpdate)));
  }
  /** Any friend's group may have changed (online, playing, offline, added, removed): rebuild the friends list. */
  setRelationshipGroupsUpdatedCallback(cb: ((userId: Snowflake) => void) | null): void {
    this.events.setSlot('relationshipGroupsUpdated', cb && ((e) => cb(e.userId)));
  }
  setRelationshipDeletedCallback(cb: ((userId: Snowflake, isDiscordRelationshipUpdate: boolean) => void) | null): void {
    this.events.setSlot('relationshipDeleted', cb && ((e) => cb(e.userId, e.isDiscordRelationshipUpdate)));
  }

  /** @internal */ handleRelationship(d: any, game: boolean, removed: boolean): void {
    if (!removed) this.cache.putUser(d.user);
    const r = this.cache.relationship(d.id);
    if (game) r.gameType = removed ? 0 : d.type;
    else Object.assign(r, { discordType: removed ? 0 : d.type, nickname: removed ? null : (d.nickname ?? r.nickname), since: d.since ?? r.since });
    if (removed) this.cache.dropRelationshipIfEmpty(d.id);
    this.events.emit(removed ? 'relationshipDeleted' : 'relationshipCreated', { userId: d.id, isDiscordRelationshipUpdate: !game });
    this.events.emit('relationshipGroupsUpdated', { userId: d.id });
  }

  /** @internal */ async handleUserUpdate(): Promise<void> {
    const me = await this.api('/users/@me').catch(() => null);
    if (!me) return;
    this.cache.me = me;
    this.cache.putUser(me);
    this.events.emit('userUpdated', { userId: me.id });
  }
}
