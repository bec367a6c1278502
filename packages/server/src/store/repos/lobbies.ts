import { Repo } from './repo.js';
import '../tables/lobbies.js';
import type { LobbiesTable, LobbyMessagesTable } from '../tables/lobbies.js';
import { parseJson } from '../json.js';
import { id, idOrNull } from '../schema.js';
import { atomically } from './tx.js';

export type StringMap = Record<string, string>;

export interface Lobby {
  id: string;
  application_id: string;
  secret: string | null;
  secret_expires_at: number | null;
  /** Made by PUT /lobbies: SDK clients may join (by secret) and leave it. */
  by_secret: boolean;
  metadata: StringMap | null;
  flags: number;
  idle_timeout_seconds: number;
  idle_deadline: number;
  override_event_webhooks_url: string | null;
  linked_channel_id: string | null;
  linked_guild_id: string | null;
  linked_by: string | null;
  created_at: number;
}

export interface LobbyMember {
  lobby_id: string;
  user_id: string;
  metadata: StringMap | null;
  flags: number;
  additional_name: string | null;
  joined_at: number;
}

export interface LobbyMessage {
  id: string;
  lobby_id: string;
  channel_id: string;
  author_id: string;
  application_id: string | null;
  type: number;
  content: string;
  metadata: StringMap | null;
  moderation_metadata: StringMap | null;
  flags: number;
  edited_at: number | null;
  created_at: number;
}

const mapOrNull = (v: unknown): StringMap | null => (v == null ? null : parseJson<StringMap | null>(v, null));

export const toLobby = (r: any): Lobby => ({
  id: id(r.id),
  application_id: id(r.application_id),
  secret: r.secret ?? null,
  secret_expires_at: r.secret_expires_at == null ? null : Number(r.secret_expires_at),
  by_secret: Number(r.by_secret) === 1,
  metadata: mapOrNull(r.metadata),
  flags: Number(r.flags),
  idle_timeout_seconds: Number(r.idle_timeout_seconds),
  idle_deadline: Number(r.idle_deadline),
  override_event_webhooks_url: r.override_event_webhooks_url ?? null,
  linked_channel_id: idOrNull(r.linked_channel_id),
  linked_guild_id: idOrNull(r.linked_guild_id),
  linked_by: idOrNull(r.linked_by),
  created_at: Number(r.created_at),
});

export const toLobbyMember = (r: any): LobbyMember => ({
  lobby_id: id(r.lobby_id),
  user_id: id(r.user_id),
  metadata: mapOrNull(r.metadata),
  flags: Number(r.flags),
  additional_name: r.additional_name ?? null,
  joined_at: Number(r.joined_at),
});

export const toLobbyMessage = (r: any): LobbyMessage => ({
  id: id(r.id),
  lobby_id: id(r.lobby_id),
  channel_id: id(r.channel_id),
  author_id: id(r.author_id),
  application_id: idOrNull(r.application_id),
  type: Number(r.type),
  content: r.content ?? '',
  metadata: mapOrNull(r.metadata),
  moderation_metadata: mapOrNull(r.moderation_metadata),
  flags: Number(r.flags),
  edited_at: r.edited_at == null ? null : Number(r.edited_at),
  created_at: Number(r.created_at),
});

const jsonOrNull = (m: StringMap | null | undefined): string | null => (m == null ? null : JSON.stringify(m));

/** Lobbies, their members, messages and linked channels. */
export class LobbiesRepo extends Repo {
  /** One lobby, or null. */
  async byId(lobbyId: string): Promise<Lobby | null> {
    const row = await this.db.selectFrom('lobbies').selectAll().where('id', '=', lobbyId).executeTakeFirst();
    return row ? toLobby(row) : null;
  }

  /** One lobby of an application, or null. */
  async ofApp(applicationId: string, lobbyId: string): Promise<Lobby | null> {
    const row = await this.db.selectFrom('lobbies').selectAll().where('id', '=', lobbyId).where('application_id', '=', applicationId).executeTakeFirst();
    return row ? toLobby(row) : null;
  }

  /** The lobby of an application behind a create-or-join secret (expired or not), or null. */
  async bySecret(applicationId: string, secret: string): Promise<Lobby | null> {
    const row = await this.db.selectFrom('lobbies').selectAll().where('application_id', '=', applicationId).where('secret', '=', secret).executeTakeFirst();
    return row ? toLobby(row) : null;
  }

  /** Lets go of a lobby's secret (the lobby stays, unreachable by it). */
  async releaseSecret(lobbyId: string): Promise<void> {
    await this.db.updateTable('lobbies').set({ secret: null, secret_expires_at: null }).where('id', '=', lobbyId).execute();
  }

  /** Inserts a lobby row (throws on a duplicate application secret: a concurrent create-or-join won). */
  async insert(row: LobbiesTable): Promise<void> {
    await this.db.insertInto('lobbies').values(row).execute();
  }

  /** Changes a lobby's metadata (JSON text), idle timeout, flags or webhook override URL. */
  async patch(
    lobbyId: string,
    patch: { metadata?: string | null; idle_timeout_seconds?: number; flags?: number; override_event_webhooks_url?: string | null },
  ): Promise<void> {
    await this.db.updateTable('lobbies').set(patch).where('id', '=', lobbyId).execute();
  }

  /** Sets when an idle lobby goes away. */
  async setIdleDeadline(lobbyId: string, deadline: number): Promise<void> {
    await this.db.updateTable('lobbies').set({ idle_deadline: deadline }).where('id', '=', lobbyId).execute();
  }

  /** Lobbies whose idle deadline passed by `now`, earliest first, at most `limit`. */
  async idleDue(now: number, limit: number): Promise<Lobby[]> {
    return (await this.db.selectFrom('lobbies').selectAll().where('idle_deadline', '<=', now).orderBy('idle_deadline').limit(limit).execute()).map(toLobby);
  }

  /** Deletes a lobby with its members and messages, in one transaction. */
  async destroy(lobbyId: string): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('lobby_messages').where('lobby_id', '=', lobbyId).execute();
      await trx.deleteFrom('lobby_members').where('lobby_id', '=', lobbyId).execute();
      await trx.deleteFrom('lobbies').where('id', '=', lobbyId).execute();
    });
  }

  /** A lobby's members, by join time then user id. */
  async members(lobbyId: string): Promise<LobbyMember[]> {
    const rows = await this.db.selectFrom('lobby_members').selectAll().where('lobby_id', '=', lobbyId).orderBy('joined_at').orderBy('user_id').execute();
    return rows.map(toLobbyMember);
  }

  /** Writes added or changed members and removes others, in one transaction. */
  async saveMembers(lobbyId: string, upserts: LobbyMember[], removedUserIds: string[]): Promise<void> {
    await atomically(this.db, async (trx) => {
      for (const m of upserts) {
        const row = { metadata: jsonOrNull(m.metadata), flags: m.flags, additional_name: m.additional_name };
        await trx
          .insertInto('lobby_members')
          .values({ lobby_id: m.lobby_id, user_id: m.user_id, joined_at: m.joined_at, ...row })
          .onConflict((oc) => oc.columns(['lobby_id', 'user_id']).doUpdateSet(row))
          .execute();
      }
      if (removedUserIds.length) {
        await trx.deleteFrom('lobby_members').where('lobby_id', '=', lobbyId).where('user_id', 'in', removedUserIds).execute();
      }
    });
  }

  /** Removes member `from` of a lobby and, when given, inserts `replacement` (accounts merged). */
  async replaceMember(lobbyId: string, from: string, replacement: LobbyMember | null): Promise<void> {
    await this.db.deleteFrom('lobby_members').where('lobby_id', '=', lobbyId).where('user_id', '=', from).execute();
    if (replacement) {
      await this.db
        .insertInto('lobby_members')
        .values({
          lobby_id: lobbyId,
          user_id: replacement.user_id,
          metadata: jsonOrNull(replacement.metadata),
          flags: replacement.flags,
          additional_name: replacement.additional_name,
          joined_at: replacement.joined_at,
        })
        .execute();
    }
  }

  /** The lobbies of an application a user is a member of. */
  async ofMember(userId: string, applicationId: string): Promise<Lobby[]> {
    const rows = await this.db
      .selectFrom('lobbies')
      .innerJoin('lobby_members', 'lobby_members.lobby_id', 'lobbies.id')
      .selectAll('lobbies')
      .where('lobby_members.user_id', '=', userId)
      .where('lobbies.application_id', '=', applicationId)
      .execute();
    return rows.map(toLobby);
  }

  /** A user's lobby memberships (of one app, or of all) with each lobby's app. */
  async membershipsOf(userId: string, applicationId: string | null): Promise<{ lobby_id: string; application_id: string }[]> {
    let q = this.db
      .selectFrom('lobby_members')
      .innerJoin('lobbies', 'lobbies.id', 'lobby_members.lobby_id')
      .select(['lobby_members.lobby_id', 'lobbies.application_id'])
      .where('lobby_members.user_id', '=', userId);
    if (applicationId) q = q.where('lobbies.application_id', '=', applicationId);
    return (await q.execute()).map((r) => ({ lobby_id: id(r.lobby_id), application_id: id(r.application_id) }));
  }

  /** Links a lobby to a guild channel (throws when another lobby holds it: unique index), or unlinks it (nulls). */
  async setLink(lobbyId: string, channelId: string | null, guildId: string | null, linkedBy: string | null): Promise<void> {
    await this.db
      .updateTable('lobbies')
      .set({ linked_channel_id: channelId, linked_guild_id: guildId, linked_by: linkedBy })
      .where('id', '=', lobbyId)
      .execute();
  }

  /** The lobby linked to a channel, or null. */
  async linkedTo(channelId: string): Promise<Lobby | null> {
    const row = await this.db.selectFrom('lobbies').selectAll().where('linked_channel_id', '=', channelId).executeTakeFirst();
    return row ? toLobby(row) : null;
  }

  /** The lobbies linked to channels of a guild: lobby id, app and channel. */
  async linkedInGuild(guildId: string): Promise<{ id: string; application_id: string; linked_channel_id: string | null }[]> {
    const rows = await this.db.selectFrom('lobbies').select(['id', 'application_id', 'linked_channel_id']).where('linked_guild_id', '=', guildId).execute();
    return rows.map((l) => ({ id: id(l.id), application_id: id(l.application_id), linked_channel_id: idOrNull(l.linked_channel_id) }));
  }

  /** Every link: lobby id and its channel. */
  async allLinks(): Promise<{ id: string; channel_id: string }[]> {
    const rows = await this.db.selectFrom('lobbies').select(['id', 'linked_channel_id']).where('linked_channel_id', 'is not', null).execute();
    return rows.filter((r) => r.linked_channel_id != null).map((r) => ({ id: id(r.id), channel_id: id(r.linked_channel_id!) }));
  }

  /** Stores a lobby message. */
  async insertMessage(row: LobbyMessagesTable): Promise<void> {
    await this.db.insertInto('lobby_messages').values(row).execute();
  }

  /** Stores a message bridged from a linked channel unless it is there already; true when stored. */
  async insertBridgedMessage(row: LobbyMessagesTable): Promise<boolean> {
    const res = await this.db
      .insertInto('lobby_messages')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** A lobby's messages, newest first, created at or after `since` when given, at most `limit`. */
  async messagesPage(lobbyId: string, since: number | null, limit: number): Promise<LobbyMessage[]> {
    let q = this.db.selectFrom('lobby_messages').selectAll().where('lobby_id', '=', lobbyId);
    if (since !== null) q = q.where('created_at', '>=', since);
    return (await q.orderBy('id', 'desc').limit(limit).execute()).map(toLobbyMessage);
  }

  /** One lobby message, or null. */
  async message(messageId: string): Promise<LobbyMessage | null> {
    const row = await this.db.selectFrom('lobby_messages').selectAll().where('id', '=', messageId).executeTakeFirst();
    return row ? toLobbyMessage(row) : null;
  }

  /** Sets the app's moderation metadata of a lobby message; false when the lobby has no such message. */
  async setModerationMetadata(lobbyId: string, messageId: string, metadata: StringMap): Promise<boolean> {
    const res = await this.db
      .updateTable('lobby_messages')
      .set({ moderation_metadata: JSON.stringify(metadata) })
      .where('id', '=', messageId)
      .where('lobby_id', '=', lobbyId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Rewrites a lobby message's content (an edit bridged from the channel). */
  async editMessage(messageId: string, content: string, editedAt: number): Promise<void> {
    await this.db.updateTable('lobby_messages').set({ content, edited_at: editedAt }).where('id', '=', messageId).execute();
  }

  /** Deletes a lobby message; false when it was gone already. */
  async deleteMessage(messageId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('lobby_messages').where('id', '=', messageId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** A guild channel message the bridge copies into a lobby (the fields it needs), or null. */
  async bridgeSource(messageId: string): Promise<{
    id: string;
    channel_id: string;
    author_id: string;
    type: number;
    content: string;
    created_at: number;
    edited_at: number | null;
    extra: Record<string, unknown>;
  } | null> {
    const m = await this.db.selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirst();
    if (!m) return null;
    return {
      id: String(m.id),
      channel_id: String(m.channel_id),
      author_id: String(m.author_id),
      type: Number(m.type),
      content: String(m.content ?? ''),
      created_at: Number(m.created_at),
      edited_at: m.edited_at == null ? null : Number(m.edited_at),
      extra: JSON.parse(String(m.extra ?? '{}')),
    };
  }
}
