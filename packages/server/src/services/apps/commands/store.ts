import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { id, idOrNull } from '../../../store/schema.js';
import { parseJson } from '../../../store/json.js';
import type { CommandData, CommandPermission, CommandRecord } from './types.js';

/** Repository of `application_commands` and `command_permissions`. Takes a db or a transaction. */

export function toCommand(r: { id: unknown; application_id: unknown; guild_id: unknown; version: unknown; data: unknown }): CommandRecord {
  const data = parseJson<CommandData>(r.data, {} as CommandData);
  return { ...data, options: data.options ?? [], id: id(r.id as string), application_id: id(r.application_id as string), guild_id: idOrNull(r.guild_id as string | null), version: id(r.version as string) };
}

/** The stored JSON: the command without its identity. */
export function dataOf(r: CommandData): string {
  const d: CommandData = {
    type: r.type, name: r.name, name_localizations: r.name_localizations, description: r.description,
    description_localizations: r.description_localizations, options: r.options, default_member_permissions: r.default_member_permissions,
    nsfw: r.nsfw,
  };
  if (r.dm_permission !== undefined) d.dm_permission = r.dm_permission;
  if (r.contexts !== undefined) d.contexts = r.contexts;
  if (r.integration_types !== undefined) d.integration_types = r.integration_types;
  if (r.handler !== undefined) d.handler = r.handler;
  return JSON.stringify(d);
}

/** Commands of exactly one scope (global when guildId is null), oldest first. */
export async function listScope(db: Kysely<DB>, applicationId: string, guildId: string | null): Promise<CommandRecord[]> {
  let q = db.selectFrom('application_commands').selectAll().where('application_id', '=', applicationId);
  q = guildId === null ? q.where('guild_id', 'is', null) : q.where('guild_id', '=', guildId);
  const rows = await q.orderBy('id').execute();
  return rows.map(toCommand);
}

export async function findCommand(db: Kysely<DB>, applicationId: string, commandId: string): Promise<CommandRecord | null> {
  const row = await db.selectFrom('application_commands').selectAll().where('application_id', '=', applicationId).where('id', '=', commandId).executeTakeFirst();
  return row ? toCommand(row) : null;
}

export async function insertCommand(db: Kysely<DB>, r: CommandRecord, now: number): Promise<void> {
  await db.insertInto('application_commands').values({
    id: r.id, application_id: r.application_id, guild_id: r.guild_id, type: r.type, name: r.name, version: r.version, data: dataOf(r), created_at: now,
  }).execute();
}

export async function updateCommand(db: Kysely<DB>, r: CommandRecord): Promise<void> {
  await db.updateTable('application_commands').set({ type: r.type, name: r.name, version: r.version, data: dataOf(r) }).where('id', '=', r.id).execute();
}

/** Deletes commands and every permission overwrite they had. */
export async function deleteCommands(db: Kysely<DB>, applicationId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('command_permissions').where('application_id', '=', applicationId).where('command_id', 'in', ids).execute();
  await db.deleteFrom('application_commands').where('application_id', '=', applicationId).where('id', 'in', ids).execute();
}

export async function readPermissions(db: Kysely<DB>, applicationId: string, guildId: string, commandId?: string): Promise<{ command_id: string; permissions: CommandPermission[] }[]> {
  let q = db.selectFrom('command_permissions').select(['command_id', 'permissions']).where('application_id', '=', applicationId).where('guild_id', '=', guildId);
  if (commandId !== undefined) q = q.where('command_id', '=', commandId);
  const rows = await q.orderBy('command_id').execute();
  return rows.map((r) => ({ command_id: id(r.command_id), permissions: parseJson<CommandPermission[]>(r.permissions, []) }));
}

/** Replaces one command's overwrites in a guild; an empty list removes them. */
export async function writePermissions(db: Kysely<DB>, applicationId: string, guildId: string, commandId: string, permissions: CommandPermission[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('command_permissions').where('application_id', '=', applicationId).where('guild_id', '=', guildId).where('command_id', '=', commandId).execute();
    if (permissions.length) {
      await trx.insertInto('command_permissions').values({ application_id: applicationId, guild_id: guildId, command_id: commandId, permissions: JSON.stringify(permissions) }).execute();
    }
  });
}
