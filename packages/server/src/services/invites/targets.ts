import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { parseJson } from '../../store/json.js';
import type { InviteRecord } from '../../store/records.js';
import { partialRole } from '../../wire/role.js';
import { guildRoles } from '../guilds/lookup.js';
import { isId } from '../../core/ids.js';

/**
 * Invite extras: target users (only listed users may accept; uploaded as a CSV `target_users_file`, read back as a CSV
 * with the single header `user_id`) and roles granted on accept (`role_ids`). Stored beside the invite in
 * `invite_targets` and `invite_meta`.
 */

export const MAX_TARGET_USERS = 100_000;
const notTargeted = () => new ApiError(403, 50001, 'Missing Access');

export interface InviteMeta {
  role_ids: string[];
  targeted: boolean;
  job: { created_at: number; completed_at: number; total: number } | null;
}

export async function inviteMeta(ctx: Ctx, code: string): Promise<InviteMeta | null> {
  const row = await ctx.repos.invites.meta(code);
  if (!row) return null;
  return { role_ids: parseJson(row.role_ids, []), targeted: Number(row.targeted) === 1, job: parseJson(row.job, null) };
}

/** Codes of the given invites that carry extras (such invites are never handed out again as a reused invite). */
export async function codesWithMeta(ctx: Ctx, codes: string[]): Promise<Set<string>> {
  return ctx.repos.invites.codesWithMeta(codes);
}

/**
 * User ids from a CSV: one per line, first column; a first line that is not an id (the `user_id` header) is skipped.
 * Anything else that is not a snowflake is a 50035 on `field`.
 */
export function parseTargetCsv(data: Buffer | string, field = 'target_users_file'): string[] {
  const text = (typeof data === 'string' ? data : data.toString('utf8')).replace(/^\uFEFF/, '');
  const lines = text
    .split(/\r?\n/)
    .map((l) =>
      l
        .split(',')[0]
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter((l) => l !== '');
  if (lines.length && !/^\d+$/.test(lines[0])) lines.shift();
  const bad = lines.findIndex((l) => !isId(l));
  if (bad >= 0) throw fieldError(field, 'TARGET_USERS_FILE_INVALID', `Line ${bad + 1} is not a user id.`);
  const ids = [...new Set(lines)];
  if (ids.length > MAX_TARGET_USERS) throw fieldError(field, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_TARGET_USERS} or fewer in length.`);
  return ids;
}

/** `role_ids` as a list of ids: JSON arrays, comma-separated strings (multipart forms) and arrays are accepted. */
export function parseRoleIds(v: unknown): string[] | undefined {
  if (v == null || v === '') return undefined;
  let list: unknown = v;
  if (typeof v === 'string') {
    const s = v.trim();
    list = s.startsWith('[')
      ? parseJson<unknown>(s, null)
      : s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
  }
  if (!Array.isArray(list)) throw fieldError('role_ids', 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType');
  const out = list.map((x) => (typeof x === 'number' && Number.isSafeInteger(x) ? String(x) : x));
  out.forEach((x, i) => {
    if (!isId(x)) throw fieldError(['role_ids', i], 'BASE_TYPE_INVALID', 'Value is not snowflake.');
  });
  return [...new Set(out as string[])];
}

/**
 * Roles an invite may grant: roles of the guild other than @everyone, not managed, below the caller's top role, and
 * the caller needs MANAGE_ROLES.
 */
export async function checkInviteRoles(ctx: Ctx, actor: Actor, guildId: string, roleIds: string[]): Promise<void> {
  if (!roleIds.length) return;
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const roles = new Map((await guildRoles(ctx, guildId)).map((r) => [r.id, r]));
  const top = await ctx.access.topPosition(guildId, actor.user.id);
  roleIds.forEach((id, i) => {
    const r = roles.get(id);
    if (!r || r.id === guildId) throw fieldError(['role_ids', i], 'ROLE_INVALID', 'Invalid role.');
    if (r.managed || r.position >= top) throw Errors.missingPermissions();
  });
}

/** Stores an invite's extras right after the invite itself. */
export async function saveInviteExtras(ctx: Ctx, code: string, extras: { roleIds: string[]; targets: string[] | null }): Promise<void> {
  const now = ctx.clock.now();
  await ctx.repos.invites.insertExtras(
    code,
    {
      role_ids: JSON.stringify(extras.roleIds),
      targeted: extras.targets ? 1 : 0,
      job: extras.targets ? JSON.stringify({ created_at: now, completed_at: now, total: extras.targets.length }) : null,
    },
    extras.targets,
  );
}

/** The partial roles an invite grants (Get Channel Invites: id, name, position, color, colors, icon, unicode_emoji). */
export async function inviteRoles(ctx: Ctx, inv: InviteRecord, meta: InviteMeta | null) {
  if (!meta?.role_ids.length || !inv.guild_id) return null;
  const roles = (await guildRoles(ctx, inv.guild_id)).filter((r) => meta.role_ids.includes(r.id));
  return roles.map(partialRole);
}

/** Who may manage an invite's targets: its inviter, MANAGE_CHANNELS on its channel, or MANAGE_GUILD. */
export async function requireInviteManager(ctx: Ctx, actor: Actor, inv: InviteRecord): Promise<void> {
  if (inv.inviter_id === actor.user.id) return;
  if (!inv.guild_id) throw Errors.missingPermissions();
  const guildPerms = await ctx.access.requireGuild(inv.guild_id, actor.user.id);
  const chanPerms = (await ctx.access.channelPerms(inv.guild_id, inv.channel_id, actor.user.id)) ?? 0n;
  if (!ctx.access.hasPerm(chanPerms, P.MANAGE_CHANNELS) && !ctx.access.hasPerm(guildPerms, P.MANAGE_GUILD)) throw Errors.missingPermissions();
}

/** GET /invites/{code}/target-users: the CSV, header `user_id`, one id per line. */
export async function targetUsersCsv(ctx: Ctx, code: string): Promise<string> {
  const rows = await ctx.repos.invites.targetsOf(code);
  return ['user_id', ...rows].join('\n') + '\n';
}

/** Replaces (PUT with a file), adds or removes target users; the invite becomes targeted. */
export async function changeTargets(ctx: Ctx, code: string, op: 'replace' | 'add' | 'remove', ids: string[]): Promise<void> {
  const now = ctx.clock.now();
  const job = JSON.stringify({ created_at: now, completed_at: now, total: ids.length });
  await ctx.repos.invites.changeTargets(code, op, ids, job);
}

/** GET /invites/{code}/target-users/job-status: uploads are processed at once, so a job is COMPLETED (2) or absent (0). */
export async function targetJobStatus(ctx: Ctx, code: string) {
  const meta = await inviteMeta(ctx, code);
  const job = meta?.job;
  const iso = (ms: number | undefined) => (ms == null ? null : new Date(ms).toISOString());
  return {
    status: job ? 2 : 0,
    total_users: job?.total ?? 0,
    processed_users: job?.total ?? 0,
    created_at: iso(job?.created_at),
    completed_at: iso(job?.completed_at),
    error_message: null,
  };
}

/** Accept-time rules: a targeted invite admits listed users only (403 50001); returns the roles to grant. */
export async function acceptRules(ctx: Ctx, inv: InviteRecord, userId: string): Promise<string[]> {
  const meta = await inviteMeta(ctx, inv.code);
  if (!meta) return [];
  if (meta.targeted) {
    if (!(await ctx.repos.invites.isTarget(inv.code, userId))) throw notTargeted();
  }
  if (!meta.role_ids.length || !inv.guild_id) return [];
  const live = new Set((await guildRoles(ctx, inv.guild_id)).map((r) => r.id));
  return meta.role_ids.filter((id) => live.has(id) && id !== inv.guild_id);
}

/** Drops an invite's extras with the invite. */
export async function deleteInviteExtras(ctx: Ctx, code: string): Promise<void> {
  await ctx.repos.invites.deleteExtras(code);
}
