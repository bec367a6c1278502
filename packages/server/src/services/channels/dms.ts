import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { toChannel } from '../../store/repos/mappers.js';
import type { ChannelRecord } from '../../store/records.js';
import { getUser, getUsers } from '../identity/users.js';
import { channel as channelWire } from '../../wire/channel.js';

/** The DMs and group DMs a user is a recipient of. */
export async function dmChannelsOf(ctx: Ctx, userId: string): Promise<ChannelRecord[]> {
  return ctx.repos.channels.dmsOf(userId);
}

/** A user's DM channels as the wire lists them (READY, GET /users/@me/channels): with the other recipients. */
export async function dmChannelsWire(ctx: Ctx, userId: string) {
  const chans = await dmChannelsOf(ctx, userId);
  const users = await getUsers(
    ctx,
    chans.flatMap((c) => c.recipients ?? []),
  );
  return chans.map((c) =>
    channelWire(
      c,
      (c.recipients ?? [])
        .filter((id) => id !== userId)
        .map((id) => users.get(id)!)
        .filter(Boolean),
    ),
  );
}

/** Opens (or returns) the DM between two users. Bots may only DM users who share a guild with them. */
export async function openDm(ctx: Ctx, me: { id: string; bot: boolean }, recipientId: string): Promise<ChannelRecord> {
  const other = await getUser(ctx, recipientId);
  if (!other) throw Errors.unknownUser();
  if (me.bot && other.bot) throw Errors.cannotSendToUser();
  const key = [me.id, recipientId].sort().join(':');
  const existing = await ctx.repos.channels.dmByKey(key);
  if (existing) return existing;
  const row = {
    id: ctx.ids.next(),
    type: 1,
    guild_id: null,
    position: 0,
    name: null,
    topic: null,
    nsfw: 0,
    parent_id: null,
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    bitrate: null,
    user_limit: null,
    rate_limit_per_user: 0,
    rtc_region: null,
    flags: 0,
    permission_overwrites: '[]',
    recipients: JSON.stringify(me.id === recipientId ? [me.id] : [me.id, recipientId]),
    dm_key: key,
    thread_metadata: null,
    message_count: 0,
    member_count: 0,
    total_message_sent: 0,
    extra: '{}',
    created_at: ctx.clock.now(),
  };
  try {
    await ctx.repos.channels.insertDm(row);
  } catch {
    // A concurrent open won the unique dm_key.
    const again = await ctx.repos.channels.dmByKey(key);
    if (again) return again;
    throw Errors.unknownUser();
  }
  const ch = toChannel(row);
  // The opener's sessions learn of the DM now; the recipient's when a message arrives.
  ctx.bus.publish({ t: 'CHANNEL_CREATE', d: channelWire(ch, me.id === recipientId ? [] : [other]), channel_id: ch.id, user_ids: [me.id] });
  return ch;
}
