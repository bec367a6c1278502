import { Routes } from '../router.js';
import { channelCommandIndex } from '../../services/apps/commands/channel-command-index.js';

/** The command picker's index for a DM or group DM, as the official client loads it. */
export default new Routes().get('/channels/{channel_id}/application-command-index', 'user', async (call) =>
  channelCommandIndex(call.ctx, call.actor, call.params.channel_id),
);
