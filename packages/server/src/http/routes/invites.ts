import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody, qBool } from '../validation.js';
import { acceptInvite, createInvite, listChannelInvites, listGuildInvites, resolveInvite, revokeInvite } from '../../services/invites.js';

const CreateInvite = z.object({
  max_age: z.number().int().min(0).max(604800).nullable().optional(),
  max_uses: z.number().int().min(0).max(100).nullable().optional(),
  temporary: z.boolean().nullable().optional(),
  unique: z.boolean().nullable().optional(),
});
const ResolveQuery = z.object({ with_counts: qBool, with_expiration: qBool });

export default new Routes()
  .post('/channels/{channel_id}/invites', 'any', async ({ ctx, actor, params, body }) => {
    const b = parseBody(CreateInvite, body);
    return createInvite(ctx, actor, params.channel_id, {
      max_age: b.max_age ?? undefined, max_uses: b.max_uses ?? undefined, temporary: b.temporary ?? undefined, unique: b.unique ?? undefined,
    });
  })
  .get('/channels/{channel_id}/invites', 'any', async ({ ctx, actor, params }) => listChannelInvites(ctx, actor, params.channel_id))
  .get('/guilds/{guild_id}/invites', 'any', async ({ ctx, actor, params }) => listGuildInvites(ctx, actor, params.guild_id))
  .get('/invites/{code}', 'optional', async ({ ctx, params, query }) => {
    const q = parseBody(ResolveQuery, query);
    return resolveInvite(ctx, params.code, { withCounts: !!q.with_counts });
  })
  .delete('/invites/{code}', 'any', async ({ ctx, actor, params }) => revokeInvite(ctx, actor, params.code))
  .post('/invites/{code}', 'user', async ({ ctx, actor, params }) => acceptInvite(ctx, actor, params.code));
