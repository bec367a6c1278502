import type { MemberRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordGuildMember } from './extensions.js';

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/** A guild member; `user` is omitted where the platform omits it (MESSAGE_CREATE's author member). */
export function member(m: MemberRecord, user: UserRecord | null, opts: { permissions?: bigint; now?: number } = {}): AccordGuildMember {
  const timeout =
    m.communication_disabled_until && opts.now !== undefined && m.communication_disabled_until <= opts.now ? null : m.communication_disabled_until;
  return dropUndefined<AccordGuildMember>({
    user: user ? publicUser(user) : undefined,
    nick: m.nick,
    avatar: m.avatar,
    banner: m.banner,
    roles: m.roles,
    joined_at: iso(m.joined_at),
    premium_since: iso(m.premium_since),
    deaf: m.deaf,
    mute: m.mute,
    flags: m.flags,
    pending: m.pending,
    communication_disabled_until: iso(timeout),
    avatar_decoration_data: null,
    permissions: opts.permissions?.toString(),
  });
}
