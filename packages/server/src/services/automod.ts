import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../core/errors.js';
import { P } from '../core/permissions.js';
import { isSnowflake } from '../core/snowflake.js';
import { parseBody, snowflake } from '../http/validation.js';
import { parseJson } from '../store/json.js';

/**
 * A minimal AutoMod: KEYWORD rules (trigger_type 1) on MESSAGE_SEND (event_type 1) with BLOCK_MESSAGE actions. Enough
 * to block content on the paths that consult it (interaction response edits); the other trigger types are refused.
 */

const KEYWORD = 1;
const MESSAGE_SEND = 1;

const RuleBody = z.object({
  name: z.string().min(1).max(100),
  event_type: z.literal(MESSAGE_SEND),
  trigger_type: z.literal(KEYWORD),
  trigger_metadata: z.object({
    keyword_filter: z.array(z.string().min(1).max(60)).max(1000).optional(),
    regex_patterns: z.array(z.string().min(1).max(260)).max(10).optional(),
    allow_list: z.array(z.string().min(1).max(60)).max(100).optional(),
  }).optional(),
  actions: z.array(z.object({
    type: z.literal([1, 2, 3, 4]),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })).min(1).max(5),
  enabled: z.boolean().optional(),
  exempt_roles: z.array(snowflake).max(20).optional(),
  exempt_channels: z.array(snowflake).max(50).optional(),
});

export interface AutomodRule {
  id: string;
  guild_id: string;
  name: string;
  creator_id: string;
  event_type: number;
  trigger_type: number;
  trigger_metadata: { keyword_filter: string[]; regex_patterns: string[]; allow_list: string[] };
  actions: { type: number; metadata: Record<string, unknown> }[];
  enabled: boolean;
  exempt_roles: string[];
  exempt_channels: string[];
}

const unknownRule = () => new ApiError(404, 0, 'Unknown auto moderation rule');
export const automodBlocked = () => new ApiError(400, 200000, 'Message was blocked by automatic moderation');
const MAX_KEYWORD_RULES = 6;

function toRule(r: { id: unknown; guild_id: unknown; creator_id: unknown; data: string; enabled: unknown }): AutomodRule {
  const d = parseJson<Record<string, any>>(r.data, {});
  return {
    id: String(r.id),
    guild_id: String(r.guild_id),
    name: d.name ?? '',
    creator_id: String(r.creator_id),
    event_type: d.event_type ?? MESSAGE_SEND,
    trigger_type: d.trigger_type ?? KEYWORD,
    trigger_metadata: { keyword_filter: d.trigger_metadata?.keyword_filter ?? [], regex_patterns: d.trigger_metadata?.regex_patterns ?? [], allow_list: d.trigger_metadata?.allow_list ?? [] },
    actions: (d.actions ?? []).map((a: any) => ({ type: a.type, metadata: a.metadata ?? {} })),
    enabled: Number(r.enabled) === 1,
    exempt_roles: d.exempt_roles ?? [],
    exempt_channels: d.exempt_channels ?? [],
  };
}

async function requireManager(ctx: Ctx, actor: Actor, guildId: string): Promise<void> {
  if (!isSnowflake(guildId)) throw Errors.unknownGuild();
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
}

export async function listRules(ctx: Ctx, actor: Actor, guildId: string): Promise<AutomodRule[]> {
  await requireManager(ctx, actor, guildId);
  return loadRules(ctx, guildId);
}

async function loadRules(ctx: Ctx, guildId: string): Promise<AutomodRule[]> {
  const rows = await ctx.db.selectFrom('automod_rules').selectAll().where('guild_id', '=', guildId).orderBy('id').execute();
  return rows.map(toRule);
}

export async function getRule(ctx: Ctx, actor: Actor, guildId: string, ruleId: string): Promise<AutomodRule> {
  await requireManager(ctx, actor, guildId);
  if (!isSnowflake(ruleId)) throw unknownRule();
  const row = await ctx.db.selectFrom('automod_rules').selectAll().where('id', '=', ruleId).where('guild_id', '=', guildId).executeTakeFirst();
  if (!row) throw unknownRule();
  return toRule(row);
}

/** POST /guilds/{id}/auto-moderation/rules (MANAGE_GUILD). Publishes AUTO_MODERATION_RULE_CREATE. */
export async function createRule(ctx: Ctx, actor: Actor, guildId: string, body: unknown): Promise<AutomodRule> {
  await requireManager(ctx, actor, guildId);
  const b = parseBody(RuleBody, body);
  for (const [i, p] of (b.trigger_metadata?.regex_patterns ?? []).entries()) {
    try { new RegExp(p, 'iu'); } catch {
      throw fieldError(['trigger_metadata', 'regex_patterns', i], 'AUTO_MODERATION_INVALID_REGEX', 'Invalid regex pattern.');
    }
  }
  const count = (await loadRules(ctx, guildId)).filter((r) => r.trigger_type === KEYWORD).length;
  if (count >= MAX_KEYWORD_RULES) throw fieldError('trigger_type', 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED', `Maximum number of rules of this trigger type reached (${MAX_KEYWORD_RULES}).`);
  const data = {
    name: b.name, event_type: b.event_type, trigger_type: b.trigger_type,
    trigger_metadata: { keyword_filter: b.trigger_metadata?.keyword_filter ?? [], regex_patterns: b.trigger_metadata?.regex_patterns ?? [], allow_list: b.trigger_metadata?.allow_list ?? [] },
    actions: b.actions.map((a) => ({ type: a.type, metadata: a.metadata ?? {} })),
    exempt_roles: b.exempt_roles ?? [], exempt_channels: b.exempt_channels ?? [],
  };
  const row = { id: ctx.ids.next(), guild_id: guildId, creator_id: actor.user.id, data: JSON.stringify(data), enabled: b.enabled === false ? 0 : 1 };
  await ctx.db.insertInto('automod_rules').values(row).execute();
  const rule = toRule(row);
  ctx.bus.publish({ t: 'AUTO_MODERATION_RULE_CREATE', d: rule, guild_id: guildId });
  return rule;
}

export async function deleteRule(ctx: Ctx, actor: Actor, guildId: string, ruleId: string): Promise<void> {
  const rule = await getRule(ctx, actor, guildId, ruleId);
  await ctx.db.deleteFrom('automod_rules').where('id', '=', rule.id).execute();
  ctx.bus.publish({ t: 'AUTO_MODERATION_RULE_DELETE', d: rule, guild_id: guildId });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A keyword as a matcher: case-insensitive, whole words unless `*` at an end makes it a prefix (`cat*`), a suffix
 * (`*cat`) or a substring (`*cat*`) match.
 */
function keywordMatcher(keyword: string): RegExp | null {
  const lead = keyword.startsWith('*');
  const trail = keyword.length > 1 && keyword.endsWith('*');
  const core = keyword.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (!core) return null;
  const before = lead ? '' : '(?<![\\p{L}\\p{N}_])';
  const after = trail ? '' : '(?![\\p{L}\\p{N}_])';
  return new RegExp(`${before}${escape(core)}${after}`, 'iu');
}

function matchesAny(content: string, keywords: string[]): boolean {
  return keywords.some((k) => keywordMatcher(k)?.test(content) ?? false);
}

export interface AutomodScope {
  channelId?: string | null;
  /** Role ids of the author, for `exempt_roles`. */
  roleIds?: string[];
}

/**
 * Whether an enabled KEYWORD rule with a BLOCK_MESSAGE action blocks this content in the guild: a keyword (or regex)
 * matches and no `allow_list` entry covers the match. Exempt channels and roles are honoured when given.
 */
export async function automodBlocks(ctx: Ctx, guildId: string | null, content: string | null | undefined, scope: AutomodScope = {}): Promise<boolean> {
  if (!guildId || !content) return false;
  const rules = (await loadRules(ctx, guildId)).filter((r) => r.enabled && r.trigger_type === KEYWORD && r.event_type === MESSAGE_SEND && r.actions.some((a) => a.type === 1));
  for (const r of rules) {
    if (scope.channelId && r.exempt_channels.includes(scope.channelId)) continue;
    if (scope.roleIds?.some((id) => r.exempt_roles.includes(id))) continue;
    // Allowed words are removed before matching, so they never trigger the rule.
    let text = content;
    for (const allowed of r.trigger_metadata.allow_list) {
      const m = keywordMatcher(allowed);
      if (m) text = text.replace(new RegExp(m.source, 'giu'), ' ');
    }
    if (matchesAny(text, r.trigger_metadata.keyword_filter)) return true;
    for (const p of r.trigger_metadata.regex_patterns) {
      try { if (new RegExp(p, 'iu').test(text)) return true; } catch { /* stored patterns were validated */ }
    }
  }
  return false;
}
