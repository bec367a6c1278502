import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import { role as roleWire } from '../../wire/role.js';
import { getApplication } from './applications.js';
import { addMember } from '../guilds/membership.js';
import type { RoleRecord } from '../../store/records.js';
import { announceBotInstall } from '../guilds/integrations.js';

/**
 * Installs an app's bot into a guild, as the consent screen's POST does: the installer needs MANAGE_GUILD, the bot
 * joins with a managed role carrying the requested permissions (none requested: no role), and its sessions get
 * GUILD_CREATE.
 */
export async function installBot(ctx: Ctx, installer: Actor, input: { clientId: string; guildId: string; permissions: bigint }): Promise<void> {
  if (installer.kind !== 'user') throw Errors.botsCannotUse();
  const app = await getApplication(ctx, input.clientId);
  if (!app) throw Errors.unknownApplication();
  if (!app.bot_user_id) throw Errors.noBot();
  if (!app.bot_public && app.owner_id !== installer.user.id) throw new ApiError(403, 50001, 'Missing Access');
  const installerPerms = await ctx.access.guildPerms(input.guildId, installer.user.id);
  if (installerPerms === null) throw fieldError('guild_id', 'GUILD_INVALID', 'Unknown guild.');
  if (!ctx.access.hasPerm(installerPerms, P.MANAGE_GUILD)) throw Errors.missingPermissions();
  if ((input.permissions & ~ALL_PERMISSIONS) !== 0n) throw fieldError('permissions', 'PERMISSIONS_INVALID', 'Invalid permissions.');
  // The installer cannot grant what they do not have.
  const granted = input.permissions & installerPerms;

  const roleIds: string[] = [];
  if (granted !== 0n && !(await ctx.access.isMember(input.guildId, app.bot_user_id))) {
    const top = await ctx.repos.roles.maxPosition(input.guildId);
    const row: RoleRecord = {
      id: ctx.ids.next(),
      guild_id: input.guildId,
      name: app.name.slice(0, 100),
      permissions: granted,
      position: top + 1,
      color: 0,
      secondary_color: null,
      tertiary_color: null,
      hoist: false,
      mentionable: false,
      managed: true,
      icon: null,
      unicode_emoji: null,
      flags: 0,
      bot_id: app.bot_user_id,
    };
    await ctx.repos.roles.insertRecord(row);
    ctx.access.invalidate(input.guildId);
    ctx.bus.publish({ t: 'GUILD_ROLE_CREATE', d: { guild_id: input.guildId, role: roleWire(row) }, guild_id: input.guildId });
    roleIds.push(row.id);
  }
  if (await addMember(ctx, input.guildId, app.bot_user_id, { roles: roleIds })) await announceBotInstall(ctx, input.guildId, app.id, installer.user.id); // INTEGRATION_CREATE, audit 28 + 80
}
