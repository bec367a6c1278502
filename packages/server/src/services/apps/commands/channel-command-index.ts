import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { applicationOfBot } from '../../identity/applications.js';
import { getUsers } from '../../identity/users.js';
import { channelAccess, loadChannel } from '../../messages/channel.js';
import { build, guildCommandIndex, offered, type CommandIndex } from './command-index.js';

/** Interaction contexts (discord-api-types InteractionContextType). */
const BOT_DM = 1;
const PRIVATE_CHANNEL = 2;

/**
 * GET /channels/{id}/application-command-index: what the official client's picker loads in a DM or a group DM.
 * In a DM with a bot, that app's commands offered in BOT_DM; everywhere private, the person's user-installed apps'
 * commands offered in PRIVATE_CHANNEL. A guild channel answers with its guild's index.
 */
export async function channelCommandIndex(ctx: Ctx, actor: Actor, channelId: string): Promise<CommandIndex> {
  const ch = await loadChannel(ctx, channelId);
  await channelAccess(ctx, ch, actor.user.id);
  if (ch.guild_id) return guildCommandIndex(ctx, actor, ch.guild_id);
  if (!ch.recipients?.includes(actor.user.id)) throw Errors.unknownChannel();

  const others = ch.type === 1 ? ch.recipients.filter((id) => id !== actor.user.id) : [];
  const botUser = others.length === 1 ? (await getUsers(ctx, others)).get(others[0]) : undefined;
  const dmApp = botUser?.bot ? await applicationOfBot(ctx, botUser.id) : null;

  const installed = await ctx.repos.applications.installedByUser(actor.user.id);
  const apps = new Map(installed.map((a) => [a.id, a]));
  if (dmApp) apps.set(dmApp.id, dmApp);
  if (!apps.size) return build([], []);

  const commands = (await ctx.repos.commands.ofApps([...apps.keys()], null)).filter((c) => {
    if (dmApp && c.application_id === dmApp.id && (offered(c, 0, BOT_DM) || offered(c, 1, BOT_DM))) return true;
    return offered(c, 1, PRIVATE_CHANNEL) && installed.some((a) => a.id === c.application_id);
  });
  return build([...apps.values()], commands);
}
