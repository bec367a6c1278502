import type { Snowflake } from './snowflake.js';

/** What the client knows, kept current by the Gateway: the views (handles.ts) read it. */
export interface WireUser {
  id: Snowflake;
  username: string;
  global_name: string | null;
  avatar: string | null;
  bot?: boolean;
  [k: string]: unknown;
}

export interface PresenceRecord {
  status: string;
  activities: any[];
}

export interface RelationshipRecord {
  discordType: number;
  gameType: number;
  nickname: string | null;
  since: string | null;
}

export interface MessageRecord {
  id: Snowflake;
  channelId: Snowflake;
  lobbyId: Snowflake | null;
  authorId: Snowflake;
  recipientId: Snowflake | null;
  content: string;
  metadata: Record<string, string>;
  applicationId: Snowflake | null;
  additionalName: string | null;
  editedTimestamp: number;
  sentTimestamp: number;
  raw: any;
}

/** Messages kept per channel: the 25 newest (the native SDK's figure). */
export const MESSAGES_PER_CHANNEL = 25;

export class Cache {
  me: WireUser | null = null;
  readonly users = new Map<Snowflake, WireUser>();
  readonly presences = new Map<Snowflake, PresenceRecord>();
  readonly relationships = new Map<Snowflake, RelationshipRecord>();
  readonly lobbies = new Map<Snowflake, any>();
  readonly messages = new Map<Snowflake, MessageRecord>();
  private readonly byChannel = new Map<Snowflake, Snowflake[]>();
  /** DM channel id → the other user. */
  readonly dmChannels = new Map<Snowflake, Snowflake>();
  /** DM history already fetched, per other user, newest first (GetUserMessagesWithLimit's local cache). */
  readonly dmHistory = new Map<Snowflake, Snowflake[]>();
  /** Application profiles of users (GetUserApplicationProfiles). */
  readonly profiles = new Map<Snowflake, any[]>();

  putUser(u: WireUser | undefined | null): void {
    if (u?.id) this.users.set(u.id, { ...this.users.get(u.id), ...u });
  }

  relationship(id: Snowflake): RelationshipRecord {
    let r = this.relationships.get(id);
    if (!r) this.relationships.set(id, (r = { discordType: 0, gameType: 0, nickname: null, since: null }));
    return r;
  }

  dropRelationshipIfEmpty(id: Snowflake): void {
    const r = this.relationships.get(id);
    if (r && !r.discordType && !r.gameType) this.relationships.delete(id);
  }

  putMessage(m: MessageRecord): void {
    this.messages.set(m.id, m);
    const list = this.byChannel.get(m.channelId) ?? [];
    if (!list.includes(m.id)) {
      list.push(m.id);
      list.sort((a, b) => (BigInt(a) < BigInt(b) ? 1 : -1));
      for (const gone of list.splice(MESSAGES_PER_CHANNEL)) if (!this.inHistory(gone)) this.messages.delete(gone);
    }
    this.byChannel.set(m.channelId, list);
    if (m.recipientId) {
      const other = m.authorId === this.me?.id ? m.recipientId : m.authorId;
      const h = this.dmHistory.get(other);
      if (h && !h.includes(m.id)) h.unshift(m.id);
    }
  }

  deleteMessage(id: Snowflake): MessageRecord | undefined {
    const m = this.messages.get(id);
    this.messages.delete(id);
    if (m) {
      this.byChannel.set(
        m.channelId,
        (this.byChannel.get(m.channelId) ?? []).filter((x) => x !== id),
      );
      for (const [k, h] of this.dmHistory)
        this.dmHistory.set(
          k,
          h.filter((x) => x !== id),
        );
    }
    return m;
  }

  private inHistory(id: Snowflake): boolean {
    for (const h of this.dmHistory.values()) if (h.includes(id)) return true;
    return false;
  }
}
