import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { checkId, isId } from '../../core/ids.js';
import { P } from '@accord/protocol';
import { channel as channelWire } from '../../wire/channel.js';
import { publicUser } from '../../wire/user.js';
import { webhook as webhookWire } from '../../wire/webhook.js';
import { eventsByIds } from '../events/scheduled-events.js';
import { partialIntegrations } from '../guilds/integrations.js';
import { getUsers } from '../identity/users.js';
import { AUDIT_LOG_RETENTION_MS, KNOWN_TYPES, toEntry, type AuditLogEntry } from './audit-log.js';
import { rulesByIds } from './automod.js';

/**
 * Reading the audit log (GET /guilds/{id}/audit-logs) with the objects its entries reference. Kept apart from the
 * writer (audit-log.ts), which every service that changes a guild imports.
 */

export interface AuditLogQuery {
  user_id?: string;
  target_id?: string;
  action_type?: number;
  before?: string;
  after?: string;
  limit?: number;
}

/** Action types whose target is a user, whose users the response lists. */
const USER_TARGETS = new Set([20, 22, 23, 24, 25, 26, 27, 28, 72, 74, 75, 143, 144, 145, 146]);
const WEBHOOK_TARGETS = new Set([50, 51, 52]);
const THREAD_TARGETS = new Set([110, 111, 112]);
const EVENT_TARGETS = new Set([100, 101, 102, 200, 201, 202]);
const AUTOMOD_TARGETS = new Set([140, 141, 142]);
const INTEGRATION_TARGETS = new Set([80, 81, 82]);

/**
 * GET /guilds/{id}/audit-logs: VIEW_AUDIT_LOG. Newest first; with `after` (and no `before`) oldest first, as the docs
 * describe. Entries older than 45 days by the server clock are gone. Referenced users, webhooks, threads, events,
 * AutoMod rules and integrations that still exist come alongside.
 */
export async function listAuditLog(ctx: Ctx, actor: Actor, guildId: string, q: AuditLogQuery) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.VIEW_AUDIT_LOG);
  const limit = q.limit ?? 50;
  const empty = {
    audit_log_entries: [],
    users: [],
    integrations: [],
    webhooks: [],
    guild_scheduled_events: [],
    threads: [],
    application_commands: [],
    auto_moderation_rules: [],
  };
  for (const v of [q.user_id, q.before, q.after]) if (v !== undefined && !isId(v)) return empty;
  if (q.action_type !== undefined && !KNOWN_TYPES.has(q.action_type)) return empty;
  const rows = await ctx.repos.moderation.auditLogPage(guildId, {
    since: ctx.clock.now() - AUDIT_LOG_RETENTION_MS,
    user_id: q.user_id,
    target_id: q.target_id,
    action_type: q.action_type,
    before: q.before,
    after: q.after,
    limit,
  });
  const entries = rows.map(toEntry);
  return { ...empty, audit_log_entries: entries, ...(await referenced(ctx, guildId, entries)) };
}

async function referenced(ctx: Ctx, guildId: string, entries: AuditLogEntry[]) {
  const targets = (set: Set<number>) => [
    ...new Set(entries.filter((e) => set.has(e.action_type) && e.target_id && isId(e.target_id)).map((e) => e.target_id!)),
  ];
  const userIds = new Set<string>();
  for (const e of entries) {
    if (e.user_id) userIds.add(e.user_id);
    if (USER_TARGETS.has(e.action_type) && e.target_id && isId(e.target_id)) userIds.add(e.target_id);
  }
  const users = await getUsers(ctx, [...userIds]);

  const webhookIds = targets(WEBHOOK_TARGETS);
  const webhooks = webhookIds.length
    ? (await ctx.repos.webhooks.inGuildByIds(guildId, webhookIds)).map((w) => webhookWire(w, { withToken: false, baseUrl: ctx.publicUrl }))
    : [];

  const threadIds = targets(THREAD_TARGETS);
  const threads = threadIds.length ? (await ctx.repos.channels.inGuildByIds(guildId, threadIds)).map((c) => channelWire(c)) : [];

  const eventIds = targets(EVENT_TARGETS);
  const guild_scheduled_events = eventIds.length ? await eventsByIds(ctx, guildId, eventIds) : [];

  const ruleIds = targets(AUTOMOD_TARGETS);
  const auto_moderation_rules = ruleIds.length ? await rulesByIds(ctx, guildId, ruleIds) : [];

  const integrationIds = targets(INTEGRATION_TARGETS);
  const integrations = integrationIds.length ? await partialIntegrations(ctx, guildId, integrationIds) : [];

  return {
    users: [...users.values()].map(publicUser),
    webhooks,
    threads,
    guild_scheduled_events,
    auto_moderation_rules,
    integrations,
  };
}
