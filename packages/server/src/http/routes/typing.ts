import { Routes, noContent } from '../router.js';
import { channelForSend } from '../../services/messages/channel.js';
import { startTyping } from '../../services/channels/typing.js';

export default new Routes().post('/channels/{channel_id}/typing', 'any', async ({ ctx, actor, params }) => {
  await startTyping(ctx, await channelForSend(ctx, actor, params.channel_id), actor.user); // the channel from memory
  return noContent();
});
