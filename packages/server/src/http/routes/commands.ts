import { z } from 'zod';
import { Routes, Reply, noContent, type Call } from '../router.js';
import { parseBody, qBool } from '../../core/validation.js';
import {
  requireCommandApp,
  requireAppInGuild,
  listCommands,
  getScopedCommand,
  createCommand,
  patchCommand,
  deleteCommand,
  bulkOverwrite,
  listGuildPermissions,
  getPermissions,
  setPermissions,
  guildCommandIndex,
  userCommandIndex,
  commandWire,
} from '../../services/apps/commands/index.js';

const ListQuery = z.object({ with_localizations: qBool });

/** The app (and, under /guilds/{guild_id}, the guild the app's bot is in) a command route acts on. */
async function scope(call: Call, mode: 'read' | 'write') {
  const app = await requireCommandApp(call.ctx, call.actor, call.params.application_id, mode);
  const guildId = call.params.guild_id ?? null;
  if (guildId !== null) await requireAppInGuild(call.ctx, app, guildId);
  return { app, guildId };
}

const list = async (call: Call) => {
  const q = parseBody(ListQuery, call.query);
  const { app, guildId } = await scope(call, 'read');
  return (await listCommands(call.ctx, app, guildId)).map((c) => commandWire(c, { localizations: !!q.with_localizations }));
};
const create = async (call: Call) => {
  const { app, guildId } = await scope(call, 'write');
  const { command, created } = await createCommand(call.ctx, app, guildId, call.body);
  return new Reply(created ? 201 : 200, commandWire(command));
};
const overwrite = async (call: Call) => {
  const { app, guildId } = await scope(call, 'write');
  return (await bulkOverwrite(call.ctx, app, guildId, call.body)).map((c) => commandWire(c));
};
const get = async (call: Call) => {
  const { app, guildId } = await scope(call, 'read');
  return commandWire(await getScopedCommand(call.ctx, app, guildId, call.params.command_id));
};
const patch = async (call: Call) => {
  const { app, guildId } = await scope(call, 'write');
  return commandWire(await patchCommand(call.ctx, app, guildId, call.params.command_id, call.body));
};
const remove = async (call: Call) => {
  const { app, guildId } = await scope(call, 'write');
  await deleteCommand(call.ctx, app, guildId, call.params.command_id);
  return noContent();
};

const GLOBAL = '/applications/{application_id}/commands';
const GUILD = '/applications/{application_id}/guilds/{guild_id}/commands';

/** Application commands (global and guild), their permission overwrites, and the command picker's index. */
export default new Routes()
  .get(GLOBAL, 'any', list)
  .post(GLOBAL, 'any', create)
  .put(GLOBAL, 'any', overwrite)
  .get(`${GLOBAL}/{command_id}`, 'any', get)
  .patch(`${GLOBAL}/{command_id}`, 'any', patch)
  .delete(`${GLOBAL}/{command_id}`, 'any', remove)
  .get(GUILD, 'any', list)
  .post(GUILD, 'any', create)
  .put(GUILD, 'any', overwrite)
  .get(`${GUILD}/permissions`, 'any', async (call) => {
    const { app, guildId } = await scope(call, 'read');
    return listGuildPermissions(call.ctx, app, guildId!);
  })
  .get(`${GUILD}/{command_id}`, 'any', get)
  .patch(`${GUILD}/{command_id}`, 'any', patch)
  .delete(`${GUILD}/{command_id}`, 'any', remove)
  .get(`${GUILD}/{command_id}/permissions`, 'any', async (call) => {
    const { app, guildId } = await scope(call, 'read');
    return getPermissions(call.ctx, app, guildId!, call.params.command_id);
  })
  .put(`${GUILD}/{command_id}/permissions`, 'any', async (call) => {
    // Not `scope()`: the person behind a Bearer or user token edits, whoever owns the app.
    return setPermissions(call.ctx, call.actor, call.params.application_id, call.params.guild_id, call.params.command_id, call.body);
  })
  .get('/guilds/{guild_id}/application-command-index', 'user', async (call) => guildCommandIndex(call.ctx, call.actor, call.params.guild_id))
  .get('/users/@me/application-command-index', 'user', async (call) => userCommandIndex(call.ctx, call.actor));
