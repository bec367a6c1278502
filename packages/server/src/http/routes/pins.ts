import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, qInt } from '../../core/validation.js';
import { channelFor } from '../../services/messages/channel.js';
import { listPins, listPinsLegacy, pinMessage, unpinMessage } from '../../services/channels/pins.js';

const PinsQuery = z.object({
  before: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Could not parse timestamp.', params: { code: 'DATE_TYPE_PARSE' } })
    .optional(),
  limit: qInt(1, 50),
});

export default new Routes()
  .get('/channels/{channel_id}/messages/pins', 'any', async ({ ctx, actor, params, query }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, false);
    const q = parseBody(PinsQuery, query);
    return listPins(ctx, ch, actor.user.id, { before: q.before ? Date.parse(q.before) : undefined, limit: q.limit });
  })
  .put('/channels/{channel_id}/messages/pins/{message_id}', 'any', async ({ ctx, actor, params }) => {
    await pinMessage(ctx, await channelFor(ctx, actor, params.channel_id, true), actor.user, params.message_id);
    return noContent();
  })
  .delete('/channels/{channel_id}/messages/pins/{message_id}', 'any', async ({ ctx, actor, params }) => {
    await unpinMessage(ctx, await channelFor(ctx, actor, params.channel_id, true), actor.user, params.message_id);
    return noContent();
  })
  // The deprecated routes, still used by many libraries.
  .get('/channels/{channel_id}/pins', 'any', async ({ ctx, actor, params }) => {
    return listPinsLegacy(ctx, await channelFor(ctx, actor, params.channel_id, false), actor.user.id);
  })
  .put('/channels/{channel_id}/pins/{message_id}', 'any', async ({ ctx, actor, params }) => {
    await pinMessage(ctx, await channelFor(ctx, actor, params.channel_id, true), actor.user, params.message_id);
    return noContent();
  })
  .delete('/channels/{channel_id}/pins/{message_id}', 'any', async ({ ctx, actor, params }) => {
    await unpinMessage(ctx, await channelFor(ctx, actor, params.channel_id, true), actor.user, params.message_id);
    return noContent();
  });
