import { z } from 'zod';
import crypto from 'node:crypto';
import { Routes, created, noContent } from '../router.js';
import { parseBody, permissionString, qBool, snowflake } from '../../core/validation.js';
import { createGuildAs, deleteGuild, updateGuild, viewGuild } from '../../services/guilds/guild.js';

const placeholder = z.union([z.number().int(), z.string().max(20)]);
const locale = z.string().min(2).max(10);
const afkTimeout = z.literal([60, 300, 900, 1800, 3600]);
const image = z.string().max(10_000_000);

const CreateGuild = z.object({
  name: z.string().min(2).max(100),
  icon: image.nullable().optional(),
  verification_level: z.number().int().min(0).max(4).nullable().optional(),
  default_message_notifications: z.literal([0, 1]).nullable().optional(),
  explicit_content_filter: z.literal([0, 1, 2]).nullable().optional(),
  preferred_locale: locale.nullable().optional(),
  afk_timeout: afkTimeout.nullable().optional(),
  system_channel_flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .nullable()
    .optional(),
  roles: z
    .array(
      z.object({
        id: placeholder.optional(),
        name: z.string().min(1).max(100).optional(),
        permissions: permissionString.optional(),
        color: z.number().int().min(0).max(0xffffff).optional(),
        hoist: z.boolean().optional(),
        mentionable: z.boolean().optional(),
      }),
    )
    .max(250)
    .optional(),
  channels: z
    .array(
      z.object({
        id: placeholder.optional(),
        name: z.string().min(1).max(100),
        type: z.literal([0, 2, 4, 5, 13, 15, 16]).optional(),
        parent_id: placeholder.nullable().optional(),
        topic: z.string().max(1024).nullable().optional(),
      }),
    )
    .max(500)
    .optional(),
});

const channelRef = snowflake.nullable().optional();
const PatchGuild = z.object({
  name: z.string().min(2).max(100).optional(),
  icon: image.nullable().optional(),
  splash: image.nullable().optional(),
  banner: image.nullable().optional(),
  description: z.string().max(300).nullable().optional(),
  afk_channel_id: channelRef,
  afk_timeout: afkTimeout.optional(),
  verification_level: z.number().int().min(0).max(4).optional(),
  default_message_notifications: z.literal([0, 1]).optional(),
  explicit_content_filter: z.literal([0, 1, 2]).optional(),
  system_channel_id: channelRef,
  system_channel_flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  rules_channel_id: channelRef,
  public_updates_channel_id: channelRef,
  safety_alerts_channel_id: channelRef,
  preferred_locale: locale.optional(),
  features: z.array(z.string().max(64)).max(100).optional(),
  premium_progress_bar_enabled: z.boolean().optional(),
  owner_id: snowflake.optional(),
});
const GuildQuery = z.object({ with_counts: qBool });

/** Images arrive as data URIs and are kept as a content hash (the CDN serves attachments only). */
export const imageHash = (data: string | null | undefined) => (data ? crypto.createHash('md5').update(data).digest('hex') : data);

const clean = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };

export default new Routes()
  .post('/guilds', 'user', async ({ ctx, actor, body }) => {
    const b = parseBody(CreateGuild, body);
    const { name, roles, channels, icon, ...rest } = b;
    return created(await createGuildAs(ctx, actor, { ...clean(rest), name, icon: icon ?? null, roles, channels }));
  })
  .get('/guilds/{guild_id}', 'any', async ({ ctx, actor, params, query }) => {
    const q = parseBody(GuildQuery, query);
    return viewGuild(ctx, actor, params.guild_id, !!q.with_counts);
  })
  .patch('/guilds/{guild_id}', 'any', async ({ ctx, actor, params, body }) => {
    const b = parseBody(PatchGuild, body);
    return updateGuild(ctx, actor, params.guild_id, b);
  })
  .delete('/guilds/{guild_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteGuild(ctx, actor, params.guild_id);
    return noContent();
  });
