import { Routes, noContent } from '../router.js';
import { channelFor } from '../../services/messages/channel.js';
import { startTyping } from '../../services/channels/typing.js';

export default new Routes()
  .post('/channels/{channel_id}/typing', 'any', async ({ ctx, actor, params }) => {
    await startTyping(ctx, await channelFor(ctx, actor, params.channel_id, true), actor.user);
    return noContent();
  });
