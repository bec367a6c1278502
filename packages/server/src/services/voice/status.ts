import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { loadChannel } from '../messages/channel.js';
import { AuditLogEvent, writeAuditLog } from '../moderation/audit-log.js';
import { voiceStateOf } from './states.js';
import { channelInfo } from './channel-info.js';

/** Which voice channel a user is connected to (the voice-state module's view). */
export async function connectedChannelOf(ctx: Ctx, guildId: string, userId: string): Promise<string | null> {
  return (await voiceStateOf(ctx, guildId, userId))?.channel_id ?? null;
}

/**
 * PUT /channels/{id}/voice-status `{status}`: voice channels only; needs SET_VOICE_CHANNEL_STATUS, plus MANAGE_CHANNELS
 * when the caller is not connected to the channel. Empty or null clears it. Emits VOICE_CHANNEL_STATUS_UPDATE and
 * writes audit entry 192 (with the status) or 193.
 */
export async function setVoiceStatus(ctx: Ctx, actor: Actor, channelId: string, status: string | null): Promise<void> {
  const ch = await loadChannel(ctx, channelId);
  if (!ch.guild_id) throw Errors.cannotDM();
  const perms = await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id);
  if (ch.type !== 2) throw Errors.wrongChannelType();
  if (!ctx.access.hasPerm(perms, P.SET_VOICE_CHANNEL_STATUS)) throw Errors.missingPermissions();
  const connected = (await connectedChannelOf(ctx, ch.guild_id, actor.user.id)) === ch.id;
  if (!connected && !ctx.access.hasPerm(perms, P.MANAGE_CHANNELS)) throw Errors.missingPermissions();
  const value = status ? status : null;
  const cur = channelInfo.get(ch.id);
  channelInfo.set(ch.id, { status: value, voice_start_time: cur?.voice_start_time ?? null });
  ctx.bus.publish({ t: 'VOICE_CHANNEL_STATUS_UPDATE', d: { id: ch.id, guild_id: ch.guild_id, status: value }, guild_id: ch.guild_id, channel_id: ch.id });
  await writeAuditLog(
    ctx,
    value
      ? {
          guildId: ch.guild_id,
          userId: actor.user.id,
          actionType: AuditLogEvent.VOICE_CHANNEL_STATUS_UPDATE,
          targetId: ch.id,
          options: { channel_id: ch.id, status: value },
        }
      : { guildId: ch.guild_id, userId: actor.user.id, actionType: AuditLogEvent.VOICE_CHANNEL_STATUS_DELETE, targetId: ch.id, options: { channel_id: ch.id } },
  );
}
