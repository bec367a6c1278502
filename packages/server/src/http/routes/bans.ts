import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { banUser, bulkBan, getBan, listBans, unbanUser } from '../../services/moderation/bans.js';

const deleteSeconds = z.number().int().min(0).max(604800);
const ListQuery = z.object({ limit: qInt(1, 1000), before: snowflake.optional(), after: snowflake.optional() });
/** `delete_message_days` (0-7) is the deprecated spelling of `delete_message_seconds`. */
const BanBody = z.object({ delete_message_seconds: deleteSeconds.optional(), delete_message_days: z.number().int().min(0).max(7).optional() });
const BulkBody = z.object({ user_ids: z.array(snowflake).min(1).max(200), delete_message_seconds: deleteSeconds.optional() });

export default new Routes()
  .get('/guilds/{guild_id}/bans', 'any', async ({ ctx, actor, params, query }) => listBans(ctx, actor, params.guild_id, parseBody(ListQuery, query)))
  .get('/guilds/{guild_id}/bans/{user_id}', 'any', async ({ ctx, actor, params }) => getBan(ctx, actor, params.guild_id, params.user_id))
  .put('/guilds/{guild_id}/bans/{user_id}', 'any', async ({ ctx, actor, params, body, reason }) => {
    const b = parseBody(BanBody, body);
    const seconds = b.delete_message_seconds ?? (b.delete_message_days ?? 0) * 86400;
    await banUser(ctx, actor, params.guild_id, params.user_id, { deleteMessageSeconds: seconds, reason });
    return noContent();
  })
  .delete('/guilds/{guild_id}/bans/{user_id}', 'any', async ({ ctx, actor, params }) => {
    await unbanUser(ctx, actor, params.guild_id, params.user_id);
    return noContent();
  })
  .post('/guilds/{guild_id}/bulk-ban', 'any', async ({ ctx, actor, params, body, reason }) => {
    const b = parseBody(BulkBody, body);
    return bulkBan(ctx, actor, params.guild_id, b.user_ids, { deleteMessageSeconds: b.delete_message_seconds ?? 0, reason });
  });
