import type { ChannelRecord, GuildRecord, InviteRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';

export function invite(i: InviteRecord, deps: { guild: GuildRecord | null; channel: ChannelRecord; inviter: UserRecord | null; counts?: { members: number; presences: number }; withMetadata?: boolean }) {
  const expiresAt = i.max_age > 0 ? new Date(i.created_at + i.max_age * 1000).toISOString() : null;
  const out: Record<string, unknown> = {
    type: i.guild_id ? 0 : 1,
    code: i.code,
    guild_id: i.guild_id,
    channel: { id: deps.channel.id, type: deps.channel.type, name: deps.channel.name },
    expires_at: expiresAt,
    flags: i.flags,
  };
  if (deps.guild) {
    const g = deps.guild;
    out.guild = {
      id: g.id, name: g.name, splash: g.splash, banner: g.banner, description: g.description, icon: g.icon, features: g.features,
      verification_level: g.verification_level, vanity_url_code: null, nsfw_level: g.nsfw_level, nsfw: false, premium_subscription_count: 0,
    };
  }
  if (deps.inviter) out.inviter = publicUser(deps.inviter);
  if (i.target_type) out.target_type = i.target_type;
  if (deps.counts) {
    out.approximate_member_count = deps.counts.members;
    out.approximate_presence_count = deps.counts.presences;
  }
  if (deps.withMetadata) {
    Object.assign(out, { uses: i.uses, max_uses: i.max_uses, max_age: i.max_age, temporary: i.temporary, created_at: new Date(i.created_at).toISOString() });
  }
  return out;
}
