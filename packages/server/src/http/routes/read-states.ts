import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { channelFor } from '../../services/messages/channel.js';
import { ackMessage } from '../../services/messages/read-states.js';

/** `token` is accepted and ignored, as the platform does now. */
const AckBody = z.object({
  token: z.string().max(1000).nullable().optional(),
  manual: z.boolean().optional(),
  mention_count: z.number().int().min(0).max(0x7fffffff).optional(),
});

export default new Routes().post('/channels/{channel_id}/messages/{message_id}/ack', 'user', async ({ ctx, actor, params, body }) => {
  const input = parseBody(AckBody, body ?? {});
  return ackMessage(ctx, actor, await channelFor(ctx, actor, params.channel_id, false), params.message_id, input);
});
