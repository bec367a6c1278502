import { z } from 'zod';
import { Reply, Routes, noContent, type Call } from '../router.js';
import { parseBody, qBool, snowflake } from '../../core/validation.js';
import { fieldError } from '../../core/errors.js';
import {
  acceptInvite,
  createInvite,
  listChannelInvites,
  listGuildInvites,
  requireInviteFor,
  resolveInvite,
  revokeInvite,
} from '../../services/invites/invites.js';
import { changeTargets, parseRoleIds, parseTargetCsv, requireInviteManager, targetJobStatus, targetUsersCsv } from '../../services/invites/targets.js';

/** Multipart form fields arrive as strings. */
const formInt = (v: unknown) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v);
const formBool = (v: unknown) => (v === 'true' || v === 'True' ? true : v === 'false' || v === 'False' ? false : v);
const CreateInvite = z.object({
  max_age: z.preprocess(formInt, z.number().int().min(0).max(604800).nullable().optional()),
  max_uses: z.preprocess(formInt, z.number().int().min(0).max(100).nullable().optional()),
  temporary: z.preprocess(formBool, z.boolean().nullable().optional()),
  unique: z.preprocess(formBool, z.boolean().nullable().optional()),
  role_ids: z.unknown().optional(),
  target_user_ids: z.unknown().optional(),
});
const userId = snowflake.refine((v) => !/^\d+$/.test(v) || BigInt(v) < 1n << 63n, { message: 'Value is not snowflake.' });
const UserIds = z.object({ user_ids: z.array(userId).min(1).max(1000) });

/** The target users of a create or update: the `target_users_file` CSV part, or `target_user_ids` (list or CSV text). */
function targetsOf(call: Call, b: { target_user_ids?: unknown }): string[] | null {
  const file = call.files.find((f) => f.field === 'target_users_file');
  if (file) return parseTargetCsv(file.data);
  if (typeof call.body?.target_users_file === 'string') return parseTargetCsv(call.body.target_users_file);
  if (b.target_user_ids == null || b.target_user_ids === '') return null;
  if (typeof b.target_user_ids === 'string') return parseTargetCsv(b.target_user_ids.replace(/,/g, '\n'), 'target_user_ids');
  if (!Array.isArray(b.target_user_ids)) throw fieldError('target_user_ids', 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType');
  return parseTargetCsv(b.target_user_ids.map(String).join('\n'), 'target_user_ids');
}

async function managedInvite(call: Call) {
  const inv = await requireInviteFor(call.ctx, call.params.code);
  await requireInviteManager(call.ctx, call.actor, inv);
  return inv;
}
const ResolveQuery = z.object({ with_counts: qBool, with_expiration: qBool });

export default new Routes()
  .post('/channels/{channel_id}/invites', 'any', async (call) => {
    const { ctx, actor, params, body } = call;
    const b = parseBody(CreateInvite, body);
    return createInvite(ctx, actor, params.channel_id, {
      max_age: b.max_age ?? undefined,
      max_uses: b.max_uses ?? undefined,
      temporary: b.temporary ?? undefined,
      unique: b.unique ?? undefined,
      role_ids: parseRoleIds(b.role_ids),
      target_users: targetsOf(call, b),
    });
  })
  .get('/channels/{channel_id}/invites', 'any', async ({ ctx, actor, params }) => listChannelInvites(ctx, actor, params.channel_id))
  .get('/guilds/{guild_id}/invites', 'any', async ({ ctx, actor, params }) => listGuildInvites(ctx, actor, params.guild_id))
  .get('/invites/{code}', 'optional', async ({ ctx, params, query }) => {
    const q = parseBody(ResolveQuery, query);
    return resolveInvite(ctx, params.code, { withCounts: !!q.with_counts });
  })
  .delete('/invites/{code}', 'any', async ({ ctx, actor, params }) => revokeInvite(ctx, actor, params.code))
  .post('/invites/{code}', 'user', async ({ ctx, actor, params }) => acceptInvite(ctx, actor, params.code))
  // Target users: only listed users may accept. Reads give a CSV with the single header `user_id`.
  .get('/invites/{code}/target-users', 'any', async (call) => {
    const inv = await managedInvite(call);
    return new Reply(200, await targetUsersCsv(call.ctx, inv.code), 'text/csv; charset=utf-8');
  })
  .put('/invites/{code}/target-users', 'any', async (call) => {
    const inv = await managedInvite(call);
    const ids = targetsOf(call, {});
    if (!ids) throw fieldError('target_users_file', 'BASE_TYPE_REQUIRED', 'This field is required');
    await changeTargets(call.ctx, inv.code, 'replace', ids);
    return noContent();
  })
  .get('/invites/{code}/target-users/job-status', 'any', async (call) => targetJobStatus(call.ctx, (await managedInvite(call)).code))
  .post('/invites/{code}/target-users/bulk-add', 'any', async (call) => {
    const inv = await managedInvite(call);
    await changeTargets(call.ctx, inv.code, 'add', parseBody(UserIds, call.body).user_ids);
    return noContent();
  })
  .post('/invites/{code}/target-users/bulk-delete', 'any', async (call) => {
    const inv = await managedInvite(call);
    await changeTargets(call.ctx, inv.code, 'remove', parseBody(UserIds, call.body).user_ids);
    return noContent();
  })
  .put('/invites/{code}/target-users/{user_id}', 'any', async (call) => {
    const inv = await managedInvite(call);
    if (!/^\d{1,19}$/.test(call.params.user_id) || BigInt(call.params.user_id) >= 1n << 63n)
      throw fieldError('user_id', 'BASE_TYPE_INVALID', 'Value is not snowflake.');
    await changeTargets(call.ctx, inv.code, 'add', [call.params.user_id]);
    return noContent();
  })
  .delete('/invites/{code}/target-users/{user_id}', 'any', async (call) => {
    const inv = await managedInvite(call);
    if (/^\d{1,19}$/.test(call.params.user_id) && BigInt(call.params.user_id) < 1n << 63n)
      await changeTargets(call.ctx, inv.code, 'remove', [call.params.user_id]);
    return noContent();
  });
