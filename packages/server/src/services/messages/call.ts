import type { Ctx } from '../context.js';
import { loadChannel, routeFor } from './channel.js';
import { messageEventWire } from './view.js';

/**
 * A DM or group-DM call ended: its CALL message (type 3) gets `call: {participants, ended_timestamp}` and the
 * recipients a MESSAGE_UPDATE. The message may have been deleted meanwhile; then there is nothing to record.
 */
export async function endCallMessage(ctx: Ctx, messageId: string, participants: string[]): Promise<void> {
  const m = await ctx.repos.messages.byId(messageId);
  if (!m) return;
  const extra = { ...m.extra, call: { participants, ended_timestamp: new Date(ctx.clock.now()).toISOString() } };
  await ctx.repos.messages.setExtra(messageId, extra);
  const ch = await loadChannel(ctx, m.channel_id).catch(() => null);
  if (ch) ctx.bus.publish({ t: 'MESSAGE_UPDATE', d: await messageEventWire(ctx, { ...m, extra }), ...routeFor(ch) });
}
