import type { MemberRecord, MessageRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';
import { member } from './member.js';
import { channel } from './channel.js';
import type { ChannelRecord } from '../store/records.js';
import type { UserFlags } from 'discord-api-types/v10';
import type { AccordMessage, AccordReaction, AccordUser } from './extensions.js';

/** UserFlags has no member for 0. */
const NO_FLAGS = 0 as UserFlags;
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
  referenced?: AccordMessage | null;
  thread?: ChannelRecord | null;
}

export function emojiFromKey(key: string): { id: string | null; name: string } {
  const m = /^(.*):(\d{1,20})$/.exec(key);
  return m ? { id: m[2], name: m[1] } : { id: null, name: key };
}

export function message(m: MessageRecord, deps: MessageDeps): AccordMessage {
  const author = deps.users.get(m.author_id);
  const webhookAuthor: AccordUser | null = m.webhook_id
    ? {
        id: m.webhook_id,
        username: m.extra.username ?? 'Webhook',
        discriminator: '0000',
        global_name: null,
        avatar: m.extra.avatar ?? null,
        bot: true,
        public_flags: NO_FLAGS,
        flags: NO_FLAGS,
        primary_guild: null,
      }
    : null;
  const deletedAuthor: AccordUser = {
    id: m.author_id,
    username: 'Deleted User',
    discriminator: '0000',
    global_name: null,
    avatar: null,
    public_flags: NO_FLAGS,
    flags: NO_FLAGS,
    primary_guild: null,
  };
  return dropUndefined<AccordMessage>({
    id: m.id,
    type: m.type,
    content: m.content,
    channel_id: m.channel_id,
    author: webhookAuthor ?? (author ? publicUser(author) : deletedAuthor),
    attachments: m.attachments,
    embeds: m.embeds,
    mentions: m.mentions
      .map((id) => deps.users.get(id))
      .filter((u): u is UserRecord => !!u)
      .map(publicUser),
    mention_roles: m.mention_roles,
    pinned: m.pinned_at != null,
    mention_everyone: m.mention_everyone,
    tts: m.tts,
    timestamp: new Date(m.created_at).toISOString(),
    edited_timestamp: iso(m.edited_at),
    flags: m.flags,
    components: m.components,
    guild_id: m.guild_id ?? undefined,
    nonce: m.nonce ?? undefined,
    webhook_id: m.webhook_id ?? undefined,
    application_id: m.application_id ?? undefined,
    sticker_items: m.sticker_items?.length ? m.sticker_items : undefined,
    message_reference: m.message_reference ?? undefined,
    referenced_message: m.message_reference && m.message_reference.type !== 1 ? (deps.referenced ?? null) : undefined,
    message_snapshots: m.extra.message_snapshots || undefined,
    interaction_metadata: m.extra.interaction_metadata || undefined,
    interaction: m.extra.interaction || undefined,
    poll: m.extra.poll || undefined,
    call: m.extra.call || undefined,
    position: m.extra.position,
    // Social SDK: activity invites (`activity`, `application`) and game DM metadata.
    activity: m.extra.activity || undefined,
    application: m.extra.application || undefined,
    metadata: m.extra.metadata || undefined,
    thread: deps.thread ? channel(deps.thread) : undefined,
    member: deps.authorMember && !m.webhook_id ? member(deps.authorMember, null) : undefined,
    reactions: deps.reactions?.length ? deps.reactions.map(reaction) : undefined,
  });
}

function reaction(r: ReactionCount): AccordReaction {
  return {
    count: r.normal + r.burst,
    count_details: { burst: r.burst, normal: r.normal },
    me: r.me,
    me_burst: r.me_burst,
    burst_me: r.me_burst,
    burst_colors: [],
    emoji: emojiFromKey(r.emoji_key),
  };
}
