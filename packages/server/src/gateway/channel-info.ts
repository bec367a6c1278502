import type { Ctx } from '../services/context.js';
import type { Session } from './session.js';
import { channelInfo } from '../services/voice/channel-info.js';

/**
 * Request Channel Info (op 43): the ephemeral fields (status, voice_start_time) of the guild's voice channels, kept in
 * `channelInfo` (services/voice/channel-info.ts).
 */
export async function handleChannelInfo(ctx: Ctx, s: Session, d: any): Promise<void> {
  const guildId = String(d?.guild_id ?? '');
  if (!s.guildIds.has(guildId)) return;
  const fields: string[] = Array.isArray(d?.fields) ? d.fields.filter((f: unknown) => f === 'status' || f === 'voice_start_time') : [];
  const ids = await ctx.repos.channels.voiceChannelIdsOf(guildId);
  const channels = ids.map((id) => {
    const info = channelInfo.get(id);
    const out: Record<string, unknown> = { id };
    if (fields.includes('status')) out.status = info?.status ?? null;
    if (fields.includes('voice_start_time')) out.voice_start_time = info?.voice_start_time ?? null;
    return out;
  });
  s.dispatch('CHANNEL_INFO', JSON.stringify({ guild_id: guildId, channels }));
}
