import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { P, has, isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../../store/records.js';
import { Checker } from '../components/check.js';
import { getApplication } from '../../identity/applications.js';
import { CommandErrors, requireAppInGuild } from './crud.js';
import { MAX_PERMISSION_OVERWRITES, PermissionType, type CommandPermission, type CommandRecord, type GuildCommandPermissions } from './types.js';
import { auditCommandPermissions, storedCommandPermissions } from '../../moderation/audit-log.js';

export const PERMISSIONS_SCOPE = 'applications.commands.permissions.update';

/** `guild_id − 1`: the constant for "every channel" in channel overwrites. */
export const allChannelsId = (guildId: string) => (BigInt(guildId) - 1n).toString();

const wire = (applicationId: string, guildId: string, commandId: string, permissions: CommandPermission[]): GuildCommandPermissions => ({
  id: commandId,
  application_id: applicationId,
  guild_id: guildId,
  permissions,
});

/** Every overwrite set of the app in a guild (the app-wide set has the application's id). */
export async function listGuildPermissions(ctx: Ctx, app: ApplicationRecord, guildId: string): Promise<GuildCommandPermissions[]> {
  const rows = await ctx.repos.commands.overwrites(app.id, guildId);
  return rows.map((r) => wire(app.id, guildId, r.command_id, r.permissions));
}

/** The command must be the app itself (app-wide), one of its global commands, or one of its commands of this guild. */
async function requireTarget(ctx: Ctx, app: ApplicationRecord, guildId: string, commandId: string): Promise<void> {
  if (commandId === app.id) return;
  const cmd = isSnowflake(commandId) ? await ctx.repos.commands.byId(app.id, commandId) : null;
  if (!cmd || (cmd.guild_id !== null && cmd.guild_id !== guildId)) throw CommandErrors.unknownCommand();
}

export async function getPermissions(ctx: Ctx, app: ApplicationRecord, guildId: string, commandId: string): Promise<GuildCommandPermissions> {
  await requireTarget(ctx, app, guildId, commandId);
  const [row] = await ctx.repos.commands.overwrites(app.id, guildId, [commandId]);
  if (!row) throw CommandErrors.unknownPermissions();
  return wire(app.id, guildId, commandId, row.permissions);
}

/**
 * PUT overwrites of one command (or the app-wide set). Bot tokens are refused (20001). A Bearer token needs the
 * permissions.update scope and must belong to the app; the person behind it (or behind a user token, as the
 * official client sends) needs MANAGE_GUILD and MANAGE_ROLES in the guild. Publishes
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE to the app's bot.
 */
export async function setPermissions(
  ctx: Ctx,
  actor: Actor,
  applicationId: string,
  guildId: string,
  commandId: string,
  body: unknown,
): Promise<GuildCommandPermissions> {
  if (actor.kind === 'bot') throw Errors.botsCannotUse();
  const app = isSnowflake(applicationId) ? await getApplication(ctx, applicationId) : null;
  if (!app) throw Errors.unknownApplication();
  if (actor.kind === 'bearer') {
    if (actor.applicationId !== app.id) throw Errors.notAppOwner();
    if (!actor.scopes.includes(PERMISSIONS_SCOPE)) throw Errors.missingScope();
  }
  await requireAppInGuild(ctx, app, guildId);
  const perms = await ctx.access.guildPerms(guildId, actor.user.id);
  if (perms === null) throw Errors.missingAccess();
  if (!ctx.access.hasPerm(perms, P.MANAGE_GUILD | P.MANAGE_ROLES)) throw Errors.missingPermissions();
  await requireTarget(ctx, app, guildId, commandId);
  const permissions = await parseOverwrites(ctx, guildId, body);
  const previous = await storedCommandPermissions(ctx, app.id, guildId, commandId);
  await ctx.repos.commands.setOverwrites(app.id, guildId, commandId, permissions);
  await auditCommandPermissions(ctx, actor.user.id, guildId, app.id, commandId, previous, permissions);
  const out = wire(app.id, guildId, commandId, permissions);
  if (app.bot_user_id) ctx.bus.publish({ t: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', d: out, guild_id: guildId, user_ids: [app.bot_user_id] });
  return out;
}

/** `{permissions: [{id, type, permission}]}`, ≤ 100, each naming a role, user or channel of the guild (or a constant). */
async function parseOverwrites(ctx: Ctx, guildId: string, body: unknown): Promise<CommandPermission[]> {
  const c = new Checker();
  const b = c.obj(body, []);
  const list = b ? (c.arr(b.permissions, ['permissions'], 0, MAX_PERMISSION_OVERWRITES) ?? []) : [];
  const out: CommandPermission[] = [];
  const seen = new Set<string>();
  list.forEach((v, i) => {
    const p = ['permissions', i];
    const o = c.obj(v, p);
    if (!o) return;
    const id = c.snowflake(o, 'id', p, true);
    const type = c.oneOf(o, 'type', p, Object.values(PermissionType), true);
    const permission = c.bool(o, 'permission', p);
    if (o.permission == null) c.required([...p, 'permission']);
    if (id === undefined || type === undefined || permission === undefined) return;
    if (seen.has(`${type}:${id}`)) c.add([...p, 'id'], 'APPLICATION_COMMAND_PERMISSIONS_DUPLICATE', 'Each id may have one overwrite per type.');
    seen.add(`${type}:${id}`);
    out.push({ id, type, permission });
  });
  c.throwIfAny();
  const roleIds = out.filter((o) => o.type === PermissionType.ROLE && o.id !== guildId).map((o) => o.id);
  const channelIds = out.filter((o) => o.type === PermissionType.CHANNEL && o.id !== allChannelsId(guildId)).map((o) => o.id);
  const [roles, channels] = await Promise.all([ctx.repos.roles.idsInGuild(guildId, roleIds), ctx.repos.channels.idsInGuild(guildId, channelIds)]);
  const knownRoles = new Set(roles);
  const knownChannels = new Set(channels);
  out.forEach((o, i) => {
    if (o.type === PermissionType.ROLE && o.id !== guildId && !knownRoles.has(o.id))
      c.add(['permissions', i, 'id'], 'APPLICATION_COMMAND_PERMISSIONS_INVALID_ID', 'Unknown role.');
    if (o.type === PermissionType.CHANNEL && o.id !== allChannelsId(guildId) && !knownChannels.has(o.id))
      c.add(['permissions', i, 'id'], 'APPLICATION_COMMAND_PERMISSIONS_INVALID_ID', 'Unknown channel.');
  });
  c.throwIfAny();
  return out;
}

/** The overwrites that apply to one command in a guild: its own set and the app-wide set (null when none). */
export async function commandPermissionsFor(
  ctx: Ctx,
  applicationId: string,
  guildId: string,
  commandId: string,
): Promise<{ command: CommandPermission[] | null; application: CommandPermission[] | null }> {
  const rows = await ctx.repos.commands.overwrites(applicationId, guildId, [commandId, applicationId]);
  const get = (id: string) => rows.find((x) => x.command_id === id)?.permissions ?? null;
  return { command: commandId === applicationId ? null : get(commandId), application: get(applicationId) };
}

export interface UseCheck {
  command: CommandRecord;
  guildId: string;
  userId: string;
  /** When given, channel overwrites are applied too. */
  channelId?: string | null;
  /** The overwrites, when the caller already loaded them (the command index loads them in bulk). */
  overwrites?: { command: CommandPermission[] | null; application: CommandPermission[] | null };
}

/**
 * Whether a member may use a command in a guild. The owner and ADMINISTRATOR always may. A channel overwrite
 * (the command's own, else the app's; the channel's, else "all channels") that denies wins. Then the first level
 * (command, then app) whose user or role overwrites apply decides: the user's entry, else any allowing role, else
 * the @everyone entry. Without one, `default_member_permissions` decides (null = everyone, "0" = admins only).
 */
export async function canUseCommand(ctx: Ctx, check: UseCheck): Promise<boolean> {
  const { command, guildId, userId } = check;
  const perms = await ctx.access.guildPerms(guildId, userId);
  if (perms === null) return false;
  if ((await ctx.access.ownerId(guildId)) === userId || (perms & P.ADMINISTRATOR) === P.ADMINISTRATOR) return true;
  const sets = check.overwrites ?? (await commandPermissionsFor(ctx, command.application_id, guildId, command.id));
  const levels = [sets.command, sets.application].filter((x): x is CommandPermission[] => !!x);

  if (check.channelId) {
    for (const level of levels) {
      const entry =
        level.find((o) => o.type === PermissionType.CHANNEL && o.id === check.channelId) ??
        level.find((o) => o.type === PermissionType.CHANNEL && o.id === allChannelsId(guildId));
      if (entry) {
        if (!entry.permission) return false;
        break;
      }
    }
  }

  const member = await ctx.repos.members.get(guildId, userId);
  const roles = new Set<string>(member?.roles ?? []);
  for (const level of levels) {
    const user = level.find((o) => o.type === PermissionType.USER && o.id === userId);
    if (user) return user.permission;
    const roleEntries = level.filter((o) => o.type === PermissionType.ROLE && roles.has(o.id));
    if (roleEntries.length) return roleEntries.some((o) => o.permission);
    const everyone = level.find((o) => o.type === PermissionType.ROLE && o.id === guildId);
    if (everyone) return everyone.permission;
  }
  const dmp = command.default_member_permissions;
  if (dmp === null) return true;
  if (dmp === '0') return false;
  return has(perms, BigInt(dmp), ctx.clock.now());
}
