import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../../store/records.js';
import { canUseCommand } from './permissions.js';
import type { CommandRecord } from './types.js';
import { commandWire } from '../../../wire/command.js';
import { appsInstalledIn } from '../../identity/oauth2/grants.js';
import { previewAppsIn } from '../../activities/preview.js';

/** What the official client's command picker loads: the apps and the commands the person may use. */
export interface CommandIndex {
  applications: { id: string; name: string; icon: string | null; description: string; bot_id?: string }[];
  application_commands: ReturnType<typeof commandWire>[];
  version: string;
}

export function build(apps: ApplicationRecord[], commands: CommandRecord[]): CommandIndex {
  const withCommands = new Set(commands.map((c) => c.application_id));
  let version = 0n;
  for (const c of commands) if (BigInt(c.version) > version) version = BigInt(c.version);
  return {
    applications: apps
      .filter((a) => withCommands.has(a.id))
      .map((a) => ({
        id: a.id,
        name: a.name,
        icon: a.icon,
        description: a.description,
        ...(a.bot_user_id ? { bot_id: a.bot_user_id } : {}),
      })),
    application_commands: commands.map((c) => commandWire(c)),
    version: version.toString(),
  };
}

/** Whether a global command is offered in an installation context and an interaction context. */
export function offered(c: CommandRecord, integrationType: number, context: number): boolean {
  if (c.guild_id !== null) return true;
  const types = c.integration_types ?? [0];
  if (!types.includes(integrationType)) return false;
  if (c.contexts) return c.contexts.includes(context);
  // Without contexts, the deprecated dm_permission still keeps a command out of the bot DM.
  return context !== 1 || c.dm_permission !== false;
}

/**
 * GET /guilds/{id}/application-command-index: apps installed in the guild (their bot is a member, or they were
 * installed with `applications.commands` only), with their guild commands and their guild-installable global
 * commands, filtered by default_member_permissions and the guild's overwrites.
 */
export async function guildCommandIndex(ctx: Ctx, actor: Actor, guildId: string): Promise<CommandIndex> {
  if (!isSnowflake(guildId)) throw Errors.unknownGuild();
  await ctx.access.requireGuild(guildId, actor.user.id);
  const apps = await appsInstalledIn(ctx, guildId);
  const previews = await previewEntryPoints(ctx, actor, guildId, apps);
  if (!apps.length) return build(previews.apps, previews.commands);
  const appIds = apps.map((a) => a.id);
  const [commands, sets] = await Promise.all([ctx.repos.commands.ofApps(appIds, guildId), ctx.repos.commands.overwritesOfApps(guildId, appIds)]);
  const overwrites = new Map(sets.map((r) => [r.command_id, r.permissions]));
  const visible: CommandRecord[] = [];
  for (const cmd of commands) {
    if (!offered(cmd, 0, 0)) continue;
    const sets = { command: overwrites.get(cmd.id) ?? null, application: overwrites.get(cmd.application_id) ?? null };
    if (await canUseCommand(ctx, { command: cmd, guildId, userId: actor.user.id, overwrites: sets })) visible.push(cmd);
  }
  return build([...apps, ...previews.apps], [...visible, ...previews.commands]);
}

/** The person's own in-development Activities not installed here: their Entry Point, for the App Launcher. */
async function previewEntryPoints(
  ctx: Ctx,
  actor: Actor,
  guildId: string,
  installed: ApplicationRecord[],
): Promise<{ apps: ApplicationRecord[]; commands: CommandRecord[] }> {
  const have = new Set(installed.map((a) => a.id));
  const apps = (await previewAppsIn(ctx, actor.user.id, guildId)).filter((a) => !have.has(a.id));
  if (!apps.length) return { apps: [], commands: [] };
  const commands = (
    await ctx.repos.commands.ofApps(
      apps.map((a) => a.id),
      null,
    )
  ).filter((c) => c.type === 4 && (!c.contexts || c.contexts.includes(0)));
  return { apps, commands };
}

/** GET /users/@me/application-command-index: apps the person installed to their account, and their user-installable commands. */
export async function userCommandIndex(ctx: Ctx, actor: Actor): Promise<CommandIndex> {
  const apps = await ctx.repos.applications.installedByUser(actor.user.id);
  if (!apps.length) return build([], []);
  const commands = (
    await ctx.repos.commands.ofApps(
      apps.map((a) => a.id),
      null,
    )
  ).filter((c) => (c.integration_types ?? [0]).includes(1));
  return build(apps, commands);
}
