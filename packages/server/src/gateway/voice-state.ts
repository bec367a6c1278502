import type { Ctx } from '../services/context.js';
import { voiceStates } from '../services/voice/states.js';
import type { Session } from './session.js';

/**
 * Op 4 Voice State Update: join, move or leave (`channel_id: null`) a voice channel of one of the session's guilds.
 * The voice states service answers with VOICE_STATE_UPDATE, then VOICE_SERVER_UPDATE to this session only.
 */
export async function handleVoiceStateUpdate(ctx: Ctx, s: Session, d: any): Promise<void> {
  if (!d || typeof d !== 'object') return;
  const guildId = d.guild_id == null ? null : String(d.guild_id);
  if (!guildId || !s.guildIds.has(guildId)) return; // DM calls are not for bots
  const channelId = d.channel_id == null ? null : String(d.channel_id);
  if (channelId !== null && !/^\d{1,20}$/.test(channelId)) return;
  await voiceStates(ctx).fromGateway(s.userId, s.id, guildId, channelId, { mute: !!d.self_mute, deaf: !!d.self_deaf, video: !!d.self_video });
}
