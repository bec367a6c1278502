/** Game DMs and lobby messages: send, edit, delete, history, and their Gateway events. */
import type { MessageRecord, WireUser } from '../cache.js';
import { LobbyHandle, MessageHandle, channelHandleOf, type ChannelHandle, type MessageViews } from '../handles.js';
import { DisclosureTypes } from '../enums.js';
import { invalid } from '../result.js';
import { snowflake, snowflakeTime, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { DM } from './core.js';
import { PresenceClient, inviteFromMessage } from './presence.js';

const LOCAL_ID_BITS = 0x3ff000n;

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

  private readonly views: MessageViews = {
    user: (id) => this.userView(id),
    channel: (id) => channelHandleOf(this.cache, this.userView, id),
    lobby: (id) => (this.cache.lobbies.has(id) ? new LobbyHandle(this.cache, id, this.userView) : undefined),
  };
  protected messageView = (id: Snowflake) => new MessageHandle(this.cache, id, this.views);
  /** Channels where the player was already told that their messages show on the platform. */
  private readonly disclosed = new Set<Snowflake>();

  /**
   * The first message a platform account sends from the game where it is copied to the platform (any DM, a linked
   * lobby) is followed by a local explanatory message, DisclosureType MessageDataVisibleOnDiscord, once per channel
   * and session, for the game to render (or not) in its own words.
   */
  private discloseOnce(sent: MessageRecord): void {
    const key = sent.lobbyId ?? sent.channelId;
    if (this.cache.me?.is_provisional || this.disclosed.has(key) || !this.messageUrl(sent)) return;
    this.disclosed.add(key);
    // The send's time, with worker and process bits the server does not use: a local id no real message has.
    const id = (((BigInt(sent.id) >> 22n) << 22n) | LOCAL_ID_BITS | BigInt(this.disclosed.size & 0xfff)).toString();
    this.cache.putMessage({
      ...sent,
      id,
      recipientId: null, // not part of the DM history
      content: 'Messages you send here can also be seen on Accord, where the conversation is kept.',
      metadata: {},
      applicationId: null,
      editedTimestamp: 0,
      raw: { id, disclosure_type: DisclosureTypes.MessageDataVisibleOnDiscord },
    });
    this.events.emit('messageCreated', { messageId: id });
  }

  /**
   * Where the platform's client shows a message; null when it is not kept there. Accord keeps every DM (a merge
   * carries a provisional account's DMs to the platform account); lobby chat only when the lobby is linked to a channel.
   */
  private messageUrl(m: MessageRecord): string | null {
    if (m.raw?.disclosure_type) return null;
    if (m.lobbyId) {
      const linked = this.cache.lobbies.get(m.lobbyId)?.linked_channel;
      return linked && linked.id === m.channelId ? `${this.webBase}/channels/${linked.guild_id}/${m.channelId}/${m.id}` : null;
    }
    return m.recipientId ? `${this.webBase}/channels/@me/${m.channelId}/${m.id}` : null;
  }

  /** Whether the platform's client can show the message: a DM, or a message of a linked lobby. */
  canOpenMessageInDiscord(messageId: SnowflakeInput): boolean {
    const m = this.cache.messages.get(snowflake(messageId));
    return !!m && !!this.messageUrl(m);
  }

  /**
   * Opens the message in the platform's client (the Accord web client, through `openUrl`). A provisional account has
   * no platform session to see it in: `provisionalUserMergeRequired` runs first, and the open waits for
   * ProvisionalUserMergeCompleted.
   */
  openMessageInDiscord(messageId: SnowflakeInput, provisionalUserMergeRequired?: () => void): Promise<void> {
    return this.op(async () => {
      const m = this.cache.messages.get(snowflake(messageId));
      const url = m && this.messageUrl(m);
      if (!url) throw invalid('this message is not kept on the platform (lobby chat of a lobby without a linked channel)');
      await this.requireFullAccount(provisionalUserMergeRequired);
      await this.openInPlatform(url);
    });
  }

  /** A DM to a user from the game (≤ 2000 characters, optional metadata); resolves with the message id. */
  sendUserMessage(recipientId: SnowflakeInput, content: string, metadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      if (!content || content.length > 2000) throw invalid('a message has 1 to 2000 characters');
      const m = await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages`, { method: 'POST', body: { content, ...(metadata ? { metadata } : {}) } });
      const record = this.toMessage(m);
      this.cache.putMessage(record);
      this.discloseOnce(record);
      return m.id as Snowflake;
    });
  }
  sendUserMessageWithMetadata(recipientId: SnowflakeInput, content: string, metadata: Record<string, string>): Promise<Snowflake> {
    return this.sendUserMessage(recipientId, content, metadata);
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
      const record = this.toMessage(m, id);
      this.cache.putMessage(record);
      this.discloseOnce(record);
      return m.id as Snowflake;
    });
  }
  sendLobbyMessageWithMetadata(lobbyId: SnowflakeInput, content: string, metadata: Record<string, string>): Promise<Snowflake> {
    return this.sendLobbyMessage(lobbyId, content, metadata);
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
    return channelHandleOf(this.cache, this.userView, snowflake(channelId));
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
      if (kind === 'create' && d.author?.id !== this.cache.me?.id)
        this.inviteReceived(inviteFromMessage(d), d.timestamp ? Date.parse(d.timestamp) : snowflakeTime(d.id));
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
