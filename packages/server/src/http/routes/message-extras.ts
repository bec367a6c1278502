import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { answerVoters, expirePoll, vote } from '../../services/messages/polls.js';
import { crosspost, followChannel } from '../../services/channels/announcements.js';
import { setVoiceStatus } from '../../services/voice/status.js';
import { messageWire } from '../../services/messages/view.js';

const VoteBody = z.object({ answer_ids: z.array(z.union([z.string().regex(/^\d{1,3}$/), z.number().int().min(0).max(999)]).transform(String)).max(10) });
const VotersQuery = z.object({ after: snowflake.optional(), limit: qInt(1, 100) });
const FollowBody = z.object({ webhook_channel_id: snowflake });
const VoiceStatusBody = z.object({ status: z.string().max(500).nullable().optional() });

/** Polls (votes, voters, expiry), crossposting, channel following, and voice channel status. */
export default new Routes()
  .put('/channels/{channel_id}/polls/{message_id}/answers/@me', 'user', async ({ ctx, actor, params, body }) => {
    await vote(ctx, actor, params.channel_id, params.message_id, parseBody(VoteBody, body).answer_ids);
    return noContent();
  })
  .get('/channels/{channel_id}/polls/{message_id}/answers/{answer_id}', 'any', async ({ ctx, actor, params, query }) => {
    return answerVoters(ctx, actor, params.channel_id, params.message_id, params.answer_id, parseBody(VotersQuery, query));
  })
  .post('/channels/{channel_id}/polls/{message_id}/expire', 'any', async ({ ctx, actor, params }) => {
    const m = await expirePoll(ctx, actor, params.channel_id, params.message_id);
    return messageWire(ctx, m, actor.user.id);
  })
  .post('/channels/{channel_id}/messages/{message_id}/crosspost', 'any', async ({ ctx, actor, params }) => {
    const m = await crosspost(ctx, actor, params.channel_id, params.message_id);
    return messageWire(ctx, m, actor.user.id);
  })
  .post('/channels/{channel_id}/followers', 'any', async ({ ctx, actor, params, body }) => {
    return followChannel(ctx, actor, params.channel_id, parseBody(FollowBody, body).webhook_channel_id);
  })
  .put('/channels/{channel_id}/voice-status', 'any', async ({ ctx, actor, params, body }) => {
    await setVoiceStatus(ctx, actor, params.channel_id, parseBody(VoiceStatusBody, body).status ?? null);
    return noContent();
  });
