import { AsyncLocalStorage } from 'node:async_hooks';
import type { Ctx } from '../context.js';
import { P, type Overwrite } from '@accord/protocol';
import { num, parseJson } from '../../store/json.js';
const id = (v: unknown): string => String(v);
const idOrNull = (v: unknown): string | null => (v == null ? null : String(v));
import { isId } from '../../core/ids.js';

/** Audit log action types (discord-api-types `AuditLogEvent`). */
export const AuditLogEvent = {
  GUILD_UPDATE: 1,
  CHANNEL_CREATE: 10,
  CHANNEL_UPDATE: 11,
  CHANNEL_DELETE: 12,
  CHANNEL_OVERWRITE_CREATE: 13,
  CHANNEL_OVERWRITE_UPDATE: 14,
  CHANNEL_OVERWRITE_DELETE: 15,
  MEMBER_KICK: 20,
  MEMBER_PRUNE: 21,
  MEMBER_BAN_ADD: 22,
  MEMBER_BAN_REMOVE: 23,
  MEMBER_UPDATE: 24,
  MEMBER_ROLE_UPDATE: 25,
  MEMBER_MOVE: 26,
  MEMBER_DISCONNECT: 27,
  BOT_ADD: 28,
  ROLE_CREATE: 30,
  ROLE_UPDATE: 31,
  ROLE_DELETE: 32,
  INVITE_CREATE: 40,
  INVITE_UPDATE: 41,
  INVITE_DELETE: 42,
  WEBHOOK_CREATE: 50,
  WEBHOOK_UPDATE: 51,
  WEBHOOK_DELETE: 52,
  EMOJI_CREATE: 60,
  EMOJI_UPDATE: 61,
  EMOJI_DELETE: 62,
  MESSAGE_DELETE: 72,
  MESSAGE_BULK_DELETE: 73,
  MESSAGE_PIN: 74,
  MESSAGE_UNPIN: 75,
  INTEGRATION_CREATE: 80,
  INTEGRATION_UPDATE: 81,
  INTEGRATION_DELETE: 82,
  STAGE_INSTANCE_CREATE: 83,
  STAGE_INSTANCE_UPDATE: 84,
  STAGE_INSTANCE_DELETE: 85,
  STICKER_CREATE: 90,
  STICKER_UPDATE: 91,
  STICKER_DELETE: 92,
  GUILD_SCHEDULED_EVENT_CREATE: 100,
  GUILD_SCHEDULED_EVENT_UPDATE: 101,
  GUILD_SCHEDULED_EVENT_DELETE: 102,
  THREAD_CREATE: 110,
  THREAD_UPDATE: 111,
  THREAD_DELETE: 112,
  APPLICATION_COMMAND_PERMISSION_UPDATE: 121,
  SOUNDBOARD_SOUND_CREATE: 130,
  SOUNDBOARD_SOUND_UPDATE: 131,
  SOUNDBOARD_SOUND_DELETE: 132,
  AUTO_MODERATION_RULE_CREATE: 140,
  AUTO_MODERATION_RULE_UPDATE: 141,
  AUTO_MODERATION_RULE_DELETE: 142,
  AUTO_MODERATION_BLOCK_MESSAGE: 143,
  AUTO_MODERATION_FLAG_TO_CHANNEL: 144,
  AUTO_MODERATION_USER_COMMUNICATION_DISABLED: 145,
  AUTO_MODERATION_QUARANTINE_USER: 146,
  ONBOARDING_PROMPT_CREATE: 163,
  ONBOARDING_PROMPT_UPDATE: 164,
  ONBOARDING_PROMPT_DELETE: 165,
  ONBOARDING_CREATE: 166,
  ONBOARDING_UPDATE: 167,
  HOME_SETTINGS_CREATE: 190,
  HOME_SETTINGS_UPDATE: 191,
  /** The seed spec calls 192 VOICE_CHANNEL_STATUS_UPDATE; the docs and discord-api-types call it _CREATE. */
  VOICE_CHANNEL_STATUS_UPDATE: 192,
  VOICE_CHANNEL_STATUS_CREATE: 192,
  VOICE_CHANNEL_STATUS_DELETE: 193,
  GUILD_SCHEDULED_EVENT_EXCEPTION_CREATE: 200,
  GUILD_SCHEDULED_EVENT_EXCEPTION_UPDATE: 201,
  GUILD_SCHEDULED_EVENT_EXCEPTION_DELETE: 202,
} as const;

export const KNOWN_TYPES = new Set<number>(Object.values(AuditLogEvent));
const UPDATE_TYPES = new Set<number>([1, 11, 14, 24, 31, 41, 51, 61, 81, 84, 91, 101, 111, 131, 141, 201]);
/** Entries are kept 45 days (server clock). */
export const AUDIT_LOG_RETENTION_MS = 45 * 86400_000;

export interface AuditChange {
  key: string;
  old_value?: unknown;
  new_value?: unknown;
}

export interface AuditEntryInput {
  guildId: string;
  /** Who acted (a user or a bot user); null for the platform itself. */
  userId: string | null;
  actionType: number;
  targetId?: string | null;
  changes?: AuditChange[] | null;
  /** Optional entry info; values are sent as strings, null/undefined ones are dropped. */
  options?: Record<string, string | number | bigint | null | undefined> | null;
  /** Defaults to the request's X-Audit-Log-Reason. */
  reason?: string | null;
}

export interface AuditLogEntry {
  id: string;
  user_id: string | null;
  target_id: string | null;
  action_type: number;
  changes?: AuditChange[];
  options?: Record<string, string>;
  reason?: string;
}

// The X-Audit-Log-Reason of the request being served, so services deep in a call chain need not thread it through.
const requestScope = new AsyncLocalStorage<{ reason: string | null }>();

/**
 * Runs a request handler with its audit log reason in scope (http/app.ts wraps every handler with this). Without a
 * reason and outside any scope the handler runs as it is: the scope's store would say null just the same, and a
 * storage never run keeps Node's promise hooks off, which cost every promise of every request.
 */
export function withAuditReason<T>(reason: string | null, fn: () => Promise<T>): Promise<T> {
  if (reason === null && requestScope.getStore() === undefined) return fn();
  return requestScope.run({ reason }, fn);
}

/** The reason of the request in progress, if any. */
export const currentAuditReason = (): string | null => requestScope.getStore()?.reason ?? null;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Keys each kind of object reports in `changes` (the docs: "typically correspond to the object's fields"). */
export const AUDIT_KEYS = {
  guild: [
    'name',
    'description',
    'icon',
    'splash',
    'banner',
    'owner_id',
    'afk_channel_id',
    'afk_timeout',
    'verification_level',
    'default_message_notifications',
    'explicit_content_filter',
    'mfa_level',
    'nsfw_level',
    'system_channel_id',
    'system_channel_flags',
    'rules_channel_id',
    'public_updates_channel_id',
    'safety_alerts_channel_id',
    'preferred_locale',
    'features',
    'premium_progress_bar_enabled',
    'widget_enabled',
    'widget_channel_id',
    'vanity_url_code',
  ],
  channel: [
    'name',
    'type',
    'topic',
    'position',
    'nsfw',
    'rate_limit_per_user',
    'bitrate',
    'user_limit',
    'parent_id',
    'rtc_region',
    'video_quality_mode',
    'flags',
    'permission_overwrites',
    'default_auto_archive_duration',
    'available_tags',
    'default_reaction_emoji',
    'default_thread_rate_limit_per_user',
    'default_sort_order',
    'default_forum_layout',
  ],
  overwrite: ['id', 'type', 'allow', 'deny'],
  role: ['name', 'permissions', 'color', 'colors', 'hoist', 'mentionable', 'icon', 'unicode_emoji'],
  member: ['nick', 'mute', 'deaf', 'communication_disabled_until', 'flags', 'avatar', 'banner', 'bio'],
  invite: ['code', 'channel_id', 'inviter_id', 'uses', 'max_uses', 'max_age', 'temporary', 'flags'],
  webhook: ['type', 'name', 'avatar_hash', 'channel_id', 'application_id'],
  emoji: ['name', 'roles'],
  sticker: ['name', 'tags', 'description', 'format_type', 'available', 'guild_id', 'id'],
  sound: ['name', 'volume', 'emoji_id', 'emoji_name', 'sound_id', 'available'],
  event: [
    'name',
    'description',
    'channel_id',
    'entity_type',
    'status',
    'privacy_level',
    'location',
    'scheduled_start_time',
    'scheduled_end_time',
    'image_hash',
    'recurrence_rule',
  ],
  stage: ['topic', 'privacy_level'],
  thread: ['name', 'type', 'archived', 'locked', 'auto_archive_duration', 'rate_limit_per_user', 'flags', 'invitable', 'applied_tags'],
  automod: ['name', 'event_type', 'trigger_type', 'trigger_metadata', 'actions', 'enabled', 'exempt_roles', 'exempt_channels'],
  integration: ['type', 'name', 'scopes'],
  exception: ['scheduled_start_time', 'scheduled_end_time', 'is_canceled'],
} as const;

export type AuditKind = keyof typeof AUDIT_KEYS;

/**
 * The change list between two views of an object: a create has `before` null (new values only), a delete has `after`
 * null (old values only). Per the docs, a value that was null has no `old_value` and a value now null has no `new_value`.
 */
export function auditChanges(kind: AuditKind, before: Record<string, any> | null | undefined, after: Record<string, any> | null | undefined): AuditChange[] {
  const out: AuditChange[] = [];
  for (const key of AUDIT_KEYS[kind]) {
    const o = before?.[key];
    const n = after?.[key];
    // An update compares the keys both views carry.
    if (before && after && (!(key in before) || !(key in after) || same(o, n))) continue;
    if (o == null && n == null) continue;
    const c: AuditChange = { key };
    if (o != null) c.old_value = o;
    if (n != null) c.new_value = n;
    out.push(c);
  }
  return out;
}

export function toEntry(r: any): AuditLogEntry {
  const e: AuditLogEntry = { id: id(r.id), user_id: idOrNull(r.user_id), target_id: r.target_id ?? null, action_type: num(r.action_type) };
  const changes = parseJson<AuditChange[] | null>(r.changes, null);
  if (changes?.length) e.changes = changes;
  const options = parseJson<Record<string, string> | null>(r.options, null);
  if (options && Object.keys(options).length) e.options = options;
  if (r.reason) e.reason = r.reason;
  return e;
}

/**
 * Writes one audit log entry and announces it (GUILD_AUDIT_LOG_ENTRY_CREATE to sessions with VIEW_AUDIT_LOG). Called
 * after the action it records has been written; a failure here is logged and never undoes or fails the action.
 */
export async function writeAuditLog(ctx: Ctx, input: AuditEntryInput): Promise<AuditLogEntry | null> {
  try {
    if (!isId(input.guildId)) return null;
    const options: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.options ?? {})) if (v !== null && v !== undefined) options[k] = String(v);
    const changes = (input.changes ?? []).filter((c) => !('old_value' in c && 'new_value' in c) || !same(c.old_value, c.new_value));
    // An update that changed nothing leaves no entry.
    if (input.changes && !changes.length && UPDATE_TYPES.has(input.actionType)) return null;
    const reasonIn = input.reason !== undefined ? input.reason : currentAuditReason();
    const reason = reasonIn ? String(reasonIn).slice(0, 512) : null;
    const row = {
      id: ctx.ids.next(),
      guild_id: input.guildId,
      user_id: input.userId && isId(input.userId) ? input.userId : null,
      target_id: input.targetId ?? null,
      action_type: input.actionType,
      changes: changes.length ? JSON.stringify(changes) : null,
      options: Object.keys(options).length ? JSON.stringify(options) : null,
      reason,
      created_at: ctx.clock.now(),
    };
    await ctx.repos.moderation.insertAuditEntry(row);
    const entry = toEntry(row);
    ctx.bus.publish({
      t: 'GUILD_AUDIT_LOG_ENTRY_CREATE',
      d: { ...entry, guild_id: input.guildId },
      guild_id: input.guildId,
      permission: P.VIEW_AUDIT_LOG.toString(),
    });
    return entry;
  } catch (err) {
    if (ctx.config.logLevel !== 'silent') console.error('[audit-log] write failed', err);
    return null;
  }
}

/** Removes a guild's audit log with the guild. */
export async function deleteGuildAuditLog(ctx: Ctx, guildId: string): Promise<void> {
  if (isId(guildId)) await ctx.repos.moderation.deleteAuditLogOf(guildId);
}

// ---- one-call helpers for the services that write entries --------------------------------------------------------

/** CHANNEL_OVERWRITE_CREATE / _UPDATE / _DELETE for one overwrite (options: id, type, and role_name for roles). */
export async function auditOverwrite(
  ctx: Ctx,
  userId: string,
  guildId: string,
  channelId: string,
  before: Overwrite | null,
  after: Overwrite | null,
): Promise<void> {
  const ow = after ?? before;
  if (!ow) return;
  const actionType = !before
    ? AuditLogEvent.CHANNEL_OVERWRITE_CREATE
    : !after
      ? AuditLogEvent.CHANNEL_OVERWRITE_DELETE
      : AuditLogEvent.CHANNEL_OVERWRITE_UPDATE;
  const roleName = ow.type === 0 && isId(ow.id) ? await ctx.repos.roles.nameOf(ow.id) : undefined;
  const view = (o: Overwrite | null) => (o ? { id: o.id, type: o.type, allow: o.allow, deny: o.deny } : null);
  const changes =
    actionType === AuditLogEvent.CHANNEL_OVERWRITE_UPDATE
      ? auditChanges('overwrite', { allow: before!.allow, deny: before!.deny }, { allow: after!.allow, deny: after!.deny })
      : auditChanges('overwrite', view(before), view(after));
  await writeAuditLog(ctx, {
    guildId,
    userId,
    actionType,
    targetId: channelId,
    changes,
    options: { id: ow.id, type: String(ow.type), role_name: roleName ?? undefined },
  });
}

/** MEMBER_UPDATE for changed member fields and MEMBER_ROLE_UPDATE ($add / $remove) for changed roles. */
export async function auditMemberChange(
  ctx: Ctx,
  userId: string,
  guildId: string,
  before: { user_id: string; roles: string[] } & Record<string, any>,
  values: Record<string, unknown>,
): Promise<void> {
  const fields: Record<string, unknown> = {};
  for (const k of ['nick', 'mute', 'deaf', 'communication_disabled_until', 'flags'] as const) if (k in values) fields[k] = values[k];
  const norm = (k: string, v: unknown) => {
    if (k === 'mute' || k === 'deaf') return v === 1 || v === true;
    if (k === 'communication_disabled_until') return v == null ? null : new Date(Number(v)).toISOString();
    return v;
  };
  if (Object.keys(fields).length) {
    const old = Object.fromEntries(Object.keys(fields).map((k) => [k, norm(k, before[k])]));
    const next = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, norm(k, v)]));
    await writeAuditLog(ctx, {
      guildId,
      userId,
      actionType: AuditLogEvent.MEMBER_UPDATE,
      targetId: before.user_id,
      changes: auditChanges('member', old, next),
    });
  }
  if (typeof values.roles === 'string') {
    const nextRoles = parseJson<string[]>(values.roles, []);
    const added = nextRoles.filter((r) => !before.roles.includes(r));
    const removed = before.roles.filter((r) => !nextRoles.includes(r));
    if (!added.length && !removed.length) return;
    const ids = [...added, ...removed].filter(isId);
    const names = ids.length ? await ctx.repos.roles.namesOf(ids) : new Map<string, string>();
    const part = (list: string[]) => list.map((id) => ({ id, name: names.get(id) ?? '' }));
    const changes: AuditChange[] = [];
    if (added.length) changes.push({ key: '$add', new_value: part(added) });
    if (removed.length) changes.push({ key: '$remove', new_value: part(removed) });
    await writeAuditLog(ctx, { guildId, userId, actionType: AuditLogEvent.MEMBER_ROLE_UPDATE, targetId: before.user_id, changes });
  }
}

/** One entry per user for bans (22) and unbans (23). */
export async function auditBans(ctx: Ctx, userId: string, guildId: string, targets: string[], actionType: number): Promise<void> {
  for (const target of targets) await writeAuditLog(ctx, { guildId, userId, actionType, targetId: target });
}

/** The webhook as audit changes see it (`avatar_hash` instead of `avatar`). */
export const webhookAudit = (w: { type?: number; name?: string; avatar?: string | null; channel_id?: string; application_id?: string | null } | null) =>
  w ? { type: w.type, name: w.name, avatar_hash: w.avatar ?? null, channel_id: w.channel_id, application_id: w.application_id ?? null } : null;

/** The invite as audit changes see it. */
export const inviteAudit = (
  i: { code: string; channel_id: string; inviter_id: string | null; uses: number; max_uses: number; max_age: number; temporary: boolean; flags: number } | null,
) =>
  i
    ? {
        code: i.code,
        channel_id: i.channel_id,
        inviter_id: i.inviter_id,
        uses: i.uses,
        max_uses: i.max_uses,
        max_age: i.max_age,
        temporary: i.temporary,
        flags: i.flags,
      }
    : null;

/** A thread as audit changes see it (its metadata flattened). */
export const threadAudit = (t: Record<string, any> | null) =>
  t
    ? { name: t.name, type: t.type, rate_limit_per_user: t.rate_limit_per_user, flags: t.flags, applied_tags: t.applied_tags, ...(t.thread_metadata ?? {}) }
    : null;

/** A command's stored permission overwrites (before a change is written). */
export async function storedCommandPermissions(ctx: Ctx, applicationId: string, guildId: string, commandId: string): Promise<{ id: string }[]> {
  return parseJson<{ id: string }[]>(await ctx.repos.commands.storedPermissionsJson(applicationId, guildId, commandId), []);
}

/** APPLICATION_COMMAND_PERMISSION_UPDATE: one change per overwritten entity, keyed by its id. */
export async function auditCommandPermissions(
  ctx: Ctx,
  userId: string,
  guildId: string,
  applicationId: string,
  commandId: string,
  before: { id: string }[],
  after: { id: string }[],
): Promise<void> {
  const ids = [...new Set([...before, ...after].map((p) => String(p.id)))];
  const changes: AuditChange[] = [];
  for (const key of ids) {
    const o = before.find((p) => String(p.id) === key);
    const n = after.find((p) => String(p.id) === key);
    if (same(o, n)) continue;
    changes.push({ key, ...(o ? { old_value: o } : {}), ...(n ? { new_value: n } : {}) });
  }
  if (!changes.length) return;
  await writeAuditLog(ctx, {
    guildId,
    userId,
    actionType: AuditLogEvent.APPLICATION_COMMAND_PERMISSION_UPDATE,
    targetId: commandId,
    changes,
    options: { application_id: applicationId },
  });
}
