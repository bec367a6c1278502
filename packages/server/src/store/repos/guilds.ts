import { Repo } from './repo.js';
import { OwnedImages } from './owned-images.js';
import { toGuild } from './mappers.js';
import type { GuildRecord } from '../records.js';
import type { Overwrite } from '@accord/protocol';
import { id, idOrNull } from '../schema.js';
import { num, numOrNull, parseJson } from '../json.js';
import type { GuildsTable } from '../schema.js';
import type { GuildTemplatesTable } from '../tables/guild-extras.js';
import type { GuildJoinRequestsTable } from '../tables/fidelity.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** The rows GuildAccess builds a guild's permission state from (see GuildsRepo.permissionState). */
export interface GuildPermissionRows {
  ownerId: string;
  roles: { id: string; permissions: bigint; position: number }[];
  channels: { id: string; type: number; parentId: string | null; overwrites: Overwrite[] }[];
  members: { userId: string; roles: string[]; timeoutUntil: number | null }[];
  /** Ids of the guild's private threads (type 12), each with its members in privateThreadMembers. */
  privateThreadIds: string[];
  privateThreadMembers: { channelId: string; userId: string }[];
}

/** Guilds and what hangs off the guild itself: settings, templates, vanity, widget, onboarding, welcome screen, integrations. */
export class GuildsRepo extends Repo {
  /** A guild's icon, splash and banner bytes (the CDN's `/icons/…`, `/splashes/…` and `/banners/…`). */
  get images(): OwnedImages {
    return new OwnedImages(this.db, 'guild_images', 'guild_id');
  }

  /** One guild, or null. */
  async byId(id: string): Promise<GuildRecord | null> {
    const row = await this.db.selectFrom('guilds').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toGuild(row) : null;
  }

  /**
   * What permission checks need of a guild (GuildAccess): the owner, then in parallel its roles, channels and members,
   * then the members of its private threads. Null for an unknown guild. Five reads at most, as GuildAccess always did.
   */
  async permissionState(guildId: string): Promise<GuildPermissionRows | null> {
    const g = await this.db.selectFrom('guilds').select(['id', 'owner_id']).where('id', '=', guildId).executeTakeFirst();
    if (!g) return null;
    const [roles, channels, members] = await Promise.all([
      this.db.selectFrom('roles').select(['id', 'permissions', 'position']).where('guild_id', '=', guildId).execute(),
      this.db.selectFrom('channels').select(['id', 'type', 'parent_id', 'permission_overwrites']).where('guild_id', '=', guildId).execute(),
      this.db.selectFrom('members').select(['user_id', 'roles', 'communication_disabled_until']).where('guild_id', '=', guildId).execute(),
    ]);
    const privateThreads = channels.filter((c) => num(c.type) === 12).map((c) => id(c.id));
    const threadMembers = privateThreads.length
      ? await this.db.selectFrom('thread_members').select(['channel_id', 'user_id']).where('channel_id', 'in', privateThreads).execute()
      : [];
    return {
      ownerId: id(g.owner_id),
      roles: roles.map((r) => ({ id: id(r.id), permissions: BigInt(r.permissions), position: num(r.position) })),
      channels: channels.map((c) => ({
        id: id(c.id),
        type: num(c.type),
        parentId: idOrNull(c.parent_id),
        overwrites: parseJson<Overwrite[]>(c.permission_overwrites, []),
      })),
      members: members.map((m) => ({
        userId: id(m.user_id),
        roles: parseJson<string[]>(m.roles, []),
        timeoutUntil: numOrNull(m.communication_disabled_until),
      })),
      privateThreadIds: privateThreads,
      privateThreadMembers: threadMembers.map((tm) => ({ channelId: id(tm.channel_id), userId: id(tm.user_id) })),
    };
  }

  /** Inserts a new guild row (its roles, channels and owner go through their repositories in the same transaction). */
  async insert(row: GuildsTable): Promise<void> {
    await this.db.insertInto('guilds').values(row).execute();
  }

  /** Applies a partial guild update (column values already encoded: JSON as text, booleans as 0/1). */
  async patch(id: string, values: Partial<GuildsTable>): Promise<void> {
    await this.db.updateTable('guilds').set(values).where('id', '=', id).execute();
  }

  /** Deletes the guild row itself (the last step of a guild's deletion). */
  async deleteRow(id: string): Promise<void> {
    await this.db.deleteFrom('guilds').where('id', '=', id).execute();
  }

  /** Deletes what hangs off a guild in its own tables: templates, vanity URL, settings and join requests. */
  async deleteExtrasOf(guildId: string): Promise<void> {
    for (const table of ['guild_templates', 'guild_vanity', 'guild_settings', 'guild_join_requests'] as const) {
      await this.db.deleteFrom(table).where('guild_id', '=', guildId).execute();
    }
  }

  /** The guild's settings document (welcome screen, onboarding, widget, tag, …) as stored, or null. */
  async settingsJson(guildId: string): Promise<string | null> {
    const row = await this.db.selectFrom('guild_settings').select('data').where('guild_id', '=', guildId).executeTakeFirst();
    return row ? String(row.data) : null;
  }

  /** Replaces one key of the settings document (undefined removes it) in one transaction; the other keys are kept. */
  async putSettingKey(guildId: string, key: string, value: unknown): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      const row = await db.selectFrom('guild_settings').select('data').where('guild_id', '=', guildId).executeTakeFirst();
      const data = parseJson<Record<string, unknown>>(row?.data, {});
      if (value === undefined) delete data[key];
      else data[key] = value;
      const json = JSON.stringify(data);
      if (row) await db.updateTable('guild_settings').set({ data: json }).where('guild_id', '=', guildId).execute();
      else
        await db
          .insertInto('guild_settings')
          .values({ guild_id: guildId, data: json })
          .onConflict((oc) => oc.column('guild_id').doUpdateSet({ data: json }))
          .execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Drops a guild's settings document. */
  async deleteSettings(guildId: string): Promise<void> {
    await this.db.deleteFrom('guild_settings').where('guild_id', '=', guildId).execute();
  }

  /** The template with this code, or null. */
  async templateByCode(code: string): Promise<GuildTemplatesTable | null> {
    return ((await this.db.selectFrom('guild_templates').selectAll().where('code', '=', code).executeTakeFirst()) as GuildTemplatesTable | undefined) ?? null;
  }

  /** A guild's templates (one at most). */
  async templatesOf(guildId: string): Promise<GuildTemplatesTable[]> {
    return (await this.db.selectFrom('guild_templates').selectAll().where('guild_id', '=', guildId).execute()) as GuildTemplatesTable[];
  }

  /** Inserts a template. */
  async insertTemplate(row: GuildTemplatesTable): Promise<void> {
    await this.db.insertInto('guild_templates').values(row).execute();
  }

  /** Applies a partial update to a template. */
  async patchTemplate(code: string, values: Partial<GuildTemplatesTable>): Promise<void> {
    await this.db.updateTable('guild_templates').set(values).where('code', '=', code).execute();
  }

  /** Deletes a template. */
  async deleteTemplate(code: string): Promise<void> {
    await this.db.deleteFrom('guild_templates').where('code', '=', code).execute();
  }

  /** Counts one more guild created from a template. */
  async countTemplateUse(code: string): Promise<void> {
    await this.db
      .updateTable('guild_templates')
      .set((eb) => ({ usage_count: eb('usage_count', '+', 1) }))
      .where('code', '=', code)
      .execute();
  }

  /** A guild's vanity URL (code and uses), or null. */
  async vanityOf(guildId: string): Promise<{ code: string; uses: number } | null> {
    const row = await this.db.selectFrom('guild_vanity').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
    return row ? { code: row.code, uses: num(row.uses) } : null;
  }

  /** The guild behind a vanity code, or null. */
  async guildOfVanity(code: string): Promise<string | null> {
    const row = await this.db.selectFrom('guild_vanity').select('guild_id').where('code', '=', code).executeTakeFirst();
    return row ? String(row.guild_id) : null;
  }

  /** Replaces a guild's vanity code (null removes it) in one transaction; uses start at 0. */
  async setVanity(guildId: string, code: string | null): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db.deleteFrom('guild_vanity').where('guild_id', '=', guildId).execute();
      if (code !== null) await db.insertInto('guild_vanity').values({ code, guild_id: guildId, uses: 0 }).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Counts one use of a vanity code. */
  async countVanityUse(code: string): Promise<void> {
    await this.db
      .updateTable('guild_vanity')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('code', '=', code)
      .execute();
  }

  /** A user's join request to a guild, or null. */
  async joinRequestOf(guildId: string, userId: string): Promise<GuildJoinRequestsTable | null> {
    return (
      ((await this.db.selectFrom('guild_join_requests').selectAll().where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst()) as
        GuildJoinRequestsTable | undefined) ?? null
    );
  }

  /** A join request of a guild by id, or null. */
  async joinRequestById(guildId: string, requestId: string): Promise<GuildJoinRequestsTable | null> {
    return (
      ((await this.db.selectFrom('guild_join_requests').selectAll().where('id', '=', requestId).where('guild_id', '=', guildId).executeTakeFirst()) as
        GuildJoinRequestsTable | undefined) ?? null
    );
  }

  /** Deletes a join request. */
  async deleteJoinRequest(id: string): Promise<void> {
    await this.db.deleteFrom('guild_join_requests').where('id', '=', id).execute();
  }

  /** Inserts a join request. */
  async insertJoinRequest(row: GuildJoinRequestsTable): Promise<void> {
    await this.db.insertInto('guild_join_requests').values(row).execute();
  }

  /** Applies a review to a join request (status, reason, reviewer, time). */
  async patchJoinRequest(id: string, values: Partial<GuildJoinRequestsTable>): Promise<void> {
    await this.db.updateTable('guild_join_requests').set(values).where('id', '=', id).execute();
  }

  /** One page of a guild's join requests, newest first, with the total of those of this status (all when unset). */
  async joinRequestsPage(
    guildId: string,
    q: { status?: string; before?: string; after?: string; limit: number },
  ): Promise<{ rows: GuildJoinRequestsTable[]; total: number }> {
    let sel = this.db.selectFrom('guild_join_requests').selectAll().where('guild_id', '=', guildId);
    if (q.status) sel = sel.where('status', '=', q.status);
    const total = Number(
      (
        await sel
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    if (q.before) sel = sel.where('id', '<', q.before);
    if (q.after) sel = sel.where('id', '>', q.after);
    const rows = (await sel.orderBy('id', 'desc').limit(q.limit).execute()) as GuildJoinRequestsTable[];
    return { rows, total };
  }
}
