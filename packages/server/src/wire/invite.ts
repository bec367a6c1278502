import type { ChannelRecord, GuildRecord, InviteRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordExtendedInvite, AccordInvite } from './extensions.js';
import { guildFeatures } from './guild.js';

/** An invite; with `withMetadata` (the inviter's and managers' lists) also its uses, limits and creation time. */
export function invite(
  i: InviteRecord,
  deps: {
    guild: GuildRecord | null;
    channel: ChannelRecord;
    inviter: UserRecord | null;
    counts?: { members: number; presences: number };
    withMetadata?: boolean;
  },
): AccordInvite | AccordExtendedInvite {
  const expiresAt = i.max_age > 0 ? new Date(i.created_at + i.max_age * 1000).toISOString() : null;
  const g = deps.guild;
  const base = dropUndefined<AccordInvite>({
    type: i.guild_id ? 0 : 1,
    code: i.code,
    guild_id: i.guild_id,
    channel: { id: deps.channel.id, type: deps.channel.type, name: deps.channel.name },
    expires_at: expiresAt,
    flags: i.flags,
    guild: g
      ? {
          id: g.id,
          name: g.name,
          splash: g.splash,
          banner: g.banner,
          description: g.description,
          icon: g.icon,
          features: guildFeatures(g),
          verification_level: g.verification_level,
          vanity_url_code: null,
          nsfw_level: g.nsfw_level,
          nsfw: false,
          premium_subscription_count: 0,
        }
      : undefined,
    inviter: deps.inviter ? publicUser(deps.inviter) : undefined,
    target_type: i.target_type || undefined,
    approximate_member_count: deps.counts?.members,
    approximate_presence_count: deps.counts?.presences,
  });
  if (!deps.withMetadata) return base;
  return { ...base, uses: i.uses, max_uses: i.max_uses, max_age: i.max_age, temporary: i.temporary, created_at: new Date(i.created_at).toISOString() };
}
