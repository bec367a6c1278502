import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { getChannelRecord } from '../guilds/lookup.js';
import { checkId } from '../../core/ids.js';
import { defaultSounds, guildSounds, unknownSound } from '../expressions/soundboard.js';
import { voiceStates } from './states.js';

/**
 * POST /channels/{id}/send-soundboard-sound `{sound_id, source_guild_id?}`: plays a sound into the voice channel the
 * caller is connected to. Needs SPEAK and USE_SOUNDBOARD there (and USE_EXTERNAL_SOUNDS for another guild's sound),
 * and a voice state without mute, deaf, self mute, self deaf or suppress (50167). Clients play the sound themselves
 * on VOICE_CHANNEL_EFFECT_SEND; the media plane carries nothing.
 */
export async function sendSoundboardSound(ctx: Ctx, actor: Actor, channelId: string, body: { sound_id: string; source_guild_id?: string }): Promise<void> {
  checkId(channelId, Errors.unknownChannel);
  const ch = await getChannelRecord(ctx, channelId);
  if (!ch || !ch.guild_id) throw Errors.unknownChannel();
  const perms = await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id);
  if (ch.type !== 2) throw Errors.wrongChannelType();
  if (!ctx.access.hasPerm(perms, P.SPEAK | P.USE_SOUNDBOARD)) throw Errors.missingPermissions();
  const state = await voiceStates(ctx).connectedTo(ch.guild_id, actor.user.id, ch.id);
  if (!state) throw new ApiError(400, 40032, 'Target user is not connected to voice');
  if (state.mute || state.deaf || state.self_mute || state.self_deaf || state.suppress) {
    throw new ApiError(400, 50167, 'Cannot send voice effect when user is server muted, deafened, or suppressed');
  }
  const source = body.source_guild_id ?? null;
  let sound: { sound_id: string; volume: number; emoji_id: string | null; emoji_name: string | null } | undefined;
  if (source === null || source === ch.guild_id) {
    sound = (await guildSounds(ctx, ch.guild_id)).find((s) => s.sound_id === body.sound_id);
    if (!sound && source === null) sound = defaultSounds().find((s) => s.sound_id === body.sound_id);
  } else {
    if (!ctx.access.hasPerm(perms, P.USE_EXTERNAL_SOUNDS)) throw Errors.missingPermissions();
    if (!(await ctx.access.isMember(source, actor.user.id))) throw Errors.unknownGuild();
    sound = (await guildSounds(ctx, source)).find((s) => s.sound_id === body.sound_id);
  }
  if (!sound) throw unknownSound();
  ctx.bus.publish({
    t: 'VOICE_CHANNEL_EFFECT_SEND',
    d: {
      channel_id: ch.id,
      guild_id: ch.guild_id,
      user_id: actor.user.id,
      emoji: sound.emoji_id || sound.emoji_name ? { id: sound.emoji_id, name: sound.emoji_name } : null,
      animation_type: 1,
      animation_id: 0,
      sound_id: sound.sound_id,
      sound_volume: sound.volume,
    },
    guild_id: ch.guild_id,
  });
}
