import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { toMessage } from '../../store/repos/mappers.js';
import type { MessageRecord } from '../../store/records.js';
import { channelAccess, loadChannel, loadMessage, routeFor } from '../messages/channel.js';
import { messageEventWire } from '../messages/view.js';
import { getGuildRecord } from '../guilds/lookup.js';
import type { WebhookSource } from '../../wire/webhook.js';

/**
 * Announcement channels: following one (a CHANNEL_FOLLOWER webhook, type 2, in the follower's channel) and
 * crossposting a message to every follower.
 */

const ANNOUNCEMENT = 5;
const FOLLOWER_TARGET_TYPES = new Set([0, 5]);
const MAX_WEBHOOKS = 15;
export const MessageFlag = { CROSSPOSTED: 1, IS_CROSSPOST: 2 } as const;
const alreadyCrossposted = () => new ApiError(400, 40033, 'This message has already been crossposted');

/**
 * POST /channels/{id}/followers `{webhook_channel_id}`: the source must be an announcement channel the caller can see;
 * the caller needs MANAGE_WEBHOOKS in the target text channel. Creates the follower webhook and answers
 * `{channel_id: <source>, webhook_id}`.
 */
export async function followChannel(ctx: Ctx, actor: Actor, channelId: string, targetId: string) {
  const source = await loadChannel(ctx, channelId);
  if (!source.guild_id) throw Errors.cannotDM();
  await ctx.access.requireChannel(source.guild_id, source.id, actor.user.id);
  if (source.type !== ANNOUNCEMENT) throw Errors.wrongChannelType();
  const target = await loadChannel(ctx, targetId).catch(() => {
    throw fieldError('webhook_channel_id', 'CHANNEL_INVALID', 'Invalid channel.');
  });
  if (!target.guild_id || !FOLLOWER_TARGET_TYPES.has(target.type)) throw fieldError('webhook_channel_id', 'CHANNEL_TYPE_INVALID', 'Invalid channel type.');
  await ctx.access.requireChannel(target.guild_id, target.id, actor.user.id, P.MANAGE_WEBHOOKS);
  const existing = await ctx.repos.webhooks.followerLink(source.id, target.id);
  if (existing) return { channel_id: source.id, webhook_id: existing };
  if ((await ctx.repos.webhooks.countInChannel(target.id)) >= MAX_WEBHOOKS) throw Errors.maxWebhooks();
  const guild = await getGuildRecord(ctx, source.guild_id);
  const id = ctx.ids.next();
  const name = `${guild?.name ?? 'Guild'} #${source.name ?? 'announcements'}`.slice(0, 80);
  await ctx.repos.webhooks.insertFollower(
    {
      id,
      type: 2,
      guild_id: target.guild_id,
      channel_id: target.id,
      creator_id: actor.user.id,
      application_id: null,
      name,
      avatar: guild?.icon ?? null,
      token: null,
      created_at: ctx.clock.now(),
    },
    { source_channel_id: source.id, source_guild_id: source.guild_id!, channel_id: target.id, guild_id: target.guild_id! },
  );
  ctx.bus.publish({ t: 'WEBHOOKS_UPDATE', d: { guild_id: target.guild_id, channel_id: target.id }, guild_id: target.guild_id });
  return { channel_id: source.id, webhook_id: id };
}

/**
 * The sources of follower webhooks (type 2), by webhook id: the followed announcement channel and its guild, as the
 * partial objects webhook objects carry (`source_guild` {id, name, icon}, `source_channel` {id, name}).
 */
export async function followerSources(ctx: Ctx, webhookIds: string[]): Promise<Map<string, WebhookSource>> {
  return ctx.repos.webhooks.followerSources(webhookIds);
}

/**
 * POST /channels/{id}/messages/{id}/crosspost: announcement channels only; the author needs SEND_MESSAGES, anyone
 * else MANAGE_MESSAGES; once per message (40033). The source gets CROSSPOSTED; each follower channel gets a copy from
 * its follower webhook with IS_CROSSPOST and a reference to the source.
 */
export async function crosspost(ctx: Ctx, actor: Actor, channelId: string, messageId: string): Promise<MessageRecord> {
  const ch = await loadChannel(ctx, channelId);
  const perms = await channelAccess(ctx, ch, actor.user.id);
  if (ch.type !== ANNOUNCEMENT) throw Errors.wrongChannelType();
  const m = await loadMessage(ctx, ch.id, messageId);
  const own = m.author_id === actor.user.id && !m.webhook_id;
  if (!ctx.access.hasPerm(perms, own ? P.SEND_MESSAGES : P.MANAGE_MESSAGES)) throw Errors.missingPermissions();
  if (![0, 19, 20, 23].includes(m.type)) throw Errors.systemMessage();
  if (m.flags & MessageFlag.CROSSPOSTED) throw alreadyCrossposted();
  if (!(await ctx.repos.messages.setFlagsIf(m.id, m.flags, m.flags | MessageFlag.CROSSPOSTED))) throw alreadyCrossposted();
  const updated = { ...m, flags: m.flags | MessageFlag.CROSSPOSTED };
  ctx.bus.publish({ t: 'MESSAGE_UPDATE', d: await messageEventWire(ctx, updated), ...routeFor(ch) });

  const followers = await ctx.repos.webhooks.followersOf(ch.id);
  for (const w of followers) {
    const target = await loadChannel(ctx, w.channel_id).catch(() => null);
    if (!target) continue;
    const id = ctx.ids.next();
    const row = {
      id,
      channel_id: target.id,
      guild_id: target.guild_id,
      author_id: w.id,
      webhook_id: w.id,
      application_id: null,
      type: 0,
      content: m.content,
      tts: 0,
      mention_everyone: 0,
      mentions: '[]',
      mention_roles: '[]',
      attachments: JSON.stringify(m.attachments),
      embeds: JSON.stringify(m.embeds),
      components: '[]',
      sticker_items: m.sticker_items ? JSON.stringify(m.sticker_items) : null,
      flags: MessageFlag.IS_CROSSPOST,
      nonce: null,
      pinned_at: null,
      edited_at: null,
      message_reference: JSON.stringify({ type: 0, channel_id: ch.id, guild_id: ch.guild_id, message_id: m.id }),
      extra: JSON.stringify({ username: w.name, avatar: w.avatar, crosspost_of: m.id }),
      created_at: ctx.clock.now(),
    };
    await ctx.repos.messages.insertPlain(row);
    ctx.bus.publish({ t: 'MESSAGE_CREATE', d: await messageEventWire(ctx, toMessage(row)), ...routeFor(target) });
  }
  return updated;
}
