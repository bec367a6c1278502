import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { toMember } from '../../store/repos/mappers.js';
import type { MemberRecord } from '../../store/records.js';
import { member as memberWire } from '../../wire/member.js';
import { getUser } from '../identity/users.js';
import { automodCheckMember } from '../moderation/automod.js';

/**
 * Adds a user to a guild (invite accept, bot install, guilds.join). Banned users are refused. Emits
 * GUILD_MEMBER_ADD to the guild and GUILD_CREATE to the joiner's sessions. Returns null if already a member.
 */
export async function addMember(
  ctx: Ctx,
  guildId: string,
  userId: string,
  opts: { roles?: string[]; nick?: string | null } = {},
): Promise<MemberRecord | null> {
  if (await ctx.repos.moderation.isBanned(guildId, userId)) throw Errors.userBanned();
  if (await ctx.repos.members.exists(guildId, userId)) return null;
  const row = {
    guild_id: guildId,
    user_id: userId,
    nick: opts.nick ?? null,
    avatar: null,
    banner: null,
    bio: null,
    roles: JSON.stringify(opts.roles ?? []),
    joined_at: ctx.clock.now(),
    premium_since: null,
    deaf: 0,
    mute: 0,
    pending: 0,
    flags: 0,
    communication_disabled_until: null,
  };
  await ctx.repos.members.insert(row);
  ctx.access.invalidate(guildId);
  const m = toMember(row);
  const user = await getUser(ctx, userId);
  ctx.bus.publish({ t: 'GUILD_MEMBER_ADD', d: { ...memberWire(m, user), guild_id: guildId }, guild_id: guildId });
  ctx.bus.publish({ t: 'GUILD_CREATE', d: { id: guildId }, guild_id: guildId, user_ids: [userId] });
  await automodCheckMember(ctx, guildId, userId); // MEMBER_PROFILE rules on joining
  return m;
}

/** Removes a member (kick, leave, ban). Emits GUILD_MEMBER_REMOVE and GUILD_DELETE to the removed user. */
export async function removeMember(ctx: Ctx, guildId: string, userId: string): Promise<boolean> {
  if (!(await ctx.repos.members.remove(guildId, userId))) return false;
  ctx.access.invalidate(guildId);
  const user = await getUser(ctx, userId);
  ctx.bus.publish({
    t: 'GUILD_MEMBER_REMOVE',
    d: {
      guild_id: guildId,
      user: user
        ? {
            id: user.id,
            username: user.username,
            discriminator: user.discriminator,
            global_name: user.global_name,
            avatar: user.avatar,
            bot: user.bot || undefined,
          }
        : { id: userId },
    },
    guild_id: guildId,
  });
  ctx.bus.publish({ t: 'GUILD_DELETE', d: { id: guildId }, guild_id: guildId, user_ids: [userId] });
  return true;
}
