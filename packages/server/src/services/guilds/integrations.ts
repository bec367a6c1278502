import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ApplicationRecord, UserRecord } from '../../store/records.js';
import { publicUser } from '../../wire/user.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { checkId, isId } from '../../core/ids.js';
import { removeMember } from './membership.js';
import { getUsers } from '../identity/users.js';

/**
 * Guild integrations. Apps installed in a guild (their bot is a member, or they were installed with
 * `applications.commands` only) are integrations of type "discord"; the integration id is the application id.
 * INTEGRATION_CREATE / INTEGRATION_DELETE and GUILD_INTEGRATIONS_UPDATE go to sessions with GUILD_INTEGRATIONS.
 */

const unknownIntegration = () => new ApiError(404, 10005, 'Unknown Integration');
const WIRE_SCOPES = new Set(['applications.commands', 'bot', 'webhook.incoming']);

interface Installed {
  app: ApplicationRecord;
  scopes: string[];
  installerId: string | null;
}

async function installedApps(ctx: Ctx, guildId: string): Promise<Installed[]> {
  const [installs, bots] = await Promise.all([ctx.repos.applications.installsIn(guildId), ctx.repos.applications.botsIn(guildId)]);
  const byApp = new Map<string, Installed>();
  for (const app of bots) {
    byApp.set(app.id, { app, scopes: ['bot', 'applications.commands'], installerId: null });
  }
  const missing = installs.map((i) => i.application_id).filter((id) => !byApp.has(id));
  const extra = missing.length ? await ctx.repos.applications.listByIds(missing) : [];
  for (const app of extra) {
    byApp.set(app.id, { app, scopes: [], installerId: null });
  }
  for (const i of installs) {
    const entry = byApp.get(i.application_id);
    if (!entry) continue;
    const scopes = i.scopes.split(/\s+/).filter((s) => WIRE_SCOPES.has(s));
    entry.scopes = [...new Set([...(entry.scopes.includes('bot') ? ['bot'] : []), ...scopes])];
    entry.installerId = i.user_id;
  }
  return [...byApp.values()].sort((a, b) => (BigInt(a.app.id) < BigInt(b.app.id) ? -1 : 1));
}

function integrationWire(i: Installed, bots: Map<string, UserRecord>, installers: Map<string, UserRecord>) {
  const bot = i.app.bot_user_id ? bots.get(i.app.bot_user_id) : undefined;
  const installer = i.installerId ? installers.get(i.installerId) : undefined;
  return {
    id: i.app.id,
    name: i.app.name,
    type: 'discord' as const,
    enabled: true,
    account: { id: i.app.bot_user_id ?? i.app.id, name: i.app.name },
    application: {
      id: i.app.id,
      name: i.app.name,
      icon: i.app.icon,
      description: i.app.description,
      type: null,
      flags: Number(i.app.flags & 0x7fffffffn),
      flags_new: i.app.flags.toString(),
      ...(bot ? { bot: publicUser(bot) } : {}),
    },
    scopes: i.scopes.length ? i.scopes : ['applications.commands'],
    ...(installer ? { user: publicUser(installer) } : {}),
  };
}

async function render(ctx: Ctx, list: Installed[]) {
  const bots = await getUsers(
    ctx,
    list.map((i) => i.app.bot_user_id).filter((x): x is string => !!x),
  );
  const installers = await getUsers(
    ctx,
    list.map((i) => i.installerId).filter((x): x is string => !!x),
  );
  return list.map((i) => integrationWire(i, bots, installers));
}

/** GET /guilds/{id}/integrations: MANAGE_GUILD. */
export async function listIntegrations(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
  return render(ctx, await installedApps(ctx, guildId));
}

/** Partial integrations (id, type, name, account, application_id) for the audit log. */
export async function partialIntegrations(ctx: Ctx, guildId: string, ids: string[]) {
  const wanted = new Set(ids);
  return (await installedApps(ctx, guildId))
    .filter((i) => wanted.has(i.app.id))
    .map((i) => ({
      id: i.app.id,
      type: 'discord',
      name: i.app.name,
      account: { id: i.app.bot_user_id ?? i.app.id, name: i.app.name },
      application_id: i.app.id,
    }));
}

/**
 * DELETE /guilds/{id}/integrations/{integration_id}: MANAGE_GUILD. The app leaves: its bot is removed with its managed
 * role, and the install record goes.
 */
export async function deleteIntegration(ctx: Ctx, actor: Actor, guildId: string, integrationId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
  if (!isId(integrationId)) throw unknownIntegration();
  const found = (await installedApps(ctx, guildId)).find((i) => i.app.id === integrationId);
  if (!found) throw unknownIntegration();
  const [wire] = await render(ctx, [found]);
  const botId = found.app.bot_user_id;
  const roles = botId ? await ctx.repos.roles.managedIdsOfBot(guildId, botId) : [];
  await ctx.repos.transaction(async (tx) => {
    await tx.applications.deleteInstall(found.app.id, guildId);
    if (roles.length) await tx.roles.deleteByIds(roles);
  });
  if (botId) await removeMember(ctx, guildId, botId);
  ctx.access.invalidate(guildId);
  for (const roleId of roles) ctx.bus.publish({ t: 'GUILD_ROLE_DELETE', d: { guild_id: guildId, role_id: roleId }, guild_id: guildId });
  ctx.bus.publish({ t: 'INTEGRATION_DELETE', d: { id: found.app.id, guild_id: guildId, application_id: found.app.id }, guild_id: guildId });
  ctx.bus.publish({ t: 'GUILD_INTEGRATIONS_UPDATE', d: { guild_id: guildId }, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.INTEGRATION_DELETE,
    targetId: found.app.id,
    changes: auditChanges('integration', wire, null),
  });
}

/**
 * A bot joined through an install (bot-install.ts calls this): INTEGRATION_CREATE, GUILD_INTEGRATIONS_UPDATE, and the
 * audit entries BOT_ADD (28) and INTEGRATION_CREATE (80).
 */
export async function announceBotInstall(ctx: Ctx, guildId: string, applicationId: string, installerId: string): Promise<void> {
  try {
    const found = (await installedApps(ctx, guildId)).find((i) => i.app.id === applicationId);
    if (!found) return;
    found.installerId ??= installerId;
    const [wire] = await render(ctx, [found]);
    ctx.bus.publish({ t: 'INTEGRATION_CREATE', d: { ...wire, guild_id: guildId }, guild_id: guildId });
    ctx.bus.publish({ t: 'GUILD_INTEGRATIONS_UPDATE', d: { guild_id: guildId }, guild_id: guildId });
    if (found.app.bot_user_id) await writeAuditLog(ctx, { guildId, userId: installerId, actionType: AuditLogEvent.BOT_ADD, targetId: found.app.bot_user_id });
    await writeAuditLog(ctx, {
      guildId,
      userId: installerId,
      actionType: AuditLogEvent.INTEGRATION_CREATE,
      targetId: found.app.id,
      changes: auditChanges('integration', null, wire),
    });
  } catch (err) {
    if (ctx.config.logLevel !== 'silent') console.error('[integrations] install announcement failed', err);
  }
}
