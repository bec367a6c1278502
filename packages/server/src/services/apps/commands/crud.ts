import type { Actor, Ctx } from '../../context.js';
import { ApiError, Errors, formError } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../../store/records.js';
import { getApplication } from '../../identity/applications.js';
import { isInstalledInGuild } from '../../identity/oauth2/grants.js';
import { Checker } from '../components/check.js';
import { commandDataJson } from '../../../store/repos/commands.js';
import { COMMAND_LIMITS, type CommandData, type CommandRecord } from './types.js';
import { validateCommand, type ValidateOptions } from './validate.js';
import { spendDailyCreates } from './daily-creates.js';

export const CommandErrors = {
  unknownCommand: () => new ApiError(404, 10063, 'Unknown application command'),
  unknownPermissions: () => new ApiError(404, 10066, 'Unknown application command permissions'),
  maxCommands: () => new ApiError(400, 30032, 'Maximum number of application commands reached'),
  nameExists: () => new ApiError(400, 40041, 'An application command with that name already exists'),
};

const BULK_MAX = 200;

/**
 * The app whose commands the caller manages: its bot token, its owner's user token, or a Bearer token of the app
 * with `applications.commands.update` (reads also accept `applications.commands.permissions.update`).
 */
export async function requireCommandApp(ctx: Ctx, actor: Actor, applicationId: string, mode: 'read' | 'write'): Promise<ApplicationRecord> {
  if (!isSnowflake(applicationId)) throw Errors.unknownApplication();
  const app = await getApplication(ctx, applicationId);
  if (!app) throw Errors.unknownApplication();
  if (actor.kind === 'bearer') {
    if (actor.applicationId !== app.id) throw Errors.notAppOwner();
    const ok = actor.scopes.includes('applications.commands.update') || (mode === 'read' && actor.scopes.includes('applications.commands.permissions.update'));
    if (!ok) throw Errors.missingScope();
    return app;
  }
  if (actor.kind === 'bot' ? app.bot_user_id !== actor.user.id : app.owner_id !== actor.user.id) throw Errors.notAppOwner();
  return app;
}

/** Guild commands need the app installed in the guild (bot or `applications.commands`): 50001 otherwise (unknown guilds included). */
export async function requireAppInGuild(ctx: Ctx, app: ApplicationRecord, guildId: string): Promise<void> {
  if (!isSnowflake(guildId) || !(await isInstalledInGuild(ctx, app, guildId))) throw Errors.missingAccess();
}

/** The app's supported installation contexts: the keys of `integration_types_config` (default GUILD_INSTALL). */
export function defaultIntegrationTypes(app: ApplicationRecord): number[] {
  const config = app.extra.integration_types_config ?? { '0': {} };
  const types = Object.keys(config)
    .map(Number)
    .filter((n) => n === 0 || n === 1)
    .sort();
  return types.length ? types : [0];
}

function validateOpts(app: ApplicationRecord, guildId: string | null, fixedType?: number): ValidateOptions {
  return { scope: guildId === null ? 'global' : 'guild', defaultIntegrationTypes: defaultIntegrationTypes(app), fixedType };
}

function record(app: ApplicationRecord, guildId: string | null, id: string, version: string, data: CommandData): CommandRecord {
  return { ...data, id, application_id: app.id, guild_id: guildId, version };
}

export async function listCommands(ctx: Ctx, app: ApplicationRecord, guildId: string | null): Promise<CommandRecord[]> {
  return ctx.repos.commands.ofScope(app.id, guildId);
}

/** A command of exactly this scope, or 10063. */
export async function getScopedCommand(ctx: Ctx, app: ApplicationRecord, guildId: string | null, commandId: string): Promise<CommandRecord> {
  const cmd = isSnowflake(commandId) ? await ctx.repos.commands.byId(app.id, commandId) : null;
  if (!cmd || cmd.guild_id !== guildId) throw CommandErrors.unknownCommand();
  return cmd;
}

/**
 * POST: a command whose name and type already exist in the scope is overwritten in place (same id, new version,
 * `created: false` → 200); otherwise a new one is made (201), within the per-type limit (30032) and the 200 creates per
 * day (30034, daily-creates.ts).
 */
export async function createCommand(
  ctx: Ctx,
  app: ApplicationRecord,
  guildId: string | null,
  body: unknown,
): Promise<{ command: CommandRecord; created: boolean }> {
  const c = new Checker();
  const data = validateCommand(c, body, [], validateOpts(app, guildId));
  c.throwIfAny();
  const existing = await ctx.repos.commands.ofScope(app.id, guildId);
  const same = existing.find((x) => x.type === data!.type && x.name === data!.name);
  if (same) {
    const cmd = record(app, guildId, same.id, ctx.ids.next(), data!);
    await ctx.repos.commands.update(cmd);
    return { command: cmd, created: false };
  }
  if (existing.filter((x) => x.type === data!.type).length >= COMMAND_LIMITS[data!.type]) throw CommandErrors.maxCommands();
  const cmd = record(app, guildId, ctx.ids.next(), ctx.ids.next(), data!);
  const now = ctx.clock.now();
  await ctx.repos.transaction(async (tx) => {
    await spendDailyCreates(tx, () => ctx.ids.next(), app.id, guildId, 1, now);
    await tx.commands.insert(cmd, now);
  });
  return { command: cmd, created: true };
}

/** PATCH: the given fields replace the stored ones (null clears), then the whole command is validated again. */
export async function patchCommand(ctx: Ctx, app: ApplicationRecord, guildId: string | null, commandId: string, body: unknown): Promise<CommandRecord> {
  const current = await getScopedCommand(ctx, app, guildId, commandId);
  const c = new Checker();
  const patch = c.obj(body, []);
  c.throwIfAny();
  const { id: _id, application_id: _a, guild_id: _g, version: _v, ...stored } = current;
  const merged: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(patch!)) if (v !== undefined && k !== 'type') merged[k] = v;
  const data = validateCommand(c, merged, [], validateOpts(app, guildId, current.type));
  c.throwIfAny();
  if (data!.name !== current.name) {
    const clash = (await ctx.repos.commands.ofScope(app.id, guildId)).some((x) => x.id !== current.id && x.type === current.type && x.name === data!.name);
    if (clash) throw CommandErrors.nameExists();
  }
  const cmd = record(app, guildId, current.id, ctx.ids.next(), data!);
  await ctx.repos.commands.update(cmd);
  return cmd;
}

export async function deleteCommand(ctx: Ctx, app: ApplicationRecord, guildId: string | null, commandId: string): Promise<void> {
  const cmd = await getScopedCommand(ctx, app, guildId, commandId);
  await ctx.repos.commands.deleteWithPermissions(app.id, [cmd.id]);
}

/**
 * PUT: the list becomes the scope's whole set, in one transaction. An item keeps the id of the existing command it
 * names by `id`, or else by name and type; the version changes only when the command does. Commands left out are
 * deleted with their permission overwrites.
 */
export async function bulkOverwrite(ctx: Ctx, app: ApplicationRecord, guildId: string | null, body: unknown): Promise<CommandRecord[]> {
  const c = new Checker();
  if (!Array.isArray(body)) throw formError([{ path: [], code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' }]);
  if (body.length > BULK_MAX) throw formError([{ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${BULK_MAX} or fewer in length.` }]);
  const opts = validateOpts(app, guildId);
  const items = body.map((item, i) => validateCommand(c, item, [i], opts));
  const seen = new Set<string>();
  items.forEach((d, i) => {
    if (!d) return;
    const key = `${d.type}:${d.name}`;
    if (seen.has(key)) c.add([i], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
    seen.add(key);
  });
  c.throwIfAny();
  const data = items as CommandData[];
  for (const [type, limit] of Object.entries(COMMAND_LIMITS)) {
    if (data.filter((d) => d.type === Number(type)).length > limit) throw CommandErrors.maxCommands();
  }

  const existing = await ctx.repos.commands.ofScope(app.id, guildId);
  const byId = new Map(existing.map((x) => [x.id, x]));
  const used = new Set<string>();
  const plan = data.map((d, i) => {
    const raw = body[i] as { id?: unknown };
    let match: CommandRecord | undefined;
    const wanted = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : undefined;
    if (wanted && byId.get(wanted)?.type === d.type && !used.has(wanted)) match = byId.get(wanted);
    match ??= existing.find((x) => !used.has(x.id) && x.type === d.type && x.name === d.name);
    if (match) used.add(match.id);
    return { d, match };
  });
  const now = ctx.clock.now();
  const result: CommandRecord[] = [];
  await ctx.repos.transaction(async (tx) => {
    await spendDailyCreates(tx, () => ctx.ids.next(), app.id, guildId, plan.filter((p) => !p.match).length, now);
    await tx.commands.deleteWithPermissions(
      app.id,
      existing.filter((x) => !used.has(x.id)).map((x) => x.id),
    );
    for (const { d, match } of plan) {
      if (match) {
        const unchanged = commandDataJson(match) === commandDataJson(d);
        const cmd = record(app, guildId, match.id, unchanged ? match.version : ctx.ids.next(), d);
        if (!unchanged) await tx.commands.update(cmd);
        result.push(cmd);
      } else {
        const cmd = record(app, guildId, ctx.ids.next(), ctx.ids.next(), d);
        await tx.commands.insert(cmd, now);
        result.push(cmd);
      }
    }
  });
  return result;
}

/**
 * The default Entry Point command an app gets when its Activities are enabled (flag EMBEDDED): a global
 * PRIMARY_ENTRY_POINT named "Launch" with handler DISCORD_LAUNCH_ACTIVITY, unless the app already has one.
 */
export async function ensureEntryPoint(ctx: Ctx, app: ApplicationRecord): Promise<CommandRecord> {
  const existing = (await ctx.repos.commands.ofScope(app.id, null)).find((x) => x.type === 4);
  if (existing) return existing;
  const data: CommandData = {
    type: 4,
    name: 'Launch',
    name_localizations: null,
    description: '',
    description_localizations: null,
    options: [],
    default_member_permissions: null,
    nsfw: false,
    dm_permission: true,
    contexts: null,
    integration_types: defaultIntegrationTypes(app),
    handler: 2,
  };
  const cmd = record(app, null, ctx.ids.next(), ctx.ids.next(), data);
  await ctx.repos.commands.insert(cmd, ctx.clock.now());
  return cmd;
}
