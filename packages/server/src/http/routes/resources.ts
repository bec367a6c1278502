import { z } from 'zod';
import { Routes, created, noContent } from '../router.js';
import { parseBody, qBool, qInt, snowflake } from '../../core/validation.js';
import {
  createAppEmoji,
  createGuildEmoji,
  deleteAppEmoji,
  deleteGuildEmoji,
  getAppEmoji,
  getGuildEmoji,
  listAppEmojis,
  listGuildEmojis,
  updateAppEmoji,
  updateGuildEmoji,
} from '../../services/expressions/emojis.js';
import {
  createGuildSticker,
  deleteGuildSticker,
  getGuildSticker,
  getSticker,
  getStickerPack,
  listGuildStickers,
  listStickerPacks,
  updateGuildSticker,
} from '../../services/expressions/stickers.js';
import { createGuildSound, defaultSounds, deleteGuildSound, getGuildSound, listGuildSounds, updateGuildSound } from '../../services/expressions/soundboard.js';
import {
  countEventUsers,
  createEvent,
  createException,
  deleteEvent,
  deleteException,
  getEvent,
  listEvents,
  listEventUsers,
  listExceptionUsers,
  setInterested,
  updateEvent,
  updateException,
} from '../../services/events/scheduled-events.js';
import { createStageInstance, deleteStageInstance, getStageInstance, updateStageInstance } from '../../services/channels/stage-instances.js';
import { listAuditLog } from '../../services/moderation/audit-log-read.js';
import { updateRule } from '../../services/moderation/automod.js';
import { deleteIntegration, listIntegrations } from '../../services/guilds/integrations.js';

/**
 * Emoji (guild and application), stickers and sticker packs, the soundboard, guild scheduled events, stage instances,
 * the audit log, AutoMod rule edits (the other AutoMod routes live with interactions) and integrations.
 */

const WithCounts = z.object({ with_user_count: qBool });
const AuditQuery = z.object({
  user_id: snowflake.optional(),
  target_id: snowflake.optional(),
  action_type: qInt(0, 1_000_000),
  before: snowflake.optional(),
  after: snowflake.optional(),
  limit: qInt(1, 100),
});

const expressions = new Routes()
  // Guild emoji
  .get('/guilds/{guild_id}/emojis', 'any', async ({ ctx, actor, params }) => listGuildEmojis(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/emojis', 'any', async ({ ctx, actor, params, body }) => created(await createGuildEmoji(ctx, actor, params.guild_id, body)))
  .get('/guilds/{guild_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params }) => getGuildEmoji(ctx, actor, params.guild_id, params.emoji_id))
  .patch('/guilds/{guild_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateGuildEmoji(ctx, actor, params.guild_id, params.emoji_id, body),
  )
  .delete('/guilds/{guild_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteGuildEmoji(ctx, actor, params.guild_id, params.emoji_id);
    return noContent();
  })
  // Application emoji
  .get('/applications/{application_id}/emojis', 'any', async ({ ctx, actor, params }) => listAppEmojis(ctx, actor, params.application_id))
  .post('/applications/{application_id}/emojis', 'any', async ({ ctx, actor, params, body }) =>
    created(await createAppEmoji(ctx, actor, params.application_id, body)),
  )
  .get('/applications/{application_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params }) =>
    getAppEmoji(ctx, actor, params.application_id, params.emoji_id),
  )
  .patch('/applications/{application_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateAppEmoji(ctx, actor, params.application_id, params.emoji_id, body),
  )
  .delete('/applications/{application_id}/emojis/{emoji_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteAppEmoji(ctx, actor, params.application_id, params.emoji_id);
    return noContent();
  })
  // Stickers
  .get('/sticker-packs', 'optional', async () => listStickerPacks())
  .get('/sticker-packs/{pack_id}', 'any', async ({ params }) => getStickerPack(params.pack_id))
  .get('/stickers/{sticker_id}', 'any', async ({ ctx, params }) => getSticker(ctx, params.sticker_id))
  .get('/guilds/{guild_id}/stickers', 'any', async ({ ctx, actor, params }) => listGuildStickers(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/stickers', 'any', async ({ ctx, actor, params, body, files }) =>
    created(await createGuildSticker(ctx, actor, params.guild_id, body, files)),
  )
  .get('/guilds/{guild_id}/stickers/{sticker_id}', 'any', async ({ ctx, actor, params }) => getGuildSticker(ctx, actor, params.guild_id, params.sticker_id))
  .patch('/guilds/{guild_id}/stickers/{sticker_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateGuildSticker(ctx, actor, params.guild_id, params.sticker_id, body),
  )
  .delete('/guilds/{guild_id}/stickers/{sticker_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteGuildSticker(ctx, actor, params.guild_id, params.sticker_id);
    return noContent();
  })
  // Soundboard (sending a sound is voice's)
  .get('/soundboard-default-sounds', 'any', async () => defaultSounds())
  .get('/guilds/{guild_id}/soundboard-sounds', 'any', async ({ ctx, actor, params }) => listGuildSounds(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/soundboard-sounds', 'any', async ({ ctx, actor, params, body }) =>
    created(await createGuildSound(ctx, actor, params.guild_id, body)),
  )
  .get('/guilds/{guild_id}/soundboard-sounds/{sound_id}', 'any', async ({ ctx, actor, params }) => getGuildSound(ctx, actor, params.guild_id, params.sound_id))
  .patch('/guilds/{guild_id}/soundboard-sounds/{sound_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateGuildSound(ctx, actor, params.guild_id, params.sound_id, body),
  )
  .delete('/guilds/{guild_id}/soundboard-sounds/{sound_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteGuildSound(ctx, actor, params.guild_id, params.sound_id);
    return noContent();
  });

const EVENT = '/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}';
const events = new Routes()
  .get('/guilds/{guild_id}/scheduled-events', 'any', async ({ ctx, actor, params, query }) =>
    listEvents(ctx, actor, params.guild_id, !!parseBody(WithCounts, query).with_user_count),
  )
  .post('/guilds/{guild_id}/scheduled-events', 'any', async ({ ctx, actor, params, body }) => createEvent(ctx, actor, params.guild_id, body))
  .get(EVENT, 'any', async ({ ctx, actor, params, query }) =>
    getEvent(ctx, actor, params.guild_id, params.guild_scheduled_event_id, !!parseBody(WithCounts, query).with_user_count),
  )
  .patch(EVENT, 'any', async ({ ctx, actor, params, body }) => updateEvent(ctx, actor, params.guild_id, params.guild_scheduled_event_id, body))
  .delete(EVENT, 'any', async ({ ctx, actor, params }) => {
    await deleteEvent(ctx, actor, params.guild_id, params.guild_scheduled_event_id);
    return noContent();
  })
  .get(`${EVENT}/users`, 'any', async ({ ctx, actor, params, query }) => listEventUsers(ctx, actor, params.guild_id, params.guild_scheduled_event_id, query))
  .get(`${EVENT}/users/counts`, 'any', async ({ ctx, actor, params, query }) =>
    countEventUsers(ctx, actor, params.guild_id, params.guild_scheduled_event_id, query),
  )
  // The official client's RSVP routes (people only).
  .put(`${EVENT}/users/@me`, 'user', async ({ ctx, actor, params }) => {
    await setInterested(ctx, actor, params.guild_id, params.guild_scheduled_event_id, true);
    return noContent();
  })
  .delete(`${EVENT}/users/@me`, 'user', async ({ ctx, actor, params }) => {
    await setInterested(ctx, actor, params.guild_id, params.guild_scheduled_event_id, false);
    return noContent();
  })
  .post(`${EVENT}/exceptions`, 'any', async ({ ctx, actor, params, body }) =>
    createException(ctx, actor, params.guild_id, params.guild_scheduled_event_id, body),
  )
  .patch(`${EVENT}/exceptions/{exception_id}`, 'any', async ({ ctx, actor, params, body }) =>
    updateException(ctx, actor, params.guild_id, params.guild_scheduled_event_id, params.exception_id, body),
  )
  .delete(`${EVENT}/exceptions/{exception_id}`, 'any', async ({ ctx, actor, params }) => {
    await deleteException(ctx, actor, params.guild_id, params.guild_scheduled_event_id, params.exception_id);
    return noContent();
  })
  // The spec's path for exception users, and the docs' one.
  .get(`${EVENT}/{guild_scheduled_event_exception_id}/users`, 'any', async ({ ctx, actor, params, query }) =>
    listExceptionUsers(ctx, actor, params.guild_id, params.guild_scheduled_event_id, params.guild_scheduled_event_exception_id, query),
  )
  .get(`${EVENT}/exceptions/{exception_id}/users`, 'any', async ({ ctx, actor, params, query }) =>
    listExceptionUsers(ctx, actor, params.guild_id, params.guild_scheduled_event_id, params.exception_id, query),
  )
  // Stage instances
  .post('/stage-instances', 'any', async ({ ctx, actor, body }) => createStageInstance(ctx, actor, body))
  .get('/stage-instances/{channel_id}', 'any', async ({ ctx, actor, params }) => getStageInstance(ctx, actor, params.channel_id))
  .patch('/stage-instances/{channel_id}', 'any', async ({ ctx, actor, params, body }) => updateStageInstance(ctx, actor, params.channel_id, body))
  .delete('/stage-instances/{channel_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteStageInstance(ctx, actor, params.channel_id);
    return noContent();
  });

const moderation = new Routes()
  .get('/guilds/{guild_id}/audit-logs', 'any', async ({ ctx, actor, params, query }) => listAuditLog(ctx, actor, params.guild_id, parseBody(AuditQuery, query)))
  .patch('/guilds/{guild_id}/auto-moderation/rules/{rule_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateRule(ctx, actor, params.guild_id, params.rule_id, body),
  )
  .get('/guilds/{guild_id}/integrations', 'any', async ({ ctx, actor, params }) => listIntegrations(ctx, actor, params.guild_id))
  .delete('/guilds/{guild_id}/integrations/{integration_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteIntegration(ctx, actor, params.guild_id, params.integration_id);
    return noContent();
  });

const all = new Routes();
all.defs.push(...expressions.defs, ...events.defs, ...moderation.defs);
export default all;
