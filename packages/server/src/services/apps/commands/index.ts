import type { Ctx } from '../../context.js';
import { isSnowflake } from '@accord/protocol';
import type { CommandRecord } from './types.js';

/**
 * Application commands: CRUD and bulk overwrite per scope (global or guild), permission overwrites, the command
 * picker's index, and the lookups the interactions runtime needs.
 */
export * from './types.js';
export { commandWire } from '../../../wire/command.js';
export { validateCommand, commandSize } from './validate.js';
export {
  CommandErrors,
  requireCommandApp,
  requireAppInGuild,
  defaultIntegrationTypes,
  listCommands,
  getScopedCommand,
  createCommand,
  patchCommand,
  deleteCommand,
  bulkOverwrite,
  ensureEntryPoint,
} from './crud.js';
export { listGuildPermissions, getPermissions, setPermissions, commandPermissionsFor, canUseCommand, allChannelsId, type UseCheck } from './permissions.js';
export { guildCommandIndex, userCommandIndex, type CommandIndex } from './command-index.js';

/** One command of an app, global or of any guild; null when unknown. */
export async function getCommand(ctx: Ctx, applicationId: string, commandId: string): Promise<CommandRecord | null> {
  if (!isSnowflake(applicationId) || !isSnowflake(commandId)) return null;
  return ctx.repos.commands.byId(applicationId, commandId);
}

/** The commands an app offers where it is invoked: its global commands, plus the guild's when guildId is set. */
export async function listCommandsFor(ctx: Ctx, applicationId: string, guildId: string | null): Promise<CommandRecord[]> {
  const global = await ctx.repos.commands.ofScope(applicationId, null);
  return guildId ? [...global, ...(await ctx.repos.commands.ofScope(applicationId, guildId))] : global;
}
