import type { Ctx } from '../../context.js';
import type { MessageRecord } from '../../../store/records.js';
import { messageEventWire } from '../../messages/view.js';

/** MESSAGE_UPDATE for a thread's starter message, after the thread was attached to it (or detached from it). */
export async function publishStarterUpdate(ctx: Ctx, m: MessageRecord): Promise<void> {
  const d = await messageEventWire(ctx, m);
  ctx.bus.publish({ t: 'MESSAGE_UPDATE', d, guild_id: m.guild_id, channel_id: m.channel_id });
}
