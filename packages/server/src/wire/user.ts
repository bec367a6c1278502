import type { UserRecord } from '../store/records.js';
import type { AccordSelfUser, AccordUser } from './extensions.js';

/** The public user object: what anyone may see. */
export function publicUser(u: UserRecord): AccordUser {
  return {
    id: u.id,
    username: u.username,
    discriminator: u.discriminator,
    global_name: u.global_name,
    avatar: u.avatar,
    avatar_decoration_data: null,
    banner: u.banner,
    accent_color: u.accent_color,
    bot: u.bot || undefined,
    system: u.system || undefined,
    public_flags: u.flags,
    flags: u.flags,
    primary_guild: u.primary_guild,
    collectibles: null,
    display_name_styles: null,
    clan: null,
  };
}

/**
 * The user's own object (GET /users/@me, READY). `email` needs the email scope for bearer tokens; `premium_type` is 0
 * unless identify.premium was granted to a bearer token.
 */
export function selfUser(u: UserRecord, opts: { email: boolean; premium: boolean }): AccordSelfUser {
  return {
    ...publicUser(u),
    bio: u.bio,
    mfa_enabled: false,
    locale: 'en-US',
    verified: u.verified,
    email: opts.email ? u.email : null,
    premium_type: opts.premium ? u.premium_type : 0,
  };
}
