import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, snowflake } from '../../core/validation.js';
import { voiceStates } from '../../services/voice/states.js';
import { sendSoundboardSound } from '../../services/voice/effects.js';
import { callEligibility, modifyCall, ringRecipients, stopRinging } from '../../services/voice/call-routes.js';

const PatchVoiceState = z.object({
  channel_id: snowflake.optional(),
  suppress: z.boolean().optional(),
  request_to_speak_timestamp: z.string().datetime({ offset: true }).nullable().optional(),
});
const SendSound = z.object({ sound_id: snowflake, source_guild_id: snowflake.optional() });
const Ring = z.object({ recipients: z.array(snowflake).max(10).nullable().optional() });
const ModifyCall = z.object({ region: z.string().max(100).optional() });

/** Voice state over HTTP (no gateway needed), stage speaker controls, soundboard playback, and DM call ringing. */
export default new Routes()
  .get('/guilds/{guild_id}/voice-states/@me', 'any', async ({ ctx, actor, params }) => voiceStates(ctx).view(actor, params.guild_id, '@me'))
  .get('/guilds/{guild_id}/voice-states/{user_id}', 'any', async ({ ctx, actor, params }) => voiceStates(ctx).view(actor, params.guild_id, params.user_id))
  .patch('/guilds/{guild_id}/voice-states/@me', 'any', async ({ ctx, actor, params, body }) => {
    await voiceStates(ctx).modify(actor, params.guild_id, '@me', parseBody(PatchVoiceState, body));
    return noContent();
  })
  .patch('/guilds/{guild_id}/voice-states/{user_id}', 'any', async ({ ctx, actor, params, body }) => {
    const patch = parseBody(PatchVoiceState, body);
    await voiceStates(ctx).modify(actor, params.guild_id, params.user_id, { channel_id: patch.channel_id, suppress: patch.suppress });
    return noContent();
  })
  .post('/channels/{channel_id}/send-soundboard-sound', 'any', async ({ ctx, actor, params, body }) => {
    await sendSoundboardSound(ctx, actor, params.channel_id, parseBody(SendSound, body));
    return noContent();
  })
  .get('/channels/{channel_id}/call', 'user', async ({ ctx, actor, params }) => callEligibility(ctx, actor, params.channel_id))
  .patch('/channels/{channel_id}/call', 'user', async ({ ctx, actor, params, body }) => {
    await modifyCall(ctx, actor, params.channel_id, parseBody(ModifyCall, body ?? {}).region);
    return noContent();
  })
  .post('/channels/{channel_id}/call/ring', 'user', async ({ ctx, actor, params, body }) => {
    await ringRecipients(ctx, actor, params.channel_id, parseBody(Ring, body ?? {}).recipients);
    return noContent();
  })
  .post('/channels/{channel_id}/call/stop-ringing', 'user', async ({ ctx, actor, params, body }) => {
    await stopRinging(ctx, actor, params.channel_id, parseBody(Ring, body ?? {}).recipients);
    return noContent();
  });
