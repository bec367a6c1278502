import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody, snowflake } from '../../core/validation.js';
import { listConnections } from '../../services/identity/connections.js';
import { adoptGuildTag, getGuildProfile, updateGuildProfile } from '../../services/guilds/tags.js';

const ClanBody = z.object({ identity_guild_id: snowflake.nullable(), identity_enabled: z.boolean().nullable().optional() });
const ProfileBody = z.object({ tag: z.string().max(16).nullable().optional(), badge: z.string().max(64).nullable().optional() });

/** User connections, and guild tags (the guild's profile and a person's primary guild). */
export default new Routes()
  .get('/users/@me/connections', 'any', async ({ ctx, actor }) => listConnections(ctx, actor))
  .put('/users/@me/clan', 'user', async ({ ctx, actor, body }) => adoptGuildTag(ctx, actor, parseBody(ClanBody, body)))
  .get('/guilds/{guild_id}/profile', 'any', async ({ ctx, actor, params }) => getGuildProfile(ctx, actor, params.guild_id))
  .patch('/guilds/{guild_id}/profile', 'any', async ({ ctx, actor, params, body }) =>
    updateGuildProfile(ctx, actor, params.guild_id, parseBody(ProfileBody, body)),
  );
