import { Repo } from './repo.js';
import { toChannel } from './mappers.js';
import type { ChannelRecord } from '../records.js';
import type { ChannelsTable } from '../schema.js';
import type { Overwrite } from '@accord/protocol';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import type { Store } from '../db.js';
import { num } from '../json.js';
import { parseJson } from '../json.js';

/** Channels, overwrites, DMs and group DMs (recipients), pins, stage instances, followers. */
export class ChannelsRepo extends Repo {
  /** One channel (of any kind, threads included), or null. */
  async byId(id: string): Promise<ChannelRecord | null> {
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toChannel(row) : null;
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
    const fed = await db.selectFrom('channel_followers').select(['webhook_id', 'guild_id', 'channel_id'])
      .where((eb) => (channelIds ? eb('source_channel_id', 'in', channelIds) : eb('source_guild_id', '=', (where as { guildId: string }).guildId)))
      .execute();
    if (fed.length) await db.deleteFrom('webhooks').where('id', 'in', fed.map((r) => String(r.webhook_id))).execute();
    await db.deleteFrom('channel_followers').where((eb) => (channelIds
      ? eb.or([eb('source_channel_id', 'in', channelIds), eb('channel_id', 'in', channelIds)])
      : eb.or([eb('source_guild_id', '=', (where as { guildId: string }).guildId), eb('guild_id', '=', (where as { guildId: string }).guildId)])))
      .execute();
    const seen = new Map<string, { guild_id: string; channel_id: string }>();
    for (const r of fed) seen.set(String(r.channel_id), { guild_id: String(r.guild_id), channel_id: String(r.channel_id) });
    return [...seen.values()];
  }

  /** @deprecated A ChannelsRepo over a raw transaction handle, for callers not yet moved to Repos; goes with them. */
  static onHandle(handle: object): ChannelsRepo {
    return new ChannelsRepo(handle as Kysely<DB>, undefined as unknown as Store);
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
  async endStageIn(channelId: string): Promise<{ id: string; guild_id: string; channel_id: string; topic: string; privacy_level: number; discoverable_disabled: number; guild_scheduled_event_id: string | null } | null> {
    const stage = await this.db.selectFrom('stage_instances').selectAll().where('channel_id', '=', channelId).executeTakeFirst();
    if (!stage) return null;
    await this.db.deleteFrom('stage_instances').where('id', '=', String(stage.id)).execute();
    return stage as any;
  }

  /** A guild's channels without threads, by position then id (a template's snapshot). */
  async layoutOf(guildId: string): Promise<ChannelRecord[]> {
    const rows = await this.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).orderBy('position').orderBy('id').execute();
    return rows.map(toChannel);
  }

  /** The id and position of every channel of a guild. */
  async positionsIn(guildId: string): Promise<{ id: string; position: number }[]> {
    const rows = await this.db.selectFrom('channels').select(['id', 'position']).where('guild_id', '=', guildId).execute();
    return rows.map((r) => ({ id: String(r.id), position: num(r.position) }));
  }

  /** Replaces the permission overwrites of a channel. */
  async writeOverwrites(id: string, overwrites: Overwrite[] | { id: unknown; type: number; allow: string; deny: string }[]): Promise<void> {
    await this.db.updateTable('channels').set({ permission_overwrites: JSON.stringify(overwrites) }).where('id', '=', id).execute();
  }

  /** The ids among `ids` that are channels of this guild other than threads. */
  async guildChannelIdsAmong(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).where('id', 'in', ids).execute();
    return rows.map((r) => String(r.id));
  }

  /** A guild's voice and stage channels by position: id, name, position and overwrites (the widget). */
  async voiceChannelsOf(guildId: string): Promise<{ id: string; name: string | null; position: number; permission_overwrites: Overwrite[] }[]> {
    const rows = await this.db.selectFrom('channels').select(['id', 'name', 'position', 'permission_overwrites']).where('guild_id', '=', guildId).where('type', 'in', [2, 13]).orderBy('position').execute();
    return rows.map((c) => ({ id: String(c.id), name: c.name ?? null, position: num(c.position), permission_overwrites: parseJson<Overwrite[]>(c.permission_overwrites ?? '[]', []) }));
  }

  /** A channel of this guild by id (threads included), or null. */
  async inGuildById(guildId: string, id: string): Promise<ChannelRecord | null> {
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).where('guild_id', '=', guildId).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** The channels of this guild among `ids` (threads included). */
  async inGuildByIds(guildId: string, ids: string[]): Promise<ChannelRecord[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('channels').selectAll().where('id', 'in', ids).where('guild_id', '=', guildId).execute()).map(toChannel);
  }

  /** The ids among `ids` that are channels of this guild (threads included). */
  async idsAmongInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute()).map((r) => String(r.id));
  }
}
