import { regexRisk } from '../../core/regex-safety.js';
import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError, formError } from '../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import { parseBody, snowflake } from '../../core/validation.js';
import { parseJson } from '../../store/json.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from './audit-log.js';
import { isId } from '../../core/ids.js';
import { assertMessageChannel } from '../messages/channel.js';
import { normalizeEmbed } from '../messages/embeds.js';
import { insertMessage, messageRow } from '../messages/write.js';
import { getMember, memberView } from '../guilds/lookup.js';
import { watchForCache } from '../../bus/cache-watch.js';

/**
 * Auto Moderation: rules of every trigger type (KEYWORD 1, SPAM 3, KEYWORD_PRESET 4, MENTION_SPAM 5, MEMBER_PROFILE 6)
 * with the docs' limits, and their enforcement when members send or edit messages (MEMBER_PROFILE when members join
 * or change their nickname): BLOCK_MESSAGE, SEND_ALERT_MESSAGE, TIMEOUT and BLOCK_MEMBER_INTERACTION actions, each
 * announced as AUTO_MODERATION_ACTION_EXECUTION and written to the audit log. Rule changes publish
 * AUTO_MODERATION_RULE_* to sessions with MANAGE_GUILD, and are audited (140-142).
 */

export const TriggerType = { KEYWORD: 1, SPAM: 3, KEYWORD_PRESET: 4, MENTION_SPAM: 5, MEMBER_PROFILE: 6 } as const;
export const ActionType = { BLOCK_MESSAGE: 1, SEND_ALERT_MESSAGE: 2, TIMEOUT: 3, BLOCK_MEMBER_INTERACTION: 4 } as const;
const MESSAGE_SEND = 1;
const MEMBER_UPDATE = 2;
/** Rules per guild by trigger type. */
const MAX_PER_TYPE: Record<number, number> = { 1: 6, 3: 1, 4: 1, 5: 1, 6: 1 };
/** Which actions each trigger type accepts. */
const ACTIONS_FOR: Record<number, number[]> = { 1: [1, 2, 3], 3: [1, 2], 4: [1, 2], 5: [1, 2, 3], 6: [2, 4] };
const EVENT_FOR: Record<number, number> = { 1: MESSAGE_SEND, 3: MESSAGE_SEND, 4: MESSAGE_SEND, 5: MESSAGE_SEND, 6: MEMBER_UPDATE };
const MAX_TIMEOUT_S = 2419200;
/** AUTOMOD_QUARANTINED_USERNAME member flag. */
const QUARANTINED_USERNAME = 1 << 7;

const keyword = z.string().min(1).max(60);
const Metadata = z.object({
  keyword_filter: z.array(keyword).max(1000).nullable().optional(),
  regex_patterns: z.array(z.string().min(1).max(260)).max(10).nullable().optional(),
  presets: z
    .array(z.literal([1, 2, 3]))
    .max(3)
    .nullable()
    .optional(),
  allow_list: z.array(keyword).max(1000).nullable().optional(),
  mention_total_limit: z.number().int().min(0).max(50).nullable().optional(),
  mention_raid_protection_enabled: z.boolean().nullable().optional(),
});
const Action = z.object({
  type: z.literal([1, 2, 3, 4]),
  metadata: z
    .object({
      channel_id: snowflake.optional(),
      duration_seconds: z.number().int().min(0).max(MAX_TIMEOUT_S).nullable().optional(),
      custom_message: z.string().max(300).nullable().optional(),
    })
    .nullable()
    .optional(),
});
const RuleBody = z.object({
  name: z.string().min(1).max(100),
  event_type: z.literal([1, 2]),
  trigger_type: z.literal([1, 3, 4, 5, 6]),
  trigger_metadata: Metadata.nullable().optional(),
  actions: z.array(Action).min(1).max(5),
  enabled: z.boolean().nullable().optional(),
  exempt_roles: z.array(snowflake).max(20).nullable().optional(),
  exempt_channels: z.array(snowflake).max(50).nullable().optional(),
});
const PatchBody = RuleBody.omit({ trigger_type: true }).partial();

type MetadataIn = z.infer<typeof Metadata>;
type ActionIn = z.infer<typeof Action>;

export interface AutomodRule {
  id: string;
  guild_id: string;
  name: string;
  creator_id: string;
  event_type: number;
  trigger_type: number;
  trigger_metadata: Record<string, any>;
  actions: { type: number; metadata: Record<string, unknown> }[];
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

const unknownRule = () => new ApiError(404, 0, 'Unknown auto moderation rule');
export const automodBlocked = () => new ApiError(400, 200000, 'Message was blocked by automatic moderation');

/** The trigger metadata a rule of this type carries on the wire. */
function metadataFor(type: number, m: Record<string, any> | null | undefined): Record<string, any> {
  const d = m ?? {};
  switch (type) {
    case TriggerType.KEYWORD:
    case TriggerType.MEMBER_PROFILE:
      return { keyword_filter: d.keyword_filter ?? [], regex_patterns: d.regex_patterns ?? [], allow_list: d.allow_list ?? [] };
    case TriggerType.KEYWORD_PRESET:
      return { allow_list: d.allow_list ?? [], presets: d.presets ?? [] };
    case TriggerType.MENTION_SPAM:
      return { mention_total_limit: d.mention_total_limit ?? 0, mention_raid_protection_enabled: d.mention_raid_protection_enabled ?? false };
    default:
      return {};
  }
}

function actionWire(a: { type: number; metadata?: Record<string, any> | null }) {
  const m = a.metadata ?? {};
  switch (a.type) {
    case ActionType.BLOCK_MESSAGE:
      return { type: a.type, metadata: m.custom_message ? { custom_message: m.custom_message } : {} };
    case ActionType.SEND_ALERT_MESSAGE:
      return { type: a.type, metadata: { channel_id: String(m.channel_id ?? '') } };
    case ActionType.TIMEOUT:
      return { type: a.type, metadata: { duration_seconds: Number(m.duration_seconds ?? 0) } };
    default:
      return { type: a.type, metadata: {} };
  }
}

function toRule(r: { id: unknown; guild_id: unknown; creator_id: unknown; data: string; enabled: unknown }): AutomodRule {
  const d = parseJson<Record<string, any>>(r.data, {});
  const type = d.trigger_type ?? TriggerType.KEYWORD;
  return {
    id: String(r.id),
    guild_id: String(r.guild_id),
    name: d.name ?? '',
    creator_id: String(r.creator_id),
    event_type: d.event_type ?? EVENT_FOR[type] ?? MESSAGE_SEND,
    trigger_type: type,
    trigger_metadata: metadataFor(type, d.trigger_metadata),
    actions: (d.actions ?? []).map(actionWire),
    enabled: Number(r.enabled) === 1,
    exempt_roles: d.exempt_roles ?? [],
    exempt_channels: d.exempt_channels ?? [],
  };
}

async function requireManager(ctx: Ctx, actor: Actor, guildId: string): Promise<bigint> {
  if (!isId(guildId)) throw Errors.unknownGuild();
  return ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
}

async function loadRules(ctx: Ctx, guildId: string): Promise<AutomodRule[]> {
  return (await ctx.repos.moderation.automodRulesOf(guildId)).map(toRule);
}

/**
 * Rules per guild for the checks on every message and join, kept in memory and dropped when the bus reports a rule
 * change (from any process). Admin reads always go to the store.
 */
const ruleCaches = new WeakMap<Ctx, Map<string, Promise<AutomodRule[]>>>();
function cachedRules(ctx: Ctx, guildId: string): Promise<AutomodRule[]> {
  let cache = ruleCaches.get(ctx);
  if (!cache) {
    const c = (cache = new Map());
    ruleCaches.set(ctx, c);
    ctx.bus.subscribe(
      (e) => {
        if (e.guild_id && (e.t.startsWith('AUTO_MODERATION_RULE_') || e.t === 'GUILD_DELETE')) c.delete(e.guild_id);
      },
      { remote: true },
    );
  }
  let rules = cache.get(guildId);
  if (!rules) {
    rules = watchForCache(ctx.bus, `guild-changes:${guildId}`).then(() => loadRules(ctx, guildId));
    cache.set(guildId, rules);
    rules.catch(() => cache!.delete(guildId));
  }
  return rules;
}

export async function listRules(ctx: Ctx, actor: Actor, guildId: string): Promise<AutomodRule[]> {
  await requireManager(ctx, actor, guildId);
  return loadRules(ctx, guildId);
}

async function loadRule(ctx: Ctx, guildId: string, ruleId: string): Promise<AutomodRule> {
  if (!isId(ruleId)) throw unknownRule();
  const row = await ctx.repos.moderation.automodRule(guildId, ruleId);
  if (!row) throw unknownRule();
  return toRule(row);
}

export async function getRule(ctx: Ctx, actor: Actor, guildId: string, ruleId: string): Promise<AutomodRule> {
  await requireManager(ctx, actor, guildId);
  return loadRule(ctx, guildId, ruleId);
}

/** Rules by id, for the audit log's references. */
export async function rulesByIds(ctx: Ctx, guildId: string, ids: string[]): Promise<AutomodRule[]> {
  const ok = ids.filter(isId);
  if (!ok.length) return [];
  return (await ctx.repos.moderation.automodRulesByIds(guildId, ok)).map(toRule);
}

interface RuleDraft {
  name: string;
  event_type: number;
  trigger_type: number;
  trigger_metadata: MetadataIn | null | undefined;
  actions: ActionIn[];
  exempt_roles: string[];
  exempt_channels: string[];
}

/** The checks that span fields: event type, actions per trigger type, list limits, regexes, referenced ids. */
async function checkDraft(ctx: Ctx, guildId: string, perms: bigint, d: RuleDraft): Promise<Record<string, any>> {
  const type = d.trigger_type;
  if (d.event_type !== EVENT_FOR[type]) throw fieldError('event_type', 'AUTO_MODERATION_INVALID_EVENT_TYPE', 'Invalid event type for this trigger type.');
  const m = d.trigger_metadata ?? {};
  const meta = metadataFor(type, m);
  if (type === TriggerType.KEYWORD || type === TriggerType.MEMBER_PROFILE) {
    if ((m.allow_list?.length ?? 0) > 100) throw fieldError(['trigger_metadata', 'allow_list'], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
    for (const [i, p] of (m.regex_patterns ?? []).entries()) {
      try {
        new RegExp(p, 'iu');
        if (regexRisk(p)) throw new Error('unsafe');
      } catch {
        throw fieldError(['trigger_metadata', 'regex_patterns', i], 'AUTO_MODERATION_INVALID_REGEX', 'Invalid regex pattern.');
      }
    }
  }
  if (type === TriggerType.KEYWORD_PRESET && !m.presets?.length)
    throw fieldError(['trigger_metadata', 'presets'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (type === TriggerType.MENTION_SPAM && m.mention_total_limit == null && !m.mention_raid_protection_enabled) {
    throw fieldError(['trigger_metadata', 'mention_total_limit'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const actions = [];
  for (const [i, a] of d.actions.entries()) {
    if (!ACTIONS_FOR[type].includes(a.type))
      throw fieldError(['actions', i, 'type'], 'AUTO_MODERATION_INVALID_ACTION_TYPE', 'This action type is not allowed for this trigger type.');
    const md = a.metadata ?? {};
    if (a.type === ActionType.SEND_ALERT_MESSAGE) {
      const channelId = md.channel_id;
      const ch = channelId && isId(channelId) ? await ctx.repos.channels.inGuildById(guildId, channelId) : undefined;
      if (!ch || ![0, 5].includes(ch.type)) throw fieldError(['actions', i, 'metadata', 'channel_id'], 'CHANNEL_INVALID', 'Invalid channel.');
    }
    if (a.type === ActionType.TIMEOUT) {
      if (md.duration_seconds == null) throw fieldError(['actions', i, 'metadata', 'duration_seconds'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (!ctx.access.hasPerm(perms, P.MODERATE_MEMBERS)) throw Errors.missingPermissions();
    }
    actions.push(actionWire(a));
  }
  const roles = [...new Set(d.exempt_roles)];
  if (roles.length) {
    const found = new Set(await ctx.repos.roles.idsAmongInGuild(guildId, roles.filter(isId)));
    const bad = roles.findIndex((r) => !found.has(r));
    if (bad >= 0) throw formError([{ path: ['exempt_roles', bad], code: 'ROLE_INVALID', message: 'Invalid role.' }]);
  }
  const channels = [...new Set(d.exempt_channels)];
  if (channels.length) {
    const found = new Set(await ctx.repos.channels.idsAmongInGuild(guildId, channels.filter(isId)));
    const bad = channels.findIndex((c) => !found.has(c));
    if (bad >= 0) throw formError([{ path: ['exempt_channels', bad], code: 'CHANNEL_INVALID', message: 'Invalid channel.' }]);
  }
  return { name: d.name, event_type: d.event_type, trigger_type: type, trigger_metadata: meta, actions, exempt_roles: roles, exempt_channels: channels };
}

function publishRule(ctx: Ctx, t: string, rule: AutomodRule) {
  ctx.bus.publish({ t, d: rule, guild_id: rule.guild_id, permission: P.MANAGE_GUILD.toString() });
}

/** POST /guilds/{id}/auto-moderation/rules (MANAGE_GUILD). Rules start disabled unless `enabled` says otherwise. */
export async function createRule(ctx: Ctx, actor: Actor, guildId: string, body: unknown): Promise<AutomodRule> {
  const perms = await requireManager(ctx, actor, guildId);
  const b = parseBody(RuleBody, body);
  const data = await checkDraft(ctx, guildId, perms, {
    name: b.name,
    event_type: b.event_type,
    trigger_type: b.trigger_type,
    trigger_metadata: b.trigger_metadata,
    actions: b.actions,
    exempt_roles: b.exempt_roles ?? [],
    exempt_channels: b.exempt_channels ?? [],
  });
  const count = (await loadRules(ctx, guildId)).filter((r) => r.trigger_type === b.trigger_type).length;
  const max = MAX_PER_TYPE[b.trigger_type];
  if (count >= max)
    throw fieldError('trigger_type', 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED', `Maximum number of rules of this trigger type reached (${max}).`);
  const row = { id: ctx.ids.next(), guild_id: guildId, creator_id: actor.user.id, data: JSON.stringify(data), enabled: b.enabled ? 1 : 0 };
  await ctx.repos.moderation.insertAutomodRule(row);
  const rule = toRule(row);
  publishRule(ctx, 'AUTO_MODERATION_RULE_CREATE', rule);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.AUTO_MODERATION_RULE_CREATE,
    targetId: rule.id,
    changes: auditChanges('automod', null, rule),
  });
  return rule;
}

/** PATCH /guilds/{id}/auto-moderation/rules/{rule_id}: every field but the trigger type. */
export async function updateRule(ctx: Ctx, actor: Actor, guildId: string, ruleId: string, body: unknown): Promise<AutomodRule> {
  const perms = await requireManager(ctx, actor, guildId);
  const rule = await loadRule(ctx, guildId, ruleId);
  const b = parseBody(PatchBody, body);
  const data = await checkDraft(ctx, guildId, perms, {
    name: b.name ?? rule.name,
    event_type: b.event_type ?? rule.event_type,
    trigger_type: rule.trigger_type,
    trigger_metadata: b.trigger_metadata !== undefined ? b.trigger_metadata : (rule.trigger_metadata as MetadataIn),
    actions: b.actions ?? (rule.actions as ActionIn[]),
    exempt_roles: b.exempt_roles !== undefined ? (b.exempt_roles ?? []) : rule.exempt_roles,
    exempt_channels: b.exempt_channels !== undefined ? (b.exempt_channels ?? []) : rule.exempt_channels,
  });
  const enabled = b.enabled == null ? (rule.enabled ? 1 : 0) : b.enabled ? 1 : 0;
  await ctx.repos.moderation.updateAutomodRule(rule.id, JSON.stringify(data), enabled);
  const next = toRule({ id: rule.id, guild_id: guildId, creator_id: rule.creator_id, data: JSON.stringify(data), enabled });
  publishRule(ctx, 'AUTO_MODERATION_RULE_UPDATE', next);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.AUTO_MODERATION_RULE_UPDATE,
    targetId: rule.id,
    changes: auditChanges('automod', rule, next),
  });
  return next;
}

export async function deleteRule(ctx: Ctx, actor: Actor, guildId: string, ruleId: string): Promise<void> {
  const rule = await getRule(ctx, actor, guildId, ruleId);
  await ctx.repos.moderation.deleteAutomodRule(rule.id);
  publishRule(ctx, 'AUTO_MODERATION_RULE_DELETE', rule);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.AUTO_MODERATION_RULE_DELETE,
    targetId: rule.id,
    changes: auditChanges('automod', rule, null),
  });
}

// ---- matching ---------------------------------------------------------------------------------------------------

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A keyword as a matcher: case-insensitive, whole words unless `*` at an end makes it a prefix (`cat*`), a suffix
 * (`*cat`) or a substring (`*cat*`) match.
 */
function keywordMatcher(keyword: string, flags = 'iu'): RegExp | null {
  const lead = keyword.startsWith('*');
  const trail = keyword.length > 1 && keyword.endsWith('*');
  const core = keyword.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (!core) return null;
  const before = lead ? '' : '(?<![\\p{L}\\p{N}_])';
  const after = trail ? '' : '(?![\\p{L}\\p{N}_])';
  return new RegExp(`${before}${escape(core)}${after}`, flags);
}

/** The built-in word sets of KEYWORD_PRESET (small samples; keywords use the same wildcard rules). */
const PRESETS: Record<number, string[]> = {
  1: ['fuck*', '*fucking*', 'shit*', 'bullshit', 'asshole*', 'bastard*', 'bitch*', 'damnit', 'goddamn*', 'crap'],
  2: ['porn*', 'nsfw', 'xxx', 'nude*', 'nudes', 'sexting', 'hentai'],
  3: ['retard*', 'tranny', 'faggot*'],
};

interface Match {
  keyword: string | null;
  content: string;
}

function stripAllowed(text: string, allow: string[]): string {
  let out = text;
  for (const allowed of allow) {
    const m = keywordMatcher(allowed, 'giu');
    if (m) out = out.replace(m, ' ');
  }
  return out;
}

function matchKeywords(text: string, keywords: string[], patterns: string[]): Match | null {
  for (const k of keywords) {
    const m = keywordMatcher(k)?.exec(text);
    if (m) return { keyword: k, content: m[0] };
  }
  for (const p of patterns) {
    if (regexRisk(p)) continue; // saved before the check: never run a pattern that can backtrack without end
    try {
      const m = new RegExp(p, 'iu').exec(text);
      if (m) return { keyword: p, content: m[0] };
    } catch {
      /* stored patterns were validated */
    }
  }
  return null;
}

/** Unique user and role mentions in message content. */
export function countMentions(content: string): number {
  const ids = new Set<string>();
  for (const m of content.matchAll(/<@(!|&)?(\d{1,20})>/g)) ids.add(`${m[1] === '&' ? 'r' : 'u'}${m[2]}`);
  return ids.size;
}

/** The SPAM heuristic: a wall of links, or one character repeated at length (the platform uses a model; unverified). */
function looksLikeSpam(content: string): Match | null {
  const links = content.match(/https?:\/\/\S+/gi) ?? [];
  if (links.length >= 5) return { keyword: null, content: links.slice(0, 5).join(' ') };
  const run = /(\S)\1{29,}/u.exec(content);
  if (run) return { keyword: null, content: run[0].slice(0, 60) };
  return null;
}

function triggers(rule: AutomodRule, content: string): Match | null {
  const m = rule.trigger_metadata;
  switch (rule.trigger_type) {
    case TriggerType.KEYWORD:
    case TriggerType.MEMBER_PROFILE:
      return matchKeywords(stripAllowed(content, m.allow_list ?? []), m.keyword_filter ?? [], m.regex_patterns ?? []);
    case TriggerType.KEYWORD_PRESET:
      return matchKeywords(
        stripAllowed(content, m.allow_list ?? []),
        (m.presets ?? []).flatMap((p: number) => PRESETS[p] ?? []),
        [],
      );
    case TriggerType.MENTION_SPAM: {
      const limit = Number(m.mention_total_limit ?? 0);
      const n = countMentions(content);
      return limit > 0 && n > limit ? { keyword: null, content: '' } : null;
    }
    case TriggerType.SPAM:
      return looksLikeSpam(content);
    default:
      return null;
  }
}

export interface AutomodScope {
  channelId?: string | null;
  /** Role ids of the author, for `exempt_roles` (looked up from `userId` when absent). */
  roleIds?: string[];
  /** The author: actions that target a member (timeouts, alerts, audit entries) need it. */
  userId?: string | null;
}

async function rolesOf(ctx: Ctx, guildId: string, userId: string): Promise<string[]> {
  return ctx.repos.members.roleIdsOf(guildId, userId);
}

/**
 * Whether enabled MESSAGE_SEND rules block this content in the guild. Every triggered rule's actions run: alerts are
 * posted, timeouts applied, AUTO_MODERATION_ACTION_EXECUTION published and audit entries written, whether or not the
 * message ends up blocked. Exempt channels and roles are honoured.
 */
export async function automodBlocks(ctx: Ctx, guildId: string | null, content: string | null | undefined, scope: AutomodScope = {}): Promise<boolean> {
  if (!guildId || !content || !isId(guildId)) return false;
  const rules = (await cachedRules(ctx, guildId)).filter((r) => r.enabled && r.event_type === MESSAGE_SEND);
  if (!rules.length) return false;
  let roles = scope.roleIds;
  if (!roles && scope.userId && rules.some((r) => r.exempt_roles.length)) roles = await rolesOf(ctx, guildId, scope.userId);
  let blocked = false;
  for (const rule of rules) {
    if (scope.channelId && rule.exempt_channels.includes(scope.channelId)) continue;
    if (roles?.some((id) => rule.exempt_roles.includes(id))) continue;
    const match = triggers(rule, content);
    if (!match) continue;
    if (rule.actions.some((a) => a.type === ActionType.BLOCK_MESSAGE)) blocked = true;
    if (scope.userId) await execute(ctx, rule, match, { guildId, userId: scope.userId, channelId: scope.channelId ?? null, content });
  }
  return blocked;
}

/**
 * MEMBER_PROFILE rules on a member's names (join, nickname change): a match quarantines the member's name (member
 * flag AUTOMOD_QUARANTINED_USERNAME) when the rule blocks member interaction, and alerts as configured.
 */
export async function automodCheckMember(ctx: Ctx, guildId: string, userId: string): Promise<void> {
  try {
    if (!isId(guildId) || !isId(userId)) return;
    const rules = (await cachedRules(ctx, guildId)).filter((r) => r.enabled && r.trigger_type === TriggerType.MEMBER_PROFILE);
    if (!rules.length) return;
    const [member, user] = await Promise.all([ctx.repos.members.get(guildId, userId), ctx.repos.users.byId(userId)]);
    if (!member || !user) return;
    const roles = member.roles;
    const names = [member.nick, user.global_name, user.username].filter((n): n is string => !!n).join('\n');
    for (const rule of rules) {
      if (roles.some((id) => rule.exempt_roles.includes(id))) continue;
      const match = triggers(rule, names);
      if (match) await execute(ctx, rule, match, { guildId, userId, channelId: null, content: names });
    }
  } catch (err) {
    if (ctx.config.logLevel !== 'silent') console.error('[automod] member check failed', err);
  }
}

interface Execution {
  guildId: string;
  userId: string;
  channelId: string | null;
  content: string;
}

async function execute(ctx: Ctx, rule: AutomodRule, match: Match, x: Execution): Promise<void> {
  const options = { channel_id: x.channelId, auto_moderation_rule_name: rule.name, auto_moderation_rule_trigger_type: rule.trigger_type };
  for (const action of rule.actions) {
    let alertId: string | null = null;
    if (action.type === ActionType.BLOCK_MESSAGE) {
      await writeAuditLog(ctx, {
        guildId: x.guildId,
        userId: x.userId,
        actionType: AuditLogEvent.AUTO_MODERATION_BLOCK_MESSAGE,
        targetId: x.userId,
        options,
        reason: null,
      });
    } else if (action.type === ActionType.SEND_ALERT_MESSAGE) {
      alertId = await postAlert(ctx, rule, match, x, String(action.metadata.channel_id ?? ''));
      await writeAuditLog(ctx, {
        guildId: x.guildId,
        userId: x.userId,
        actionType: AuditLogEvent.AUTO_MODERATION_FLAG_TO_CHANNEL,
        targetId: x.userId,
        options,
        reason: null,
      });
    } else if (action.type === ActionType.TIMEOUT) {
      if (!(await timeout(ctx, x.guildId, x.userId, Number(action.metadata.duration_seconds ?? 0)))) continue;
      await writeAuditLog(ctx, {
        guildId: x.guildId,
        userId: x.userId,
        actionType: AuditLogEvent.AUTO_MODERATION_USER_COMMUNICATION_DISABLED,
        targetId: x.userId,
        options,
        reason: null,
      });
    } else if (action.type === ActionType.BLOCK_MEMBER_INTERACTION) {
      await quarantine(ctx, x.guildId, x.userId);
      await writeAuditLog(ctx, {
        guildId: x.guildId,
        userId: x.userId,
        actionType: AuditLogEvent.AUTO_MODERATION_QUARANTINE_USER,
        targetId: x.userId,
        options,
        reason: null,
      });
    }
    ctx.bus.publish({
      t: 'AUTO_MODERATION_ACTION_EXECUTION',
      d: {
        guild_id: x.guildId,
        action,
        rule_id: rule.id,
        rule_trigger_type: rule.trigger_type,
        user_id: x.userId,
        ...(x.channelId ? { channel_id: x.channelId } : {}),
        ...(alertId ? { alert_system_message_id: alertId } : {}),
        content: x.content,
        matched_keyword: match.keyword,
        matched_content: match.content || null,
      },
      guild_id: x.guildId,
      permission: P.MANAGE_GUILD.toString(),
    });
  }
}

/** The AUTO_MODERATION_ACTION (type 24) notice in the alert channel, authored by the member who triggered the rule. */
async function postAlert(ctx: Ctx, rule: AutomodRule, match: Match, x: Execution, channelId: string): Promise<string | null> {
  try {
    if (!isSnowflake(channelId)) return null;
    const [ch, author] = await Promise.all([ctx.repos.channels.inGuildById(x.guildId, channelId), ctx.repos.users.byId(x.userId)]);
    if (!ch || !author) return null;
    const fields = [
      { name: 'rule_name', value: rule.name, inline: true },
      ...(x.channelId ? [{ name: 'channel_id', value: x.channelId, inline: true }] : []),
      { name: 'decision_id', value: ctx.ids.next(), inline: true },
      ...(match.keyword ? [{ name: 'keyword', value: match.keyword.slice(0, 1024), inline: true }] : []),
      ...(match.content ? [{ name: 'keyword_matched_content', value: match.content.slice(0, 1024), inline: true }] : []),
    ];
    assertMessageChannel(ch);
    const embed = normalizeEmbed({ description: x.content.slice(0, 4096), fields }, []);
    const { record } = await insertMessage(ctx, ch, { ...messageRow(ctx, ch, x.userId, 24), embeds: JSON.stringify([embed]) }, { authors: [author] });
    return record.id;
  } catch (err) {
    if (ctx.config.logLevel !== 'silent') console.error('[automod] alert failed', err);
    return null;
  }
}

/** TIMEOUT: members (not the owner, not administrators) are timed out for the rule's duration. */
async function timeout(ctx: Ctx, guildId: string, userId: string, seconds: number): Promise<boolean> {
  if (seconds <= 0) return false;
  const perms = await ctx.access.guildPerms(guildId, userId);
  if (perms === null || (perms & P.ADMINISTRATOR) !== 0n || (await ctx.access.ownerId(guildId)) === userId) return false;
  const until = ctx.clock.now() + seconds * 1000;
  await ctx.repos.members.patch(guildId, userId, { communication_disabled_until: until });
  await announceMember(ctx, guildId, userId);
  return true;
}

async function quarantine(ctx: Ctx, guildId: string, userId: string): Promise<void> {
  const m = await ctx.repos.members.get(guildId, userId);
  if (!m || m.flags & QUARANTINED_USERNAME) return;
  await ctx.repos.members.patch(guildId, userId, { flags: m.flags | QUARANTINED_USERNAME });
  await announceMember(ctx, guildId, userId);
}

async function announceMember(ctx: Ctx, guildId: string, userId: string): Promise<void> {
  ctx.access.invalidate(guildId);
  const m = await getMember(ctx, guildId, userId);
  if (m) ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d: { guild_id: guildId, ...(await memberView(ctx, m)) }, guild_id: guildId });
}
