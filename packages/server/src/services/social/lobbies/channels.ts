import { P, channelPermissions } from '@accord/protocol';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { toChannel } from '../../../store/repos/mappers.js';
import { id } from '../../../store/schema.js';
import '../../../store/tables/lobbies.js';

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
  const rows = (await ctx.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).execute()).map(toChannel)
    .filter((c) => c.type !== 11 && c.type !== 12 && c.type !== 10);
  const everyone = await ctx.db.selectFrom('roles').select('permissions').where('id', '=', guildId).executeTakeFirst();
  const guild = await ctx.db.selectFrom('guilds').select('owner_id').where('id', '=', guildId).executeTakeFirst();
  const linked = new Map((await ctx.db.selectFrom('lobbies').select(['id', 'application_id', 'linked_channel_id']).where('linked_guild_id', '=', guildId).execute())
    .map((l) => [id(l.linked_channel_id!), { application_id: id(l.application_id), lobby_id: id(l.id) }]));
  const out = [];
  for (const c of rows) {
    const perms = await ctx.access.channelPerms(guildId, c.id, actor.user.id);
    if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
    const subject = {
      userId: '0', guildId, ownerId: String(guild?.owner_id ?? ''), memberRoleIds: [],
      rolePermissions: new Map([[guildId, BigInt(String(everyone?.permissions ?? '0'))]]),
    };
    const forAll = channelPermissions(subject, c.permission_overwrites, { now: ctx.clock.now() });
    out.push({
      id: c.id, name: c.name, type: c.type, position: c.position, parent_id: c.parent_id,
      is_linkable: LINKABLE_TYPES.has(c.type) && ctx.access.hasPerm(perms, P.MANAGE_CHANNELS),
      is_viewable_and_writeable_by_all_members: LINKABLE_TYPES.has(c.type) && (forAll & ALL_MEMBERS) === ALL_MEMBERS,
      linked_lobby: linked.get(c.id) ?? null,
    });
  }
  return out;
}
