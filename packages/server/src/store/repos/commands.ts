import { Repo } from './repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { id, idOrNull } from '../schema.js';
import { num, parseJson } from '../json.js';
import '../tables/fidelity-open-items.js';

/** Localized strings of a command or option, by locale. */
export type Localizations = Record<string, string> | null;

export interface OptionChoice {
  name: string;
  name_localizations?: Localizations;
  value: string | number;
}

export interface CommandOption {
  type: number;
  name: string;
  name_localizations?: Localizations;
  description: string;
  description_localizations?: Localizations;
  required?: boolean;
  choices?: OptionChoice[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  file_types?: string[];
}

/** The stored `data` of a command: everything but its identity (id, app, guild, version). */
export interface CommandData {
  type: number;
  name: string;
  name_localizations: Localizations;
  description: string;
  description_localizations: Localizations;
  options: CommandOption[];
  default_member_permissions: string | null;
  nsfw: boolean;
  /** Global commands only. */
  dm_permission?: boolean;
  contexts?: number[] | null;
  integration_types?: number[];
  /** PRIMARY_ENTRY_POINT only: 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY. */
  handler?: number;
}

export interface CommandRecord extends CommandData {
  id: string;
  application_id: string;
  /** null = global. */
  guild_id: string | null;
  version: string;
}

/** One overwrite: a role (guild_id = @everyone), a user, or a channel (guild_id − 1 = every channel). */
export interface CommandPermission {
  id: string;
  type: number;
  permission: boolean;
}

/** A row of `application_commands` as a record. */
export function toCommand(r: { id: unknown; application_id: unknown; guild_id: unknown; version: unknown; data: unknown }): CommandRecord {
  const data = parseJson<CommandData>(r.data, {} as CommandData);
  return {
    ...data,
    options: data.options ?? [],
    id: id(r.id as string),
    application_id: id(r.application_id as string),
    guild_id: idOrNull(r.guild_id as string | null),
    version: id(r.version as string),
  };
}

/** The stored JSON of a command: the command without its identity, fields in a fixed order (equal JSON = same command). */
export function commandDataJson(r: CommandData): string {
  const d: CommandData = {
    type: r.type,
    name: r.name,
    name_localizations: r.name_localizations,
    description: r.description,
    description_localizations: r.description_localizations,
    options: r.options,
    default_member_permissions: r.default_member_permissions,
    nsfw: r.nsfw,
  };
  if (r.dm_permission !== undefined) d.dm_permission = r.dm_permission;
  if (r.contexts !== undefined) d.contexts = r.contexts;
  if (r.integration_types !== undefined) d.integration_types = r.integration_types;
  if (r.handler !== undefined) d.handler = r.handler;
  return JSON.stringify(d);
}

/** Application commands and their per-guild permissions. */
export class CommandsRepo extends Repo {
  /** The commands of exactly one scope of an app (global when guildId is null), oldest first. */
  async ofScope(applicationId: string, guildId: string | null): Promise<CommandRecord[]> {
    let q = this.db.selectFrom('application_commands').selectAll().where('application_id', '=', applicationId);
    q = guildId === null ? q.where('guild_id', 'is', null) : q.where('guild_id', '=', guildId);
    return (await q.orderBy('id').execute()).map(toCommand);
  }

  /** One command of an app (global or of any guild), or null. */
  async byId(applicationId: string, commandId: string): Promise<CommandRecord | null> {
    const row = await this.db
      .selectFrom('application_commands')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('id', '=', commandId)
      .executeTakeFirst();
    return row ? toCommand(row) : null;
  }

  /** The global commands of several apps, plus a guild's commands of theirs when guildId is set, oldest first. */
  async ofApps(applicationIds: string[], guildId: string | null): Promise<CommandRecord[]> {
    if (!applicationIds.length) return [];
    const q = this.db.selectFrom('application_commands').selectAll().where('application_id', 'in', applicationIds);
    const scoped = guildId === null ? q.where('guild_id', 'is', null) : q.where((eb) => eb.or([eb('guild_id', 'is', null), eb('guild_id', '=', guildId)]));
    return (await scoped.orderBy('id').execute()).map(toCommand);
  }

  /** Stores a new command. */
  async insert(cmd: CommandRecord, now: number): Promise<void> {
    await this.db
      .insertInto('application_commands')
      .values({
        id: cmd.id,
        application_id: cmd.application_id,
        guild_id: cmd.guild_id,
        type: cmd.type,
        name: cmd.name,
        version: cmd.version,
        data: commandDataJson(cmd),
        created_at: now,
      })
      .execute();
  }

  /** Replaces a stored command (type, name, version and data) by its id. */
  async update(cmd: CommandRecord): Promise<void> {
    await this.db
      .updateTable('application_commands')
      .set({ type: cmd.type, name: cmd.name, version: cmd.version, data: commandDataJson(cmd) })
      .where('id', '=', cmd.id)
      .execute();
  }

  /** Deletes commands of an app with every permission overwrite they had, together (in the open transaction, or its own). */
  async deleteWithPermissions(applicationId: string, commandIds: string[]): Promise<void> {
    if (!commandIds.length) return;
    const run = async (db: Kysely<DB>) => {
      await db.deleteFrom('command_permissions').where('application_id', '=', applicationId).where('command_id', 'in', commandIds).execute();
      await db.deleteFrom('application_commands').where('application_id', '=', applicationId).where('id', 'in', commandIds).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** An app's overwrite sets in a guild by command id (the app's id for the app-wide set), ordered; only `commandIds` when given. */
  async overwrites(applicationId: string, guildId: string, commandIds?: string[]): Promise<{ command_id: string; permissions: CommandPermission[] }[]> {
    let q = this.db
      .selectFrom('command_permissions')
      .select(['command_id', 'permissions'])
      .where('application_id', '=', applicationId)
      .where('guild_id', '=', guildId);
    if (commandIds !== undefined) {
      if (!commandIds.length) return [];
      q = commandIds.length === 1 ? q.where('command_id', '=', commandIds[0]) : q.where('command_id', 'in', commandIds);
    }
    const rows = await q.orderBy('command_id').execute();
    return rows.map((r) => ({ command_id: id(r.command_id), permissions: parseJson<CommandPermission[]>(r.permissions, []) }));
  }

  /** The overwrite sets of several apps in one guild, in no particular order. */
  async overwritesOfApps(
    guildId: string,
    applicationIds: string[],
  ): Promise<{ application_id: string; command_id: string; permissions: CommandPermission[] }[]> {
    if (!applicationIds.length) return [];
    const rows = await this.db
      .selectFrom('command_permissions')
      .select(['application_id', 'command_id', 'permissions'])
      .where('guild_id', '=', guildId)
      .where('application_id', 'in', applicationIds)
      .execute();
    return rows.map((r) => ({
      application_id: id(r.application_id),
      command_id: id(r.command_id),
      permissions: parseJson<CommandPermission[]>(r.permissions, []),
    }));
  }

  /** Replaces one command's overwrites in a guild (an empty list removes them), in one transaction. */
  async setOverwrites(applicationId: string, guildId: string, commandId: string, permissions: CommandPermission[]): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      await db
        .deleteFrom('command_permissions')
        .where('application_id', '=', applicationId)
        .where('guild_id', '=', guildId)
        .where('command_id', '=', commandId)
        .execute();
      if (permissions.length) {
        await db
          .insertInto('command_permissions')
          .values({ application_id: applicationId, guild_id: guildId, command_id: commandId, permissions: JSON.stringify(permissions) })
          .execute();
      }
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Forgets the command creates of an app's scope (`global` or a guild id) made at or before `until`. */
  async forgetCreatesUntil(applicationId: string, scope: string, until: number): Promise<void> {
    await this.db
      .deleteFrom('application_command_creates')
      .where('application_id', '=', applicationId)
      .where('scope', '=', scope)
      .where('created_at', '<=', until)
      .execute();
  }

  /** When each remembered command create of an app's scope happened, oldest first. */
  async createTimes(applicationId: string, scope: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('application_command_creates')
      .select('created_at')
      .where('application_id', '=', applicationId)
      .where('scope', '=', scope)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => num(r.created_at));
  }

  /** Remembers one command create per id in an app's scope, made at `now`. */
  async recordCreates(applicationId: string, scope: string, ids: string[], now: number): Promise<void> {
    if (!ids.length) return;
    await this.db
      .insertInto('application_command_creates')
      .values(ids.map((i) => ({ id: i, application_id: applicationId, scope, created_at: now })))
      .execute();
  }

  /** Deletes a guild's commands, their permissions and its daily-create counts. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('command_permissions').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_commands').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_command_creates').where('scope', '=', guildId).execute();
  }

  /** The stored permission overwrites of a command in a guild, as JSON text, or null. */
  async storedPermissionsJson(applicationId: string, guildId: string, commandId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('command_permissions')
      .select('permissions')
      .where('application_id', '=', applicationId)
      .where('guild_id', '=', guildId)
      .where('command_id', '=', commandId)
      .executeTakeFirst();
    return row ? String(row.permissions) : null;
  }
}
