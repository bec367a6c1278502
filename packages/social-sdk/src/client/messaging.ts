/** Game DMs and lobby messages: send, edit, delete, history, and their Gateway events. */
import type { MessageRecord, WireUser } from '../cache.js';
import { MessageHandle, type ChannelHandle } from '../handles.js';
import { invalid } from '../result.js';
import { snowflake, snowflakeTime, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { DM } from './core.js';
import { PresenceClient, inviteFromMessage } from './presence.js';

export abstract class MessagingClient extends PresenceClient {
  protected toMessage(m: any, lobbyId: Snowflake | null = null): MessageRecord {
    this.cache.putUser(m.author);
    const me = this.cache.me?.id;
    let recipientId: Snowflake | null = null;
    if (!lobbyId && !m.guild_id) {
      recipientId = this.cache.dmChannels.get(m.channel_id) ?? (m.channel?.recipients ?? []).find((u: string) => u !== m.author?.id) ?? null;
      if (!recipientId && m.author?.id && m.author.id !== me) recipientId = me ?? null;
      if (recipientId && m.author?.id === recipientId && me) recipientId = me;
      const other = m.author?.id === me ? recipientId : m.author?.id;
      if (other && other !== me) this.cache.dmChannels.set(m.channel_id, other);
    }
    return {
      id: m.id,
      channelId: m.channel_id,
      lobbyId: lobbyId ?? m.lobby_id ?? null,
      authorId: m.author?.id,
      recipientId,
      content: m.content ?? '',
      metadata: m.metadata ?? {},
      applicationId: m.application_id ?? null,
      additionalName: m.lobby_member?.additional_name ?? null,
      editedTimestamp: m.edited_timestamp ? Date.parse(m.edited_timestamp) : 0,
      sentTimestamp: m.timestamp ? Date.parse(m.timestamp) : snowflakeTime(m.id),
      raw: m,
    };
  }

  protected messageView = (id: Snowflake) => new MessageHandle(this.cache, id, this.userView);

  /** A DM to a user from the game (≤ 2000 characters, optional metadata); resolves with the message id. */
  sendUserMessage(recipientId: SnowflakeInput, content: string, metadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      if (!content || content.length > 2000) throw invalid('a message has 1 to 2000 characters');
      const m = await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages`, { method: 'POST', body: { content, ...(metadata ? { metadata } : {}) } });
      this.cache.putMessage(this.toMessage(m));
      return m.id as Snowflake;
    });
  }

  editUserMessage(recipientId: SnowflakeInput, messageId: SnowflakeInput, content: string): Promise<void> {
    return this.op(async () => {
      const m = await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages/${snowflake(messageId)}`, { method: 'PATCH', body: { content } });
      this.cache.putMessage(this.toMessage(m));
    });
  }

  deleteUserMessage(recipientId: SnowflakeInput, messageId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages/${snowflake(messageId)}`, { method: 'DELETE' });
      this.cache.deleteMessage(snowflake(messageId));
    });
  }

  protected dmFetched = new Map<Snowflake, number>();

  /**
   * DM history with a user, newest first: at most 200, the last 72 hours (the server's window). Served from the local
   * cache when an earlier read already covers `limit` (new messages arrive by the Gateway); else read over HTTP.
   */
  getUserMessagesWithLimit(recipientId: SnowflakeInput, limit: number): Promise<MessageHandle[]> {
    return this.op(async () => {
      const id = snowflake(recipientId);
      const n = Math.max(1, Math.min(200, Math.floor(limit)));
      const fetched = this.dmFetched.get(id);
      const cached = this.cache.dmHistory.get(id);
      if (!cached || fetched === undefined || (n > fetched && cached.length >= fetched)) {
        const list = await this.api<any[]>(`/users/@me/dms/${id}/messages`, { query: { limit: n } });
        this.cache.dmHistory.set(id, []);
        for (const m of [...list].reverse()) this.cache.putMessage(this.toMessage(m));
        this.dmFetched.set(id, n);
      }
      return (this.cache.dmHistory.get(id) ?? []).slice(0, n).map(this.messageView);
    });
  }

  /** Each DM partner with the id of the last message. */
  getUserMessageSummaries(): Promise<{ userId: Snowflake; lastMessageId: Snowflake }[]> {
    return this.op(async () => (await this.api<any[]>('/users/@me/dms')).map((s) => ({ userId: s.user_id, lastMessageId: s.last_message_id })));
  }

  sendLobbyMessage(lobbyId: SnowflakeInput, content: string, metadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      const m = await this.api(`/lobbies/${id}/messages`, { method: 'POST', body: { content, ...(metadata ? { metadata } : {}) } });
      this.cache.putMessage(this.toMessage(m, id));
      return m.id as Snowflake;
    });
  }

  /** Lobby history, newest first: at most 200 messages of the last 72 hours, for lobbies the user is in. */
  getLobbyMessagesWithLimit(lobbyId: SnowflakeInput, limit: number): Promise<MessageHandle[]> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      const n = Math.max(1, Math.min(200, Math.floor(limit)));
      const list = await this.api<any[]>(`/lobbies/${id}/messages`, { query: { limit: n } });
      const out = list.map((m) => this.toMessage(m, id));
      for (const m of [...out].reverse()) this.cache.putMessage(m);
      return out.map((m) => this.messageView(m.id));
    });
  }

  getMessageHandle(messageId: SnowflakeInput): MessageHandle | undefined {
    const id = snowflake(messageId);
    return this.cache.messages.has(id) ? this.messageView(id) : undefined;
  }

  getChannelHandle(channelId: SnowflakeInput): ChannelHandle | undefined {
    const id = snowflake(channelId);
    const other = this.cache.dmChannels.get(id);
    if (other) return { id, name: this.userView(other).displayName(), type: DM, recipients: [other] };
    const lobby = this.cache.lobbies.get(id);
    if (lobby) return { id, name: '', type: 17, recipients: (lobby.members ?? []).map((m: any) => m.id) };
    return undefined;
  }

  setMessageCreatedCallback(cb: ((messageId: Snowflake) => void) | null): void {
    this.events.setSlot('messageCreated', cb && ((e) => cb(e.messageId)));
  }
  setMessageUpdatedCallback(cb: ((messageId: Snowflake) => void) | null): void {
    this.events.setSlot('messageUpdated', cb && ((e) => cb(e.messageId)));
  }
  setMessageDeletedCallback(cb: ((messageId: Snowflake, channelId: Snowflake) => void) | null): void {
    this.events.setSlot('messageDeleted', cb && ((e) => cb(e.messageId, e.channelId)));
  }

  /** @internal */ handleMessage(d: any, kind: 'create' | 'update'): void {
    if (d.guild_id) return;
    // An activity invite reaches the invite callback only; the real SDK never makes it a message.
    if (d.activity) {
      if (kind === 'create' && d.author?.id !== this.cache.me?.id) this.events.emit('activityInviteCreated', inviteFromMessage(d));
      return;
    }
    const m = this.toMessage(d);
    this.cache.putMessage(m);
    this.events.emit(kind === 'create' ? 'messageCreated' : 'messageUpdated', { messageId: m.id });
  }

  /** @internal */ handleMessageDelete(d: any): void {
    if (d.guild_id) return;
    this.cache.deleteMessage(d.id);
    this.events.emit('messageDeleted', { messageId: d.id, channelId: d.channel_id });
  }

  /** @internal */ handleLobbyMessage(d: any, kind: 'create' | 'update'): void {
    const m = this.toMessage(d, d.lobby_id);
    this.cache.putMessage(m);
    this.events.emit(kind === 'create' ? 'messageCreated' : 'messageUpdated', { messageId: m.id });
  }

  /** @internal */ handleChannelCreate(d: any): void {
    const other = (d.recipients ?? []).find((u: WireUser) => u.id !== this.cache.me?.id);
    if (d.type === DM && other) {
      this.cache.dmChannels.set(d.id, other.id);
      this.cache.putUser(other);
    }
  }
}
