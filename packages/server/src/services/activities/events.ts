import type { Ctx } from '../context.js';
import { instanceUpdateWire, type InstanceRecord, type ParticipantRecord } from '../../wire/activity.js';

/**
 * Announces an instance's change to the people who can see its channel (guild channels: VIEW_CHANNEL; private
 * channels: their recipients). Bots are not told: the app learns of instances through its own routes.
 */
export async function publishInstance(ctx: Ctx, inst: InstanceRecord, participants: ParticipantRecord[]): Promise<void> {
  const d = instanceUpdateWire(inst, participants);
  if (inst.guild_id) {
    ctx.bus.publish({ t: 'EMBEDDED_ACTIVITY_UPDATE_V2', d, guild_id: inst.guild_id, channel_id: inst.channel_id, humans_only: true });
    return;
  }
  const ch = await ctx.repos.channels.byId(inst.channel_id);
  const recipients = ch?.recipients ?? [];
  ctx.bus.publish({ t: 'EMBEDDED_ACTIVITY_UPDATE_V2', d, user_ids: [...new Set([...recipients, ...participants.map((p) => p.user_id)])] });
}
