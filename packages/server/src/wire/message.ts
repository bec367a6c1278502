import type { MemberRecord, MessageRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import { member } from './member.js';
import { channel } from './channel.js';
import type { ChannelRecord } from '../store/records.js';

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

export interface ReactionCount {
  emoji_key: string;
  normal: number;
  burst: number;
  me: boolean;
  me_burst: boolean;
}

/** What a message needs besides its own row, fetched in bulk by the service. */
export interface MessageDeps {
  users: Map<string, UserRecord>;
  /** Author's member record, for guild messages (serialized without `user`). */
  authorMember?: MemberRecord | null;
  reactions?: ReactionCount[];
  referenced?: Record<string, unknown> | null;
  thread?: ChannelRecord | null;
}

export function emojiFromKey(key: string): { id: string | null; name: string } {
  const m = /^(.*):(\d{1,20})$/.exec(key);
  return m ? { id: m[2], name: m[1] } : { id: null, name: key };
}

export function message(m: MessageRecord, deps: MessageDeps) {
  const author = deps.users.get(m.author_id);
  const webhookAuthor = m.webhook_id
    ? { id: m.webhook_id, username: m.extra.username ?? 'Webhook', discriminator: '0000', global_name: null, avatar: m.extra.avatar ?? null, bot: true, public_flags: 0, flags: 0, primary_guild: null }
    : null;
  const out: Record<string, unknown> = {
    id: m.id,
    type: m.type,
    content: m.content,
    channel_id: m.channel_id,
    author: webhookAuthor ?? (author ? publicUser(author) : { id: m.author_id, username: 'Deleted User', discriminator: '0000', global_name: null, avatar: null, public_flags: 0, flags: 0, primary_guild: null }),
    attachments: m.attachments,
    embeds: m.embeds,
    mentions: m.mentions.map((id) => deps.users.get(id)).filter((u): u is UserRecord => !!u).map(publicUser),
    mention_roles: m.mention_roles,
    pinned: m.pinned_at != null,
    mention_everyone: m.mention_everyone,
    tts: m.tts,
    timestamp: iso(m.created_at),
    edited_timestamp: iso(m.edited_at),
    flags: m.flags,
    components: m.components,
  };
  if (m.guild_id) out.guild_id = m.guild_id;
  if (m.nonce != null) out.nonce = m.nonce;
  if (m.webhook_id) out.webhook_id = m.webhook_id;
  if (m.application_id) out.application_id = m.application_id;
  if (m.sticker_items?.length) out.sticker_items = m.sticker_items;
  if (m.message_reference) out.message_reference = m.message_reference;
  if (m.message_reference && m.message_reference.type !== 1) out.referenced_message = deps.referenced ?? null;
  if (m.extra.message_snapshots) out.message_snapshots = m.extra.message_snapshots;
  if (m.extra.interaction_metadata) out.interaction_metadata = m.extra.interaction_metadata;
  if (m.extra.interaction) out.interaction = m.extra.interaction;
  if (m.extra.poll) out.poll = m.extra.poll;
  if (m.extra.call) out.call = m.extra.call;
  if (m.extra.position !== undefined) out.position = m.extra.position;
  // Social SDK: activity invites (`activity`, `application`) and game DM metadata.
  if (m.extra.activity) out.activity = m.extra.activity;
  if (m.extra.application) out.application = m.extra.application;
  if (m.extra.metadata) out.metadata = m.extra.metadata;
  if (deps.thread) out.thread = channel(deps.thread);
  if (deps.authorMember && !m.webhook_id) out.member = member(deps.authorMember, null);
  if (deps.reactions?.length) {
    out.reactions = deps.reactions.map((r) => ({
      count: r.normal + r.burst,
      count_details: { burst: r.burst, normal: r.normal },
      me: r.me,
      me_burst: r.me_burst,
      burst_me: r.me_burst,
      burst_colors: [],
      emoji: emojiFromKey(r.emoji_key),
    }));
  }
  return out;
}
