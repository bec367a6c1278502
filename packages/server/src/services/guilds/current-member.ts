import crypto from 'node:crypto';
import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { memberView } from './lookup.js';
import { checkId } from '../../core/ids.js';
import { getMember } from './lookup.js';
import { updateMember } from './members.js';

/**
 * Modify Current Member (`PATCH /guilds/{id}/members/@me`): the caller's nick (CHANGE_NICKNAME, through the member
 * service) and their guild profile: avatar, banner and bio, which bots may set (spec: "Bots can set banner, avatar and
 * bio"). Images arrive as data URIs and are kept as a content hash, like user avatars. Emits GUILD_MEMBER_UPDATE.
 */
export interface CurrentMemberPatch {
  nick?: string | null;
  avatar?: string | null;
  banner?: string | null;
  bio?: string | null;
}

const hash = (data: string | null | undefined) => (data ? crypto.createHash('md5').update(data).digest('hex') : data === undefined ? undefined : null);

export async function updateCurrentMember(ctx: Ctx, actor: Actor, guildId: string, patch: CurrentMemberPatch) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const profile: Record<string, unknown> = {};
  if (patch.avatar !== undefined) profile.avatar = hash(patch.avatar);
  if (patch.banner !== undefined) profile.banner = hash(patch.banner);
  if (patch.bio !== undefined) profile.bio = patch.bio || null;
  if (!Object.keys(profile).length) return updateMember(ctx, actor, guildId, '@me', patch.nick === undefined ? {} : { nick: patch.nick });
  // The nick goes through the member service (its permission check and event) first, then the profile.
  if (patch.nick !== undefined) await updateMember(ctx, actor, guildId, '@me', { nick: patch.nick });
  await ctx.repos.members.patch(guildId, actor.user.id, profile);
  const out = await memberView(ctx, (await getMember(ctx, guildId, actor.user.id))!);
  ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d: { guild_id: guildId, ...out }, guild_id: guildId });
  return out;
}
