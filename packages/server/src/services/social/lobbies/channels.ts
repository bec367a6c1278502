import { P, channelPermissions } from '@accord/protocol';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';

/** Channel types a lobby can be linked to (guild text channels). */
export const LINKABLE_TYPES = new Set([0]);
const ALL_MEMBERS = P.VIEW_CHANNEL | P.SEND_MESSAGES;

/**
 * GET /users/@me/guilds/{guild_id}/channels (the SDK's GetGuildChannels): the channels of a guild the caller can see,
 * with what a game needs to offer channel linking: whether the caller may link it (a text channel with MANAGE_CHANNELS),
 * whether every member can view and write in it, and the lobby already linked to it. Unsorted: the SDK sorts as the
 * client does.
 */
export async function guildChannelsForSdk(ctx: Ctx, actor: Actor, guildId: string) {
  if (!isId(guildId) || !(await ctx.access.isMember(guildId, actor.user.id))) throw Errors.unknownGuild();
  const rows = await ctx.repos.channels.guildChannelsSorted(guildId);
  const everyone = (await ctx.repos.roles.ofGuild(guildId)).find((r) => r.id === guildId);
  const guild = await ctx.repos.guilds.byId(guildId);
  const linked = new Map(
    (await ctx.repos.lobbies.linkedInGuild(guildId)).map((l) => [l.linked_channel_id!, { application_id: l.application_id, lobby_id: l.id }]),
  );
  const out = [];
  for (const c of rows) {
    const perms = await ctx.access.channelPerms(guildId, c.id, actor.user.id);
    if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
    const subject = {
      userId: '0',
      guildId,
      ownerId: String(guild?.owner_id ?? ''),
      memberRoleIds: [],
      rolePermissions: new Map([[guildId, BigInt(String(everyone?.permissions ?? '0'))]]),
    };
    const forAll = channelPermissions(subject, c.permission_overwrites, { now: ctx.clock.now() });
    out.push({
      id: c.id,
      name: c.name,
      type: c.type,
      position: c.position,
      parent_id: c.parent_id,
      is_linkable: LINKABLE_TYPES.has(c.type) && ctx.access.hasPerm(perms, P.MANAGE_CHANNELS),
      is_viewable_and_writeable_by_all_members: LINKABLE_TYPES.has(c.type) && (forAll & ALL_MEMBERS) === ALL_MEMBERS,
      linked_lobby: linked.get(c.id) ?? null,
    });
  }
  return out;
}
