import { z } from 'zod';
import { Reply, Routes, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { addGroupDmRecipient, removeGroupDmRecipient } from '../../services/channels/group-dms.js';

const AddRecipient = z.object({
  access_token: z.string().max(1024).nullable().optional(),
  nick: z.string().max(32).nullable().optional(),
});

/** Group DM recipients (bots on the group DMs they manage, users on their own). Creation is POST /users/@me/channels. */
export default new Routes()
  .put('/channels/{channel_id}/recipients/{user_id}', 'any', async ({ ctx, actor, params, body }) => {
    const ch = await addGroupDmRecipient(ctx, actor, params.channel_id, params.user_id, parseBody(AddRecipient, body ?? {}));
    return ch ? new Reply(201, ch) : noContent();
  })
  .delete('/channels/{channel_id}/recipients/{user_id}', 'any', async ({ ctx, actor, params }) => {
    await removeGroupDmRecipient(ctx, actor, params.channel_id, params.user_id);
    return noContent();
  });
