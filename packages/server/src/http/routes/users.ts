import { dmChannelsWire } from '../../services/channels/dms.js';
import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, snowflake, qInt } from '../../core/validation.js';
import { requireUser, getUsers } from '../../services/identity/users.js';
import { editProfile } from '../../services/identity/profile.js';
import { publicUser, selfUser } from '../../wire/user.js';
import { channel as channelWire } from '../../wire/channel.js';
import { openDm } from '../../services/channels/dms.js';
import { createGroupDm } from '../../services/channels/group-dms.js';
import { removeMember } from '../../services/guilds/membership.js';
import { Errors, fieldError } from '../../core/errors.js';
import type { Actor } from '../../services/context.js';
import { isId } from '../../core/ids.js';

const PatchMe = z.object({
  username: z.string().min(2).max(32).optional(),
  email: z.string().email().max(320).optional(),
  global_name: z.string().min(1).max(32).nullable().optional(),
  avatar: z.string().max(10_000_000).nullable().optional(),
  banner: z.string().max(10_000_000).nullable().optional(),
  bio: z.string().max(190).optional(),
  accent_color: z.number().int().min(0).max(0xffffff).nullable().optional(),
  password: z.string().max(1024).optional(),
  new_password: z.string().min(8).max(72).optional(),
});
const OpenDm = z.object({
  recipient_id: snowflake.optional(),
  recipients: z.array(snowflake).max(10).optional(),
  // Group DMs: bots pass their users' OAuth2 tokens (gdm.join) and nicknames by user id.
  access_tokens: z.array(z.string().max(1024)).max(10).nullable().optional(),
  nicks: z.record(z.string(), z.string().max(32).nullable()).nullable().optional(),
});
const GuildsQuery = z.object({ before: snowflake.optional(), after: snowflake.optional(), limit: qInt(1, 200), with_counts: z.any().optional() });

/**
 * The caller's own user. Which bearer tokens reach a route is decided by http/scope-guard.ts (identify for
 * /users/@me, guilds for /users/@me/guilds, …); within a route, fields follow the scopes: `email` needs `email`,
 * `premium_type` needs `identify.premium` (0 otherwise).
 */
export const selfView = (a: Actor) =>
  selfUser(a.user, {
    email: a.kind !== 'bearer' || a.scopes.includes('email'),
    premium: a.kind === 'user' || (a.kind === 'bearer' && a.scopes.includes('identify.premium')),
  });

export default new Routes()
  .get('/users/@me', 'any', async ({ actor }) => selfView(actor))
  .patch('/users/@me', 'any', async ({ ctx, actor, body }) => {
    const { user, token } = await editProfile(ctx, actor, parseBody(PatchMe, body));
    return token ? { ...selfView({ ...actor, user }), token } : selfView({ ...actor, user });
  })
  .get('/users/{user_id}', 'any', async ({ ctx, params }) => {
    if (!isId(params.user_id)) throw Errors.unknownUser();
    return publicUser(await requireUser(ctx, params.user_id));
  })
  .get('/users/@me/channels', 'any', async ({ ctx, actor }) => {
    return dmChannelsWire(ctx, actor.user.id);
  })
  .post('/users/@me/channels', 'any', async ({ ctx, actor, body }) => {
    const b = parseBody(OpenDm, body);
    if (b.access_tokens || (b.recipient_id === undefined && (b.recipients?.length ?? 0) > 1)) return createGroupDm(ctx, actor, b);
    const recipient = b.recipient_id ?? (b.recipients?.length === 1 ? b.recipients[0] : undefined);
    if (!recipient) throw fieldError('recipient_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const ch = await openDm(ctx, actor.user, recipient);
    const users = await getUsers(
      ctx,
      (ch.recipients ?? []).filter((id) => id !== actor.user.id),
    );
    return channelWire(ch, [...users.values()]);
  })
  .get('/users/@me/guilds', 'any', async ({ ctx, actor, query }) => {
    const q = parseBody(GuildsQuery, query);
    const rows = await ctx.repos.members.guildsPageOf(actor.user.id, { after: q.after, before: q.before, limit: q.limit ?? 200 });
    const out = [];
    for (const g of rows) {
      const perms = (await ctx.access.guildPerms(g.id, actor.user.id)) ?? 0n;
      out.push({
        id: g.id,
        name: g.name,
        icon: g.icon,
        banner: g.banner,
        owner: g.owner_id === actor.user.id,
        permissions: perms.toString(),
        features: g.features,
      });
    }
    return out;
  })
  .delete('/users/@me/guilds/{guild_id}', 'any', async ({ ctx, actor, params }) => {
    const owner = await ctx.access.ownerId(params.guild_id);
    if (!owner || !(await ctx.access.isMember(params.guild_id, actor.user.id))) throw Errors.unknownGuild();
    if (owner === actor.user.id) throw fieldError([], 'GUILD_OWNER_CANNOT_LEAVE', 'The owner cannot leave the guild.');
    await removeMember(ctx, params.guild_id, actor.user.id);
    return noContent();
  });
