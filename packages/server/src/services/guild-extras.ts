import crypto from 'node:crypto';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError, formError } from '../core/errors.js';
import { P } from '../core/permissions.js';
import { toMember } from '../store/repos/mappers.js';
import { num } from '../store/json.js';
import { checkId, guildRoles, isId, outranks, requireGuildRecord } from './guilds-common.js';
import { removeMember } from './membership.js';
import { getSetting, putSetting, type OnboardingSettings, type WelcomeChannel } from './guild-settings.js';
import { AuditLogEvent, writeAuditLog } from './audit-log.js';

/**
 * Guild settings routes of issue 4: welcome screen, onboarding, widget (settings, widget.json, widget.png), vanity URL,
 * prune, and voice regions.
 */

const unknownWelcomeScreen = () => new ApiError(404, 10069, 'Unknown Guild Welcome Screen');
const widgetDisabled = () => new ApiError(403, 50004, 'Guild widget disabled');

async function member(ctx: Ctx, actor: Actor, guildId: string, needed: bigint = 0n): Promise<bigint> {
  checkId(guildId, Errors.unknownGuild);
  return ctx.access.requireGuild(guildId, actor.user.id, needed);
}

/** Channel ids that must be channels of this guild (not threads), reported as 50035 leaves. */
async function checkChannels(ctx: Ctx, guildId: string, refs: { path: (string | number)[]; id: string }[]): Promise<void> {
  if (!refs.length) return;
  const ids = [...new Set(refs.map((r) => r.id))].filter(isId);
  const rows = ids.length ? await ctx.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).where('id', 'in', ids).execute() : [];
  const known = new Set(rows.map((r) => String(r.id)));
  const bad = refs.filter((r) => !known.has(r.id));
  if (bad.length) throw formError(bad.map((r) => ({ path: r.path, code: 'CHANNEL_INVALID', message: 'Invalid channel.' })));
}

// ── Welcome screen ─────────────────────────────────────────────────────────────────────────────────────────────────

const welcomeWire = (w: { description: string | null; welcome_channels: WelcomeChannel[] }) => ({
  description: w.description,
  welcome_channels: w.welcome_channels.map((c) => ({ channel_id: c.channel_id, description: c.description, emoji_id: c.emoji_id, emoji_name: c.emoji_name })),
});

/** GET /guilds/{id}/welcome-screen: members when it is enabled, MANAGE_GUILD otherwise. */
export async function getWelcomeScreen(ctx: Ctx, actor: Actor, guildId: string) {
  const perms = await member(ctx, actor, guildId);
  const w = await getSetting(ctx, guildId, 'welcome_screen');
  if (!w?.enabled && !ctx.access.hasPerm(perms, P.MANAGE_GUILD)) throw w ? Errors.missingPermissions() : unknownWelcomeScreen();
  return welcomeWire(w ?? { description: null, welcome_channels: [] });
}

export interface WelcomeInput {
  enabled?: boolean | null;
  description?: string | null;
  welcome_channels?: { channel_id: string; description: string; emoji_id?: string | null; emoji_name?: string | null }[] | null;
}

/** PATCH /guilds/{id}/welcome-screen: MANAGE_GUILD; channels must be the guild's. Emits GUILD_UPDATE-free (settings only). */
export async function updateWelcomeScreen(ctx: Ctx, actor: Actor, guildId: string, input: WelcomeInput) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD);
  const cur = (await getSetting(ctx, guildId, 'welcome_screen')) ?? { enabled: false, description: null, welcome_channels: [] };
  const channels = input.welcome_channels ?? (input.welcome_channels === null ? [] : undefined);
  if (channels) await checkChannels(ctx, guildId, channels.map((c, i) => ({ path: ['welcome_channels', i, 'channel_id'], id: c.channel_id })));
  const next = {
    enabled: input.enabled ?? cur.enabled,
    description: input.description !== undefined ? input.description : cur.description,
    welcome_channels: channels
      ? channels.map((c) => ({ channel_id: c.channel_id, description: c.description, emoji_id: c.emoji_id ?? null, emoji_name: c.emoji_name ?? null }))
      : cur.welcome_channels,
  };
  await putSetting(ctx, guildId, 'welcome_screen', next);
  return welcomeWire(next);
}

// ── Onboarding ─────────────────────────────────────────────────────────────────────────────────────────────────────

const onboardingWire = (guildId: string, o: OnboardingSettings) => ({ guild_id: guildId, prompts: o.prompts, default_channel_ids: o.default_channel_ids, enabled: o.enabled, mode: o.mode });

/** GET /guilds/{id}/onboarding: any member. */
export async function getOnboarding(ctx: Ctx, actor: Actor, guildId: string) {
  await member(ctx, actor, guildId);
  const o = await getSetting(ctx, guildId, 'onboarding');
  return onboardingWire(guildId, o ?? { prompts: [], default_channel_ids: [], enabled: false, mode: 0 });
}

export interface OnboardingInput {
  prompts?: {
    id?: string | null; type?: number | null; title: string; single_select?: boolean | null; required?: boolean | null; in_onboarding?: boolean | null;
    options: { id?: string | null; title: string; description?: string | null; emoji_id?: string | null; emoji_name?: string | null; emoji_animated?: boolean | null; role_ids?: string[] | null; channel_ids?: string[] | null }[];
  }[] | null;
  default_channel_ids?: string[] | null;
  enabled?: boolean | null;
  mode?: number | null;
}

/**
 * PUT /guilds/{id}/onboarding: MANAGE_GUILD and MANAGE_ROLES. Channel and role ids must be the guild's; prompt and
 * option ids that are not snowflakes (clients send placeholders for new ones) get fresh ids.
 */
export async function putOnboarding(ctx: Ctx, actor: Actor, guildId: string, input: OnboardingInput) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD | P.MANAGE_ROLES);
  const cur = (await getSetting(ctx, guildId, 'onboarding')) ?? { prompts: [], default_channel_ids: [], enabled: false, mode: 0 };
  const chanRefs: { path: (string | number)[]; id: string }[] = [];
  const roleRefs: { path: (string | number)[]; id: string }[] = [];
  (input.default_channel_ids ?? []).forEach((id, i) => chanRefs.push({ path: ['default_channel_ids', i], id }));
  (input.prompts ?? []).forEach((p, i) => p.options.forEach((o, j) => {
    (o.channel_ids ?? []).forEach((id, k) => chanRefs.push({ path: ['prompts', i, 'options', j, 'channel_ids', k], id }));
    (o.role_ids ?? []).forEach((id, k) => roleRefs.push({ path: ['prompts', i, 'options', j, 'role_ids', k], id }));
  }));
  await checkChannels(ctx, guildId, chanRefs);
  if (roleRefs.length) {
    const roles = new Set((await guildRoles(ctx, guildId)).map((r) => r.id));
    const bad = roleRefs.filter((r) => !roles.has(r.id) || r.id === guildId);
    if (bad.length) throw formError(bad.map((r) => ({ path: r.path, code: 'ROLE_INVALID', message: 'Invalid role.' })));
  }
  const freshId = (v: string | null | undefined) => (v && /^\d{17,20}$/.test(v) ? v : ctx.ids.next());
  const next: OnboardingSettings = {
    prompts: input.prompts === undefined ? cur.prompts : (input.prompts ?? []).map((p) => ({
      id: freshId(p.id), type: p.type ?? 0, title: p.title, single_select: !!p.single_select, required: !!p.required, in_onboarding: p.in_onboarding ?? true,
      options: p.options.map((o) => ({
        id: freshId(o.id), title: o.title, description: o.description ?? '',
        emoji: { id: o.emoji_id ?? null, name: o.emoji_name ?? null, animated: !!o.emoji_animated },
        role_ids: [...new Set(o.role_ids ?? [])], channel_ids: [...new Set(o.channel_ids ?? [])],
      })),
    })),
    default_channel_ids: input.default_channel_ids === undefined ? cur.default_channel_ids : [...new Set(input.default_channel_ids ?? [])],
    enabled: input.enabled ?? cur.enabled,
    mode: input.mode ?? cur.mode,
  };
  await putSetting(ctx, guildId, 'onboarding', next);
  const out = onboardingWire(guildId, next);
  ctx.bus.publish({ t: 'GUILD_ONBOARDING_UPDATE', d: out, guild_id: guildId });
  return out;
}

// ── Widget ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** GET /guilds/{id}/widget: MANAGE_GUILD. */
export async function getWidgetSettings(ctx: Ctx, actor: Actor, guildId: string) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD);
  return (await getSetting(ctx, guildId, 'widget')) ?? { enabled: false, channel_id: null };
}

/** PATCH /guilds/{id}/widget: MANAGE_GUILD; the invite channel must be the guild's. */
export async function updateWidgetSettings(ctx: Ctx, actor: Actor, guildId: string, input: { enabled?: boolean | null; channel_id?: string | null }) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD);
  const cur = (await getSetting(ctx, guildId, 'widget')) ?? { enabled: false, channel_id: null };
  if (input.channel_id) await checkChannels(ctx, guildId, [{ path: ['channel_id'], id: input.channel_id }]);
  const next = { enabled: input.enabled ?? cur.enabled, channel_id: input.channel_id !== undefined ? input.channel_id : cur.channel_id };
  await putSetting(ctx, guildId, 'widget', next);
  return next;
}

async function enabledWidget(ctx: Ctx, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  const g = await requireGuildRecord(ctx, guildId);
  const w = await getSetting(ctx, guildId, 'widget');
  if (!w?.enabled) throw widgetDisabled();
  return { g, w };
}

/** A permanent invite of the widget channel, created on first use. */
async function widgetInvite(ctx: Ctx, guildId: string, channelId: string): Promise<string> {
  const rows = await ctx.db.selectFrom('invites').select(['code']).where('channel_id', '=', channelId).where('inviter_id', 'is', null)
    .where('max_age', '=', 0).where('max_uses', '=', 0).limit(1).execute();
  if (rows[0]) return rows[0].code;
  const code = crypto.randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  await ctx.db.insertInto('invites').values({
    code, guild_id: guildId, channel_id: channelId, inviter_id: null, max_age: 0, max_uses: 0, uses: 0, temporary: 0,
    target_type: null, target_user_id: null, flags: 0, created_at: ctx.clock.now(),
  }).execute();
  return code;
}

/**
 * GET /guilds/{id}/widget.json: anyone, when the widget is on (else 50004). Channels are the voice channels @everyone
 * can see; members and presences live in the gateway and are not exposed here (empty list, presence_count 0).
 */
export async function widgetJson(ctx: Ctx, guildId: string) {
  const { g, w } = await enabledWidget(ctx, guildId);
  const rows = await ctx.db.selectFrom('channels').select(['id', 'name', 'position', 'permission_overwrites']).where('guild_id', '=', guildId).where('type', 'in', [2, 13]).orderBy('position').execute();
  const everyone = (await guildRoles(ctx, guildId)).find((r) => r.id === guildId)?.permissions ?? 0n;
  const channels = rows.filter((c) => {
    const ow = (JSON.parse(String(c.permission_overwrites ?? '[]')) as { id: string; deny: string; allow: string }[]).find((o) => o.id === guildId);
    const perms = ow ? (everyone & ~BigInt(ow.deny)) | BigInt(ow.allow) : everyone;
    return (perms & P.VIEW_CHANNEL) !== 0n;
  }).map((c) => ({ id: String(c.id), name: c.name ?? '', position: num(c.position) }));
  const inviteCode = w.channel_id ? await widgetInvite(ctx, guildId, w.channel_id).catch(() => null) : null;
  return {
    id: g.id,
    name: g.name,
    instant_invite: inviteCode ? `${ctx.publicUrl}/invite/${inviteCode}` : null,
    channels,
    members: [],
    presence_count: 0,
  };
}

/** A 1×1 transparent PNG: widget.png is an image the platform renders; any PNG satisfies clients. */
export const WIDGET_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000b49444154789c6360000200000500017a5eab3f0000000049454e44ae426082', 'hex');

/** GET /guilds/{id}/widget.png: anyone, when the widget is on. */
export async function widgetPng(ctx: Ctx, guildId: string): Promise<Buffer> {
  await enabledWidget(ctx, guildId);
  return WIDGET_PNG;
}

// ── Vanity URL ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** GET /guilds/{id}/vanity-url: MANAGE_GUILD. */
export async function getVanity(ctx: Ctx, actor: Actor, guildId: string) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD);
  const row = await ctx.db.selectFrom('guild_vanity').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return { code: row?.code ?? null, uses: num(row?.uses) };
}

/**
 * PATCH /guilds/{id}/vanity-url `{code}` (the official client's route): MANAGE_GUILD. Codes are 2–32 of a-z, 0-9 and
 * '-', unique across vanity codes and invites (50020 when taken); null removes the vanity URL.
 */
export async function setVanity(ctx: Ctx, actor: Actor, guildId: string, code: string | null) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD);
  if (code !== null) {
    if (!/^[a-z0-9-]{2,32}$/.test(code)) throw fieldError('code', 'INVITE_CODE_INVALID', 'Invite code was either invalid or taken.');
    const taken = await ctx.db.selectFrom('guild_vanity').select('guild_id').where('code', '=', code).executeTakeFirst();
    const invite = await ctx.db.selectFrom('invites').select('code').where('code', '=', code).executeTakeFirst();
    if ((taken && String(taken.guild_id) !== guildId) || invite) throw new ApiError(400, 50020, 'Invite code was either invalid or taken');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('guild_vanity').where('guild_id', '=', guildId).execute();
    if (code !== null) await trx.insertInto('guild_vanity').values({ code, guild_id: guildId, uses: 0 }).execute();
  });
  return { code, uses: 0 };
}

/** The guild behind a vanity code, for invite resolution. */
export async function vanityGuild(ctx: Ctx, code: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('guild_vanity').select('guild_id').where('code', '=', code).executeTakeFirst();
  return row ? String(row.guild_id) : null;
}

export async function countVanityUse(ctx: Ctx, code: string): Promise<void> {
  await ctx.db.updateTable('guild_vanity').set((eb) => ({ uses: eb('uses', '+', 1) })).where('code', '=', code).execute();
}

// ── Prune ──────────────────────────────────────────────────────────────────────────────────────────────────────────

export interface PruneInput { days?: number; include_roles?: string[]; compute_prune_count?: boolean }

/**
 * Members a prune would remove: joined more than `days` ago, silent in the guild since then (messages are the only
 * activity the server records), holding no role except those in `include_roles`, and below the caller. The owner and
 * the caller are never pruned.
 */
async function pruneCandidates(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput): Promise<string[]> {
  const days = input.days ?? 7;
  const cutoff = ctx.clock.now() - days * 86400_000;
  const include = new Set(input.include_roles ?? []);
  const roles = new Set((await guildRoles(ctx, guildId)).map((r) => r.id));
  input.include_roles?.forEach((id, i) => {
    if (!roles.has(id)) throw fieldError(['include_roles', i], 'ROLE_INVALID', 'Invalid role.');
  });
  const rows = (await ctx.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).where('joined_at', '<=', cutoff).execute()).map(toMember);
  const active = new Set((await ctx.db.selectFrom('messages').select('author_id').distinct().where('guild_id', '=', guildId).where('created_at', '>', cutoff).execute()).map((r) => String(r.author_id)));
  const owner = await ctx.access.ownerId(guildId);
  const out: string[] = [];
  for (const m of rows) {
    if (m.user_id === owner || m.user_id === actor.user.id || active.has(m.user_id)) continue;
    if (m.roles.some((r) => roles.has(r) && !include.has(r))) continue;
    if (!(await outranks(ctx, guildId, actor.user.id, m.user_id))) continue;
    out.push(m.user_id);
  }
  return out;
}

/** GET /guilds/{id}/prune: MANAGE_GUILD and KICK_MEMBERS. */
export async function pruneCount(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD | P.KICK_MEMBERS);
  return { pruned: (await pruneCandidates(ctx, actor, guildId, input)).length };
}

/** POST /guilds/{id}/prune: MANAGE_GUILD and KICK_MEMBERS; kicks the candidates; audit MEMBER_PRUNE (21). */
export async function beginPrune(ctx: Ctx, actor: Actor, guildId: string, input: PruneInput) {
  await member(ctx, actor, guildId, P.MANAGE_GUILD | P.KICK_MEMBERS);
  const ids = await pruneCandidates(ctx, actor, guildId, input);
  let removed = 0;
  for (const id of ids) if (await removeMember(ctx, guildId, id)) removed++;
  await writeAuditLog(ctx, {
    guildId, userId: actor.user.id, actionType: AuditLogEvent.MEMBER_PRUNE, targetId: null,
    options: { delete_member_days: input.days ?? 7, members_removed: removed },
  });
  return { pruned: input.compute_prune_count === false ? null : removed };
}

// ── Voice regions ──────────────────────────────────────────────────────────────────────────────────────────────────

/** One process serves voice everywhere: a single optimal region (READY's geo_ordered_rtc_regions says the same). */
export const VOICE_REGIONS = [{ id: 'local', name: 'Local', custom: false, deprecated: false, optimal: true }];

/** GET /guilds/{id}/regions: members. */
export async function guildRegions(ctx: Ctx, actor: Actor, guildId: string) {
  await member(ctx, actor, guildId);
  return VOICE_REGIONS;
}
