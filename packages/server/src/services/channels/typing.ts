import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, UserRecord } from '../../store/records.js';
import { member as memberWire } from '../../wire/member.js';
import { channelAccess, DM_TYPES, forumChannel, guildField, routeFor, THREAD_TYPES } from '../messages/channel.js';
import { cachedMember } from '../messages/view.js';

/** Starts the caller typing: needs the right to send here. Publishes TYPING_START (with `member` in guilds). */
export async function startTyping(ctx: Ctx, ch: ChannelRecord, user: UserRecord): Promise<void> {
  if (ch.type === 15 || ch.type === 16) throw forumChannel();
  if (ch.type === 4) throw Errors.nonTextChannel();
  const perms = await channelAccess(ctx, ch, user.id);
  if (!DM_TYPES.has(ch.type)) {
    const send = THREAD_TYPES.has(ch.type) ? P.SEND_MESSAGES_IN_THREADS : P.SEND_MESSAGES;
    if (!ctx.access.hasPerm(perms, send)) throw Errors.missingPermissions();
  }
  const mem = ch.guild_id ? await cachedMember(ctx, ch.guild_id, user.id) : null;
  ctx.bus.publish({
    t: 'TYPING_START',
    d: {
      channel_id: ch.id,
      ...guildField(ch),
      user_id: user.id,
      timestamp: Math.floor(ctx.clock.now() / 1000),
      ...(mem ? { member: memberWire(mem, user) } : {}),
    },
    ...routeFor(ch),
  });
}
