import { Repo } from './repo.js';
import type { Overwrite } from '@accord/protocol';
import type { ChannelsTable } from '../schema.js';
import { atomically } from './tx.js';
import { bool, num } from '../json.js';
import { toChannel } from './mappers.js';
import type { ChannelRecord } from '../records.js';
import { parseJson } from '../json.js';
import { compiledFor, fixedSql, readRows } from '../fixed-sql.js';
import { NEWEST_MESSAGE_ID_SQL, selectChannels } from './last-message.js';

/** A live stage (stage_instances row). */
export interface StageInstanceRecord {
  id: string;
  guild_id: string;
  channel_id: string;
  topic: string;
  privacy_level: number;
  discoverable_disabled: boolean;
  guild_scheduled_event_id: string | null;
}
const toStageInstance = (r: any): StageInstanceRecord => ({
  id: String(r.id),
  guild_id: String(r.guild_id),
  channel_id: String(r.channel_id),
  topic: r.topic,
  privacy_level: num(r.privacy_level),
  discoverable_disabled: bool(r.discoverable_disabled),
  guild_scheduled_event_id: r.guild_scheduled_event_id == null ? null : String(r.guild_scheduled_event_id),
});

const CHANNEL_BY_ID = fixedSql(`select *, ${NEWEST_MESSAGE_ID_SQL} from "channels" where "id" = ?`);

/** Channels, overwrites, DMs and group DMs (recipients), pins, stage instances, followers. */
export class ChannelsRepo extends Repo {
  /** One channel (of any kind, threads included), or null. */
  async byId(id: string): Promise<ChannelRecord | null> {
    const row = await selectChannels(this.db).where('id', '=', id).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** Which of `ids` are channels (threads included) of a guild. */
  async idsInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute();
    return rows.map((r) => String(r.id));
  }

  /** The DMs and group DMs a user is a recipient of, in one round trip (READY, presence audiences). */
  async dmsOf(userId: string): Promise<ChannelRecord[]> {
    const rows = await selectChannels(this.db).where('type', 'in', [1, 3]).where('dm_key', 'like', `%${userId}%`).execute();
    return rows.map(toChannel).filter((c) => c.recipients?.includes(userId));
  }

  /** The 1:1 DM with this key (the two user ids, sorted, joined by ':'), or null. */
  async dmByKey(key: string): Promise<ChannelRecord | null> {
    const row = await selectChannels(this.db).where('dm_key', '=', key).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** Inserts a DM or group DM row (throws on a duplicate dm_key, which callers treat as a lost race). */
  async insertDm(row: ChannelsTable): Promise<void> {
    await this.db.insertInto('channels').values(row).execute();
  }

  /** How many group DMs (type 3) this user or bot owns. */
  async countOwnedGroupDms(ownerId: string): Promise<number> {
    const r = await this.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 3)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Rewrites a group DM's recipients (and its dm_key), owner and extra. */
  async saveGroupDm(id: string, recipients: string[], dmKey: string, ownerId: string | null, extra: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('channels')
      .set({ recipients: JSON.stringify(recipients), dm_key: dmKey, owner_id: ownerId, extra: JSON.stringify(extra) })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces a channel's permission overwrites. */
  async setOverwrites(id: string, overwrites: Overwrite[]): Promise<void> {
    await this.db
      .updateTable('channels')
      .set({ permission_overwrites: JSON.stringify(overwrites) })
      .where('id', '=', id)
      .execute();
  }

  /** The ids of a category's children (threads excluded). */
  async childIdsOf(parentId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('channels').select('id').where('parent_id', '=', parentId).where('type', 'not in', [10, 11, 12]).execute();
    return rows.map((r) => String(r.id));
  }

  /** A category's children (threads excluded). */
  async childrenOf(parentId: string): Promise<ChannelRecord[]> {
    return (await selectChannels(this.db).where('parent_id', '=', parentId).where('type', 'not in', [10, 11, 12]).execute()).map(toChannel);
  }

  /** A guild's channels without threads, by position then id. */
  async guildChannelsSorted(guildId: string): Promise<ChannelRecord[]> {
    const rows = await selectChannels(this.db)
      .where('guild_id', '=', guildId)
      .where('type', 'not in', [10, 11, 12])
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map(toChannel);
  }

  /** The positions of a guild's channels (threads excluded): their count and the next free position. */
  async guildPositions(guildId: string): Promise<number[]> {
    const rows = await this.db.selectFrom('channels').select(['position']).where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).execute();
    return rows.map((r) => Number(r.position));
  }

  /** Inserts a new guild channel row. */
  async insertGuildChannel(row: ChannelsTable): Promise<void> {
    await this.db.insertInto('channels').values(row).execute();
  }

  /** Applies a partial channel update (column values already encoded: JSON as text, booleans as 0/1). */
  async patch(id: string, values: Partial<ChannelsTable> | Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('channels')
      .set(values as Partial<ChannelsTable>)
      .where('id', '=', id)
      .execute();
  }

  /** Moves channels (position, parent, overwrites) in one transaction. */
  async saveLayout(changes: { id: string; position: number; parent_id: string | null; permission_overwrites: Overwrite[] }[]): Promise<void> {
    await atomically(this.db, async (trx) => {
      for (const c of changes) {
        await trx
          .updateTable('channels')
          .set({ position: c.position, parent_id: c.parent_id, permission_overwrites: JSON.stringify(c.permission_overwrites) })
          .where('id', '=', c.id)
          .execute();
      }
    });
  }

  /**
   * Deletes a guild channel in one transaction: follower links both ways (and the follower webhooks it fed), its
   * threads, messages, reactions, thread members, files, invites and webhooks; its children move to the top level and
   * the guild fields in `guildRefs` that pointed at it are cleared. Returns the channels elsewhere that lost a follower
   * webhook.
   */
  async deleteGuildChannel(id: string, guildId: string, guildRefs: string[]): Promise<{ guild_id: string; channel_id: string }[]> {
    return atomically(this.db, async (trx) => {
      const lost = await new ChannelsRepo(trx, this.store).dropFollowLinks({ channelIds: [id] });
      const threadIds = (await trx.selectFrom('channels').select('id').where('parent_id', '=', id).where('type', 'in', [10, 11, 12]).execute()).map((r) =>
        String(r.id),
      );
      const gone = [...threadIds, id];
      await trx.deleteFrom('reactions').where('channel_id', 'in', gone).execute();
      await trx.deleteFrom('messages').where('channel_id', 'in', gone).execute();
      await trx.deleteFrom('thread_members').where('channel_id', 'in', gone).execute();
      await trx.deleteFrom('files').where('channel_id', 'in', gone).execute();
      await trx.deleteFrom('invites').where('channel_id', '=', id).execute();
      await trx.deleteFrom('webhooks').where('channel_id', '=', id).execute();
      await trx.deleteFrom('channels').where('id', 'in', gone).execute();
      await trx.updateTable('channels').set({ parent_id: null }).where('parent_id', '=', id).execute();
      if (guildRefs.length)
        await trx
          .updateTable('guilds')
          .set(Object.fromEntries(guildRefs.map((k) => [k, null])))
          .where('id', '=', guildId)
          .execute();
      return lost;
    });
  }

  /** A guild's stage instances, by id. */
  async stagesOfGuild(guildId: string): Promise<StageInstanceRecord[]> {
    return (await this.db.selectFrom('stage_instances').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()).map(toStageInstance);
  }

  /** The live stage instance of a channel, or null. */
  async stageOfChannel(channelId: string): Promise<StageInstanceRecord | null> {
    const row = await this.db.selectFrom('stage_instances').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
    return row ? toStageInstance(row) : null;
  }

  /** Inserts a stage instance (throws when the channel already has one: the unique channel index). */
  async insertStage(row: StageInstanceRecord & { created_at: number }): Promise<void> {
    await this.db
      .insertInto('stage_instances')
      .values({ ...row, discoverable_disabled: row.discoverable_disabled ? 1 : 0 })
      .execute();
  }

  /** Changes a stage instance's topic or privacy level. */
  async updateStage(id: string, set: { topic?: string; privacy_level?: number }): Promise<void> {
    await this.db.updateTable('stage_instances').set(set).where('id', '=', id).execute();
  }

  /** Ends a stage instance; false when it was already gone. */
  async deleteStage(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('stage_instances').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Moves a DM's messages into another DM and deletes the first (accounts merged). */
  async mergeDmInto(fromId: string, intoId: string): Promise<void> {
    await this.db.updateTable('messages').set({ channel_id: intoId }).where('channel_id', '=', fromId).execute();
    await this.db.deleteFrom('channels').where('id', '=', fromId).execute();
  }

  /** Rewrites a 1:1 DM's recipients and its dm_key. */
  async setDmRecipients(id: string, recipients: string[], dmKey: string): Promise<void> {
    await this.db
      .updateTable('channels')
      .set({ recipients: JSON.stringify(recipients), dm_key: dmKey })
      .where('id', '=', id)
      .execute();
  }

  /** Inserts the channels of a new guild (several rows at once). */
  async insertGuildChannels(rows: ChannelsTable[]): Promise<void> {
    await this.db.insertInto('channels').values(rows).execute();
  }

  /**
   * Removes the follow links into and out of some channels (or of a whole guild): the `channel_followers` rows, and the
   * follower webhooks (in any guild) that those source channels fed. Returns the channels whose webhooks went.
   */
  async dropFollowLinks(where: { guildId: string } | { channelIds: string[] }): Promise<{ guild_id: string; channel_id: string }[]> {
    const db = this.db;
    const channelIds = 'channelIds' in where ? where.channelIds : null;
    if (channelIds && !channelIds.length) return [];
    const fed = await db
      .selectFrom('channel_followers')
      .select(['webhook_id', 'guild_id', 'channel_id'])
      .where((eb) => (channelIds ? eb('source_channel_id', 'in', channelIds) : eb('source_guild_id', '=', (where as { guildId: string }).guildId)))
      .execute();
    if (fed.length)
      await db
        .deleteFrom('webhooks')
        .where(
          'id',
          'in',
          fed.map((r) => String(r.webhook_id)),
        )
        .execute();
    await db
      .deleteFrom('channel_followers')
      .where((eb) =>
        channelIds
          ? eb.or([eb('source_channel_id', 'in', channelIds), eb('channel_id', 'in', channelIds)])
          : eb.or([eb('source_guild_id', '=', (where as { guildId: string }).guildId), eb('guild_id', '=', (where as { guildId: string }).guildId)]),
      )
      .execute();
    const seen = new Map<string, { guild_id: string; channel_id: string }>();
    for (const r of fed) seen.set(String(r.channel_id), { guild_id: String(r.guild_id), channel_id: String(r.channel_id) });
    return [...seen.values()];
  }

  /** Deletes every channel row of a guild (threads included). */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('channels').where('guild_id', '=', guildId).execute();
  }

  /** Deletes every stage instance of a guild. */
  async deleteStagesInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('stage_instances').where('guild_id', '=', guildId).execute();
  }

  /** Ends the live stage instance of a channel, if any, and returns its row as it was (null when there was none). */
  async endStageIn(channelId: string): Promise<{
    id: string;
    guild_id: string;
    channel_id: string;
    topic: string;
    privacy_level: number;
    discoverable_disabled: number;
    guild_scheduled_event_id: string | null;
  } | null> {
    const stage = await this.db.selectFrom('stage_instances').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
    if (!stage) return null;
    await this.db.deleteFrom('stage_instances').where('id', '=', String(stage.id)).execute();
    return stage as any;
  }

  /** The id and position of every channel of a guild. */
  async positionsIn(guildId: string): Promise<{ id: string; position: number }[]> {
    const rows = await this.db.selectFrom('channels').select(['id', 'position']).where('guild_id', '=', guildId).execute();
    return rows.map((r) => ({ id: String(r.id), position: num(r.position) }));
  }

  /** Replaces the permission overwrites of a channel. */
  async writeOverwrites(id: string, overwrites: Overwrite[] | { id: unknown; type: number; allow: string; deny: string }[]): Promise<void> {
    await this.db
      .updateTable('channels')
      .set({ permission_overwrites: JSON.stringify(overwrites) })
      .where('id', '=', id)
      .execute();
  }

  /** The ids among `ids` that are channels of this guild other than threads. */
  async guildChannelIdsAmong(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('channels')
      .select('id')
      .where('guild_id', '=', guildId)
      .where('type', 'not in', [10, 11, 12])
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => String(r.id));
  }

  /** A guild's voice and stage channels by position: id, name, position and overwrites (the widget). */
  async voiceChannelsOf(guildId: string): Promise<{ id: string; name: string | null; position: number; permission_overwrites: Overwrite[] }[]> {
    const rows = await this.db
      .selectFrom('channels')
      .select(['id', 'name', 'position', 'permission_overwrites'])
      .where('guild_id', '=', guildId)
      .where('type', 'in', [2, 13])
      .orderBy('position')
      .execute();
    return rows.map((c) => ({
      id: String(c.id),
      name: c.name ?? null,
      position: num(c.position),
      permission_overwrites: parseJson<Overwrite[]>(c.permission_overwrites ?? '[]', []),
    }));
  }

  /** A channel of this guild by id (threads included), or null. */
  async inGuildById(guildId: string, id: string): Promise<ChannelRecord | null> {
    const row = await selectChannels(this.db).where('id', '=', id).where('guild_id', '=', guildId).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** The channels of this guild among `ids` (threads included). */
  async inGuildByIds(guildId: string, ids: string[]): Promise<ChannelRecord[]> {
    if (!ids.length) return [];
    return (await selectChannels(this.db).where('id', 'in', ids).where('guild_id', '=', guildId).execute()).map(toChannel);
  }

  /** The ids among `ids` that are channels of this guild (threads included). */
  async idsAmongInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute()).map((r) => String(r.id));
  }

  /** The id of a guild's first text or announcement channel by position, or null. */
  async firstTextChannelId(guildId: string): Promise<string | null> {
    const first = await this.db
      .selectFrom('channels')
      .select('id')
      .where('guild_id', '=', guildId)
      .where('type', 'in', [0, 5])
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    return first ? String(first.id) : null;
  }

  /** The ids of a guild's voice and stage channels. */
  async voiceChannelIdsOf(guildId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'in', [2, 13]).execute();
    return rows.map((r) => String(r.id));
  }

  /** Every channel of a guild, threads included, in no particular order (GUILD_CREATE). */
  async allOfGuild(guildId: string): Promise<ChannelRecord[]> {
    return (await selectChannels(this.db).where('guild_id', '=', guildId).execute()).map(toChannel);
  }

  /** A guild's channels without threads, in no particular order. */
  async nonThreadOfGuild(guildId: string): Promise<ChannelRecord[]> {
    return (await selectChannels(this.db).where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).execute()).map(toChannel);
  }

  /** A guild's channels (id and type) by position (dev seed). */
  async idsAndTypesByPosition(guildId: string): Promise<{ id: string; type: number }[]> {
    const rows = await this.db.selectFrom('channels').select(['id', 'type']).where('guild_id', '=', guildId).orderBy('position').execute();
    return rows.map((r) => ({ id: String(r.id), type: Number(r.type) }));
  }

  /** One channel by id on the hot path (nearly every request): a fixed statement, no query building; or null. */
  async lookup(id: string): Promise<ChannelRecord | null> {
    const [row] = this.db.isTransaction
      ? (await this.db.executeQuery<Record<string, any>>(compiledFor(this.store.dialect, CHANNEL_BY_ID, [id]))).rows
      : await readRows(this.store, CHANNEL_BY_ID, [id]);
    return row ? toChannel(row) : null;
  }

  /** The channels among `ids` that exist, by id. */
  async byIds(ids: string[]): Promise<Map<string, ChannelRecord>> {
    const out = new Map<string, ChannelRecord>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await selectChannels(this.db)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute())
        out.set(String(r.id), toChannel(r));
    }
    return out;
  }
}
