/** Lobbies: create or join, leave, handles, linked guild channels, and their Gateway events. */
import { LobbyHandle, type GuildChannel } from '../handles.js';
import { invalid } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { MessagingClient } from './messaging.js';

export abstract class LobbiesClient extends MessagingClient {
  /** Creates the lobby of a secret or joins it; resolves with its id. */
  createOrJoinLobby(secret: string, lobbyMetadata?: Record<string, string>, memberMetadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      if (!secret || secret.length > 250) throw invalid('a lobby secret has 1 to 250 characters');
      const l = await this.api('/lobbies', {
        method: 'PUT',
        body: { secret, ...(lobbyMetadata ? { lobby_metadata: lobbyMetadata } : {}), ...(memberMetadata ? { member_metadata: memberMetadata } : {}) },
      });
      this.cache.lobbies.set(l.id, { ...this.cache.lobbies.get(l.id), ...l });
      return l.id as Snowflake;
    });
  }
  createOrJoinLobbyWithMetadata(secret: string, lobbyMetadata: Record<string, string>, memberMetadata: Record<string, string>): Promise<Snowflake> {
    return this.createOrJoinLobby(secret, lobbyMetadata, memberMetadata);
  }

  leaveLobby(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      await this.calls.get(id)?.end();
      this.calls.delete(id);
      await this.api(`/lobbies/${id}/members/@me`, { method: 'DELETE' });
      this.cache.lobbies.delete(id);
    });
  }

  getLobbyHandle(lobbyId: SnowflakeInput): LobbyHandle | undefined {
    const id = snowflake(lobbyId);
    return this.cache.lobbies.has(id) ? new LobbyHandle(this.cache, id, this.userView) : undefined;
  }

  getLobbyIds(): Snowflake[] {
    return [...this.cache.lobbies.keys()];
  }

  linkChannelToLobby(lobbyId: SnowflakeInput, channelId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const l = await this.api(`/lobbies/${snowflake(lobbyId)}/channel-linking`, { method: 'PATCH', body: { channel_id: snowflake(channelId) } });
      this.cache.lobbies.set(l.id, { ...this.cache.lobbies.get(l.id), ...l });
    });
  }

  unlinkChannelFromLobby(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const l = await this.api(`/lobbies/${snowflake(lobbyId)}/channel-linking`, { method: 'PATCH', body: {} });
      this.cache.lobbies.set(l.id, { ...l, linked_channel: undefined });
    });
  }

  getUserGuilds(): Promise<{ id: Snowflake; name: string }[]> {
    return this.op(async () => (await this.api<any[]>('/users/@me/guilds')).map((g) => ({ id: g.id, name: g.name })));
  }

  /**
   * Invites the player to the guild of the lobby's linked channel: a single-use invite, opened in the platform's client
   * (the Accord web client's invite page, through `openUrl`), where the player accepts or declines. Resolves with the
   * invite URL (on a console, show it). A provisional account merges first (`provisionalUserMergeRequired`, then
   * ProvisionalUserMergeCompleted).
   */
  joinLinkedLobbyGuild(lobbyId: SnowflakeInput, provisionalUserMergeRequired?: () => void): Promise<string> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      if (!this.cache.lobbies.get(id)?.linked_channel) throw invalid('the lobby has no linked channel');
      await this.requireFullAccount(provisionalUserMergeRequired);
      const invite = await this.api(`/lobbies/${id}/members/@me/invites`, { method: 'POST' });
      const url = `${this.webBase}/invite/${invite.code}`;
      await this.openInPlatform(url);
      return url;
    });
  }

  /** A guild's channels as the client lists them (sortGuildChannels), with what linking needs to know. */
  getGuildChannels(guildId: SnowflakeInput): Promise<GuildChannel[]> {
    return this.op(async () =>
      sortGuildChannels(
        (await this.api<any[]>(`/users/@me/guilds/${snowflake(guildId)}/channels`)).map((c) => ({
          id: c.id,
          name: c.name ?? '',
          type: c.type,
          position: c.position ?? 0,
          parentId: c.parent_id ?? null,
          isLinkable: !!c.is_linkable,
          isViewableAndWriteableByAllMembers: !!c.is_viewable_and_writeable_by_all_members,
          linkedLobby: c.linked_lobby ? { applicationId: c.linked_lobby.application_id, lobbyId: c.linked_lobby.lobby_id } : null,
        })),
      ),
    );
  }

  setLobbyCreatedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyCreated', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyDeletedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyDeleted', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyUpdatedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyUpdated', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyMemberAddedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberAdded', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }
  setLobbyMemberRemovedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberRemoved', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }
  setLobbyMemberUpdatedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberUpdated', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }

  /** @internal */ handleLobby(t: string, d: any): void {
    switch (t) {
      case 'LOBBY_CREATE':
        this.cache.lobbies.set(d.id, { ...this.cache.lobbies.get(d.id), ...d });
        return this.events.emit('lobbyCreated', { lobbyId: d.id });
      case 'LOBBY_UPDATE':
        this.cache.lobbies.set(d.id, { ...this.cache.lobbies.get(d.id), ...d, linked_channel: d.linked_channel });
        return this.events.emit('lobbyUpdated', { lobbyId: d.id });
      case 'LOBBY_DELETE':
        this.cache.lobbies.delete(d.id);
        void this.calls.get(d.id)?.end();
        this.calls.delete(d.id);
        return this.events.emit('lobbyDeleted', { lobbyId: d.id });
    }
    const lobby = this.cache.lobbies.get(d.lobby_id);
    if (!lobby) return;
    const members: any[] = (lobby.members ??= []);
    const i = members.findIndex((m) => m.id === d.member?.id);
    if (t === 'LOBBY_MEMBER_REMOVE') {
      if (i >= 0) members.splice(i, 1);
      return this.events.emit('lobbyMemberRemoved', { lobbyId: d.lobby_id, memberId: d.member.id });
    }
    const next = { ...(i >= 0 ? members[i] : {}), ...d.member };
    if (t === 'LOBBY_MEMBER_CONNECT' || t === 'LOBBY_MEMBER_DISCONNECT') next.connected = t === 'LOBBY_MEMBER_CONNECT';
    if (i >= 0) members[i] = next;
    else members.push(next);
    this.events.emit(t === 'LOBBY_MEMBER_ADD' ? 'lobbyMemberAdded' : 'lobbyMemberUpdated', { lobbyId: d.lobby_id, memberId: d.member.id });
  }
}

const VOICE_TYPES = new Set([2, 13]);
const CATEGORY = 4;

/**
 * Channels as the client lists them: channels without a category first, then each category (by position) followed by
 * its channels; within a group text-like channels before voice channels, then by position, then by id.
 */
export function sortGuildChannels(channels: GuildChannel[]): GuildChannel[] {
  const byKey = (a: GuildChannel, b: GuildChannel) =>
    Number(VOICE_TYPES.has(a.type)) - Number(VOICE_TYPES.has(b.type)) || a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
  const categories = channels.filter((c) => c.type === CATEGORY).sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const ids = new Set(categories.map((c) => c.id));
  const loose = channels.filter((c) => c.type !== CATEGORY && (!c.parentId || !ids.has(c.parentId))).sort(byKey);
  return [...loose, ...categories.flatMap((cat) => [cat, ...channels.filter((c) => c.parentId === cat.id && c.type !== CATEGORY).sort(byKey)])];
}
