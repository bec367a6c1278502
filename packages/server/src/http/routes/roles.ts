import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, permissionString, snowflake } from '../../core/validation.js';
import { createRole, deleteRole, getRole, listRoles, reorderRoles, roleMemberCounts, updateRole } from '../../services/guilds/roles.js';
import { imageHash } from './guilds.js';

const color = z.number().int().min(0).max(0xffffff);
const RoleBody = z.object({
  name: z.string().min(1).max(100).nullable().optional(),
  permissions: permissionString.nullable().optional(),
  color: color.nullable().optional(),
  colors: z.object({ primary_color: color, secondary_color: color.nullable().optional(), tertiary_color: color.nullable().optional() }).nullable().optional(),
  hoist: z.boolean().nullable().optional(),
  icon: z.string().max(10_000_000).nullable().optional(),
  unicode_emoji: z.string().max(100).nullable().optional(),
  mentionable: z.boolean().nullable().optional(),
});
const Positions = z
  .array(
    z.object({
      id: snowflake,
      position: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .nullable()
        .optional(),
    }),
  )
  .max(250);

const roleInput = (body: unknown) => {
  const b = parseBody(RoleBody, body);
  return { ...b, icon: imageHash(b.icon) };
};

export default new Routes()
  .get('/guilds/{guild_id}/roles', 'any', async ({ ctx, actor, params }) => listRoles(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/roles', 'any', async ({ ctx, actor, params, body }) => createRole(ctx, actor, params.guild_id, roleInput(body)))
  .patch('/guilds/{guild_id}/roles', 'any', async ({ ctx, actor, params, body }) => reorderRoles(ctx, actor, params.guild_id, parseBody(Positions, body)))
  .get('/guilds/{guild_id}/roles/member-counts', 'any', async ({ ctx, actor, params }) => roleMemberCounts(ctx, actor, params.guild_id))
  .get('/guilds/{guild_id}/roles/{role_id}', 'any', async ({ ctx, actor, params }) => getRole(ctx, actor, params.guild_id, params.role_id))
  .patch('/guilds/{guild_id}/roles/{role_id}', 'any', async ({ ctx, actor, params, body }) =>
    updateRole(ctx, actor, params.guild_id, params.role_id, roleInput(body)),
  )
  .delete('/guilds/{guild_id}/roles/{role_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteRole(ctx, actor, params.guild_id, params.role_id);
    return noContent();
  });
