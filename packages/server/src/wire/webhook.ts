import type { UserRecord, WebhookRecord } from '../store/records.js';
import type { APIWebhook } from 'discord-api-types/v10';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';

/** Where a channel follower webhook (type 2) gets its messages from: partial guild and channel. */
export interface WebhookSource {
  guild: { id: string; name: string; icon: string | null };
  channel: { id: string; name: string };
}

/**
 * A webhook. The token is a secret: it is included only when the viewer may hold it (the creator, or a caller who
 * already presented it). Everyone else gets the object without `token` and `url`.
 */
export function webhook(
  w: WebhookRecord,
  opts: { creator?: UserRecord | null; withToken: boolean; baseUrl: string; source?: WebhookSource | null },
): APIWebhook {
  const token = opts.withToken && w.token ? w.token : null;
  return dropUndefined<APIWebhook>({
    id: w.id,
    type: w.type,
    guild_id: w.guild_id,
    channel_id: w.channel_id,
    name: w.name,
    avatar: w.avatar,
    application_id: w.application_id,
    user: opts.creator ? publicUser(opts.creator) : undefined,
    source_guild: opts.source ? { id: opts.source.guild.id, name: opts.source.guild.name, icon: opts.source.guild.icon } : undefined,
    source_channel: opts.source ? { id: opts.source.channel.id, name: opts.source.channel.name } : undefined,
    token: token ?? undefined,
    url: token ? `${opts.baseUrl}/api/webhooks/${w.id}/${token}` : undefined,
  });
}
