import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { kickMember, listMembers, searchMembers, setMemberRole, updateMember, updateOwnNick, viewMember } from '../../services/guilds/members.js';
import { updateCurrentMember } from '../../services/guilds/current-member.js';

const nick = z.string().max(32).nullable();
const ListQuery = z.object({ limit: qInt(1, 1000), after: snowflake.optional() });
const SearchQuery = z.object({ query: z.string().min(1).max(100), limit: qInt(1, 1000) });
const PatchMember = z.object({
  nick: nick.optional(),
  roles: z.array(snowflake).max(250).nullable().optional(),
  mute: z.boolean().nullable().optional(),
  deaf: z.boolean().nullable().optional(),
  channel_id: snowflake.nullable().optional(),
  communication_disabled_until: z.string().max(64).nullable().optional(),
  flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .nullable()
    .optional(),
});
const PatchMe = z.object({ nick: nick.optional() });
/** Modify Current Member: the nick, and the guild profile bots may set (avatar and banner as data URIs, bio). */
const PatchCurrentMember = PatchMe.extend({
  avatar: z.string().max(10_000_000).nullable().optional(),
  banner: z.string().max(10_000_000).nullable().optional(),
  bio: z.string().max(190).nullable().optional(),
});

export default new Routes()
  .get('/guilds/{guild_id}/members', 'any', async ({ ctx, actor, params, query }) => listMembers(ctx, actor, params.guild_id, parseBody(ListQuery, query)))
  .get('/guilds/{guild_id}/members/search', 'any', async ({ ctx, actor, params, query }) =>
    searchMembers(ctx, actor, params.guild_id, parseBody(SearchQuery, query)),
  )
  .patch('/guilds/{guild_id}/members/@me', 'any', async ({ ctx, actor, params, body }) =>
    updateCurrentMember(ctx, actor, params.guild_id, parseBody(PatchCurrentMember, body)),
  )
  .patch('/guilds/{guild_id}/members/@me/nick', 'any', async ({ ctx, actor, params, body }) => {
    const m = await updateOwnNick(ctx, actor, params.guild_id, parseBody(PatchMe, body).nick ?? null);
    return { nick: m.nick };
  })
  .get('/guilds/{guild_id}/members/{user_id}', 'any', async ({ ctx, actor, params }) => viewMember(ctx, actor, params.guild_id, params.user_id))
  .patch('/guilds/{guild_id}/members/{user_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateMember(ctx, actor, params.guild_id, params.user_id, parseBody(PatchMember, body)),
  )
  .delete('/guilds/{guild_id}/members/{user_id}', 'any', async ({ ctx, actor, params }) => {
    await kickMember(ctx, actor, params.guild_id, params.user_id);
    return noContent();
  })
  .put('/guilds/{guild_id}/members/{user_id}/roles/{role_id}', 'any', async ({ ctx, actor, params }) => {
    await setMemberRole(ctx, actor, params.guild_id, params.user_id, params.role_id, true);
    return noContent();
  })
  .delete('/guilds/{guild_id}/members/{user_id}/roles/{role_id}', 'any', async ({ ctx, actor, params }) => {
    await setMemberRole(ctx, actor, params.guild_id, params.user_id, params.role_id, false);
    return noContent();
  });
