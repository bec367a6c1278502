import type { Ctx } from '../services/context.js';
import type { Session } from './session.js';
import { channelInfo } from '../services/voice/channel-info.js';

const VOICE_TYPES = [2, 13];

/**
 * Request Channel Info (op 43): the ephemeral fields (status, voice_start_time) of the guild's voice channels, kept in
 * `channelInfo` (services/voice/channel-info.ts).
 */
export async function handleChannelInfo(ctx: Ctx, s: Session, d: any): Promise<void> {
  const guildId = String(d?.guild_id ?? '');
  if (!s.guildIds.has(guildId)) return;
  const fields: string[] = Array.isArray(d?.fields) ? d.fields.filter((f: unknown) => f === 'status' || f === 'voice_start_time') : [];
  const rows = await ctx.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'in', VOICE_TYPES).execute();
  const channels = rows.map((r) => {
    const id = String(r.id);
    const info = channelInfo.get(id);
    const out: Record<string, unknown> = { id };
    if (fields.includes('status')) out.status = info?.status ?? null;
    if (fields.includes('voice_start_time')) out.voice_start_time = info?.voice_start_time ?? null;
    return out;
  });
  s.dispatch('CHANNEL_INFO', JSON.stringify({ guild_id: guildId, channels }));
}
