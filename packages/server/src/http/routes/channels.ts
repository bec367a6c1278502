import { z } from 'zod';
import { Routes, created, noContent } from '../router.js';
import { parseBody, permissionString, snowflake } from '../../core/validation.js';
import {
  createChannel,
  deleteChannel,
  listGuildChannels,
  reorderChannels,
  requireChannelRecord,
  updateChannel,
  viewChannel,
} from '../../services/channels/channels.js';
import { updateThread } from '../../services/channels/threads/threads.js';
import { THREAD_TYPES } from '../../wire/channel.js';
import { deleteOverwrite, putOverwrite } from '../../services/channels/overwrites.js';

/** Overwrite and channel types arrive as numbers; some libraries send them as numeric strings. */
const digits = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
const overwriteType = z.preprocess(digits, z.literal([0, 1]));
const Overwrite = z.object({ id: snowflake, type: overwriteType, allow: permissionString.nullable().optional(), deny: permissionString.nullable().optional() });
const slowmode = z.number().int().min(0).max(21600);
/** Integer columns are 32-bit; larger values are refused here rather than overflowing the store. */
const int32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
const Tag = z.object({
  id: snowflake.optional(),
  name: z.string().min(1).max(50),
  moderated: z.boolean().nullable().optional(),
  emoji_id: snowflake.nullable().optional(),
  emoji_name: z.string().max(32).nullable().optional(),
});

const ChannelFields = {
  topic: z.string().max(4096).nullable().optional(),
  bitrate: int32.min(8000).nullable().optional(),
  user_limit: int32.nullable().optional(),
  rate_limit_per_user: slowmode.nullable().optional(),
  position: int32.nullable().optional(),
  permission_overwrites: z.array(Overwrite).max(100).nullable().optional(),
  parent_id: snowflake.nullable().optional(),
  nsfw: z.boolean().nullable().optional(),
  rtc_region: z.string().max(64).nullable().optional(),
  video_quality_mode: z.literal([1, 2]).nullable().optional(),
  default_auto_archive_duration: z.literal([60, 1440, 4320, 10080]).nullable().optional(),
  default_reaction_emoji: z
    .object({ emoji_id: snowflake.nullable().optional(), emoji_name: z.string().max(32).nullable().optional() })
    .nullable()
    .optional(),
  available_tags: z.array(Tag).max(20).nullable().optional(),
  default_sort_order: z.literal([0, 1]).nullable().optional(),
  default_forum_layout: z.literal([0, 1, 2]).nullable().optional(),
  default_thread_rate_limit_per_user: slowmode.nullable().optional(),
  flags: int32.nullable().optional(),
};
const channelType = z.preprocess(digits, z.literal([0, 2, 4, 5, 13, 15, 16]));
const CreateChannel = z.object({ name: z.string().min(1).max(100), type: channelType.optional(), ...ChannelFields });
const PatchChannel = z.object({
  name: z.string().min(1).max(100).optional(),
  type: channelType.optional(),
  ...ChannelFields,
});
const Positions = z
  .array(
    z.object({
      id: snowflake,
      position: int32.nullable().optional(),
      parent_id: snowflake.nullable().optional(),
      lock_permissions: z.boolean().nullable().optional(),
    }),
  )
  .max(500);
const PutOverwrite = z.object({ type: overwriteType, allow: permissionString.nullable().optional(), deny: permissionString.nullable().optional() });

export default new Routes()
  .get('/guilds/{guild_id}/channels', 'any', async ({ ctx, actor, params }) => listGuildChannels(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/channels', 'any', async ({ ctx, actor, params, body }) => {
    return created(await createChannel(ctx, actor, params.guild_id, parseBody(CreateChannel, body)));
  })
  .patch('/guilds/{guild_id}/channels', 'any', async ({ ctx, actor, params, body }) => {
    await reorderChannels(ctx, actor, params.guild_id, parseBody(Positions, body));
    return noContent();
  })
  .get('/channels/{channel_id}', 'any', async ({ ctx, actor, params }) => viewChannel(ctx, actor, params.channel_id))
  .patch('/channels/{channel_id}', 'any', async ({ ctx, actor, params, body }) => {
    // Threads share this route; their patch has its own shape and rules.
    const ch = await requireChannelRecord(ctx, params.channel_id);
    if (THREAD_TYPES.has(ch.type)) return updateThread(ctx, actor, ch, body);
    return updateChannel(ctx, actor, ch, parseBody(PatchChannel, body));
  })
  .delete('/channels/{channel_id}', 'any', async ({ ctx, actor, params }) => deleteChannel(ctx, actor, params.channel_id))
  .put('/channels/{channel_id}/permissions/{overwrite_id}', 'any', async ({ ctx, actor, params, body }) => {
    await putOverwrite(ctx, actor, params.channel_id, params.overwrite_id, parseBody(PutOverwrite, body));
    return noContent();
  })
  .delete('/channels/{channel_id}/permissions/{overwrite_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteOverwrite(ctx, actor, params.channel_id, params.overwrite_id);
    return noContent();
  });
