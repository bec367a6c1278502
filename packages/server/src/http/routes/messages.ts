import { z } from 'zod';
import { Reply, Routes, noContent, type Call } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { ApiError } from '../../core/errors.js';
import { channelFor, channelForSend } from '../../services/messages/channel.js';
import { createMessageView } from '../../services/messages/create.js';
import { editMessage } from '../../services/messages/edit.js';
import { bulkDeleteMessages, deleteMessage } from '../../services/messages/delete.js';
import { getMessage, listMessages } from '../../services/messages/read.js';
import { MessageCreateBody, MessageEditBody } from '../../services/messages/schema.js';
import { messageWire, messagesWire } from '../../services/messages/view.js';
import reactions from './reactions.js';
import pins from './pins.js';
import typing from './typing.js';

const ListQuery = z.object({ before: snowflake.optional(), after: snowflake.optional(), around: snowflake.optional(), limit: qInt(1, 100) });
const BulkDelete = z.object({ messages: z.array(snowflake) });

const channelOf = (call: Call, write: boolean) => channelFor(call.ctx, call.actor, call.params.channel_id, write);

/** Slowmode is a 429 that clients must wait out, so it carries Retry-After like any rate limit. */
function slowmodeReply(e: ApiError): Reply {
  const retry = Number(e.extra?.retry_after ?? 1);
  return new Reply(429, e.toBody(), undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retry))), 'X-RateLimit-Scope': 'user' });
}

const routes = new Routes()
  .get('/channels/{channel_id}/messages', 'any', async (call) => {
    const ch = await channelOf(call, false);
    const q = parseBody(ListQuery, call.query);
    const records = await listMessages(call.ctx, ch, call.actor.user.id, q);
    return messagesWire(call.ctx, records, { viewerId: call.actor.user.id, reactions: true });
  })
  .post('/channels/{channel_id}/messages', 'any', async (call) => {
    const ch = await channelForSend(call.ctx, call.actor, call.params.channel_id);
    const body = parseBody(MessageCreateBody, call.body);
    try {
      return (await createMessageView(call.ctx, { channel: ch, author: call.actor.user, body, files: call.files }, call.actor.user.id)).rest;
    } catch (e) {
      if (e instanceof ApiError && e.code === 20016) return slowmodeReply(e);
      throw e;
    }
  })
  .post('/channels/{channel_id}/messages/bulk-delete', 'any', async (call) => {
    const ch = await channelOf(call, true);
    const body = parseBody(BulkDelete, call.body);
    await bulkDeleteMessages(call.ctx, ch, call.actor.user.id, body.messages);
    return noContent();
  })
  .get('/channels/{channel_id}/messages/{message_id}', 'any', async (call) => {
    const ch = await channelOf(call, false);
    const m = await getMessage(call.ctx, ch, call.actor.user.id, call.params.message_id);
    return messageWire(call.ctx, m, call.actor.user.id);
  })
  .patch('/channels/{channel_id}/messages/{message_id}', 'any', async (call) => {
    const ch = await channelOf(call, true);
    const body = parseBody(MessageEditBody, call.body);
    const m = await editMessage(call.ctx, { channel: ch, editor: call.actor.user, messageId: call.params.message_id, body, files: call.files });
    return messageWire(call.ctx, m, call.actor.user.id);
  })
  .delete('/channels/{channel_id}/messages/{message_id}', 'any', async (call) => {
    const ch = await channelOf(call, true);
    await deleteMessage(call.ctx, ch, call.actor.user.id, call.params.message_id);
    return noContent();
  });

// Reactions, pins and typing live in their own modules and register with this one.
routes.defs.push(...reactions.defs, ...pins.defs, ...typing.defs);

export default routes;
