import type { UserRecord, WebhookRecord } from '../store/records.js';
import { publicUser } from './user.js';

/**
 * A webhook. The token is a secret: it is included only when the viewer may hold it (the creator, or a caller who
 * already presented it). Everyone else gets the object without `token` and `url`.
 */
/** Where a channel follower webhook (type 2) gets its messages from: partial guild and channel. */
export interface WebhookSource {
  guild: { id: string; name: string; icon: string | null };
  channel: { id: string; name: string };
}

export function webhook(w: WebhookRecord, opts: { creator?: UserRecord | null; withToken: boolean; baseUrl: string; source?: WebhookSource | null }) {
  const out: Record<string, unknown> = {
    id: w.id,
    type: w.type,
    guild_id: w.guild_id,
    channel_id: w.channel_id,
    name: w.name,
    avatar: w.avatar,
    application_id: w.application_id,
  };
  if (opts.creator) out.user = publicUser(opts.creator);
  if (opts.source) {
    out.source_guild = { id: opts.source.guild.id, name: opts.source.guild.name, icon: opts.source.guild.icon };
    out.source_channel = { id: opts.source.channel.id, name: opts.source.channel.name };
  }
  if (opts.withToken && w.token) {
    out.token = w.token;
    out.url = `${opts.baseUrl}/api/webhooks/${w.id}/${w.token}`;
  }
  return out;
}
