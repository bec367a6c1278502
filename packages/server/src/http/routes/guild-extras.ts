import { z } from 'zod';
import { Reply, Routes, created } from '../router.js';
import { parseBody, qBool, qInt, snowflake } from '../../core/validation.js';
import {
  createGuildFromTemplate,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  syncTemplate,
  updateTemplate,
} from '../../services/guilds/templates.js';
import { VOICE_REGIONS, guildRegions } from '../../services/voice/regions.js';
import { beginPrune, pruneCount } from '../../services/guilds/prune.js';
import { getVanity, setVanity } from '../../services/guilds/vanity.js';
import { getWidgetSettings, updateWidgetSettings, widgetJson, widgetPng } from '../../services/guilds/widget.js';
import { getOnboarding, putOnboarding } from '../../services/guilds/onboarding.js';
import { getWelcomeScreen, updateWelcomeScreen } from '../../services/guilds/welcome-screen.js';
import { searchGuildMessages } from '../../services/messages/search.js';
import messageExtras from './message-extras.js';
import userExtras from './user-extras.js';

const TemplateBody = z.object({ name: z.string().min(1).max(100), description: z.string().max(120).nullable().optional() });
const TemplatePatch = z.object({ name: z.string().min(1).max(100).optional(), description: z.string().max(120).nullable().optional() });
const FromTemplate = z.object({ name: z.string().min(2).max(100), icon: z.string().max(10_000_000).nullable().optional() });

const WelcomeBody = z.object({
  enabled: z.boolean().nullable().optional(),
  description: z.string().max(140).nullable().optional(),
  welcome_channels: z
    .array(
      z.object({
        channel_id: snowflake,
        description: z.string().min(1).max(50),
        emoji_id: snowflake.nullable().optional(),
        emoji_name: z.string().max(32).nullable().optional(),
      }),
    )
    .max(5)
    .nullable()
    .optional(),
});

const OnboardingBody = z.object({
  prompts: z
    .array(
      z.object({
        id: z
          .union([snowflake, z.string().max(32)])
          .nullable()
          .optional(),
        type: z.literal([0, 1]).nullable().optional(),
        title: z.string().min(1).max(100),
        single_select: z.boolean().nullable().optional(),
        required: z.boolean().nullable().optional(),
        in_onboarding: z.boolean().nullable().optional(),
        options: z
          .array(
            z.object({
              id: z
                .union([snowflake, z.string().max(32)])
                .nullable()
                .optional(),
              title: z.string().min(1).max(50),
              description: z.string().max(100).nullable().optional(),
              emoji_id: snowflake.nullable().optional(),
              emoji_name: z.string().max(32).nullable().optional(),
              emoji_animated: z.boolean().nullable().optional(),
              role_ids: z.array(snowflake).max(50).nullable().optional(),
              channel_ids: z.array(snowflake).max(50).nullable().optional(),
            }),
          )
          .min(1)
          .max(50),
      }),
    )
    .max(15)
    .nullable()
    .optional(),
  default_channel_ids: z.array(snowflake).max(500).nullable().optional(),
  enabled: z.boolean().nullable().optional(),
  mode: z.literal([0, 1]).nullable().optional(),
});

const WidgetBody = z.object({ enabled: z.boolean().nullable().optional(), channel_id: snowflake.nullable().optional() });
const VanityBody = z.object({ code: z.string().max(32).nullable() });

/** `include_roles` arrives as a comma-separated string, repeated parameters, or (POST) a list. */
const idList = (max: number) =>
  z.preprocess(
    (v) =>
      v === undefined || v === ''
        ? undefined
        : Array.isArray(v)
          ? v
          : String(v)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
    z.array(snowflake).max(max).optional(),
  );
const PruneQuery = z.object({ days: qInt(1, 30), include_roles: idList(100) });
const PruneBody = z.object({
  days: z.number().int().min(1).max(30).nullable().optional(),
  compute_prune_count: z.boolean().nullable().optional(),
  include_roles: idList(100).nullable(),
  reason: z.string().max(512).nullable().optional(),
});

/** Query lists: repeated parameters arrive as arrays, a single one as a string. */
const many = <T extends z.ZodType>(item: T, max: number) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(max).optional());
const flag = (values: readonly string[]) => z.enum([...values, ...values.map((v) => `-${v}`)] as [string, ...string[]]);
const SearchQuery = z.object({
  content: z.string().max(1024).optional(),
  author_id: many(z.union([snowflake, z.string().regex(/^-\d{1,20}$/)]), 100),
  author_type: many(flag(['user', 'bot', 'webhook']), 100),
  mentions: many(snowflake, 100),
  mentions_role_id: many(snowflake, 100),
  mention_everyone: qBool,
  replied_to_user_id: many(snowflake, 100),
  replied_to_message_id: many(snowflake, 100),
  has: many(flag(['link', 'embed', 'file', 'image', 'video', 'sound', 'sticker', 'poll', 'snapshot']), 100),
  channel_id: many(snowflake, 500),
  pinned: qBool,
  min_id: snowflake.optional(),
  max_id: snowflake.optional(),
  link_hostname: many(z.string().max(256), 100),
  embed_type: many(z.enum(['image', 'video', 'gif', 'sound', 'article']), 100),
  embed_provider: many(z.string().max(256), 100),
  attachment_extension: many(z.string().max(64), 100),
  attachment_filename: many(z.string().max(1024), 100),
  include_nsfw: qBool,
  sort_by: z.enum(['timestamp', 'relevance']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  limit: qInt(1, 25),
  offset: qInt(0, 9975),
  slop: qInt(0, 100),
});

const routes = new Routes()
  // Templates
  .get('/guilds/templates/{code}', 'optional', async ({ ctx, params }) => getTemplate(ctx, params.code))
  .post('/guilds/templates/{code}', 'user', async ({ ctx, actor, params, body }) => {
    const b = parseBody(FromTemplate, body);
    return created(await createGuildFromTemplate(ctx, actor, params.code, { name: b.name, icon: b.icon ?? null }));
  })
  .get('/guilds/{guild_id}/templates', 'any', async ({ ctx, actor, params }) => listTemplates(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/templates', 'any', async ({ ctx, actor, params, body }) =>
    createTemplate(ctx, actor, params.guild_id, parseBody(TemplateBody, body)),
  )
  .put('/guilds/{guild_id}/templates/{code}', 'any', async ({ ctx, actor, params }) => syncTemplate(ctx, actor, params.guild_id, params.code))
  .patch('/guilds/{guild_id}/templates/{code}', 'any', async ({ ctx, actor, params, body }) =>
    updateTemplate(ctx, actor, params.guild_id, params.code, parseBody(TemplatePatch, body)),
  )
  .delete('/guilds/{guild_id}/templates/{code}', 'any', async ({ ctx, actor, params }) => deleteTemplate(ctx, actor, params.guild_id, params.code))
  // Welcome screen and onboarding
  .get('/guilds/{guild_id}/welcome-screen', 'any', async ({ ctx, actor, params }) => getWelcomeScreen(ctx, actor, params.guild_id))
  .patch('/guilds/{guild_id}/welcome-screen', 'any', async ({ ctx, actor, params, body }) =>
    updateWelcomeScreen(ctx, actor, params.guild_id, parseBody(WelcomeBody, body)),
  )
  .get('/guilds/{guild_id}/onboarding', 'any', async ({ ctx, actor, params }) => getOnboarding(ctx, actor, params.guild_id))
  .put('/guilds/{guild_id}/onboarding', 'any', async ({ ctx, actor, params, body }) =>
    putOnboarding(ctx, actor, params.guild_id, parseBody(OnboardingBody, body)),
  )
  // Widget
  .get('/guilds/{guild_id}/widget', 'any', async ({ ctx, actor, params }) => getWidgetSettings(ctx, actor, params.guild_id))
  .patch('/guilds/{guild_id}/widget', 'any', async ({ ctx, actor, params, body }) =>
    updateWidgetSettings(ctx, actor, params.guild_id, parseBody(WidgetBody, body)),
  )
  .get('/guilds/{guild_id}/widget.json', 'none', async ({ ctx, params }) => widgetJson(ctx, params.guild_id))
  .get('/guilds/{guild_id}/widget.png', 'none', async ({ ctx, params, query }) => new Reply(200, await widgetPng(ctx, params.guild_id, query), 'image/png'))
  // Vanity URL
  .get('/guilds/{guild_id}/vanity-url', 'any', async ({ ctx, actor, params }) => getVanity(ctx, actor, params.guild_id))
  .patch('/guilds/{guild_id}/vanity-url', 'any', async ({ ctx, actor, params, body }) =>
    setVanity(ctx, actor, params.guild_id, parseBody(VanityBody, body).code),
  )
  // Prune
  .get('/guilds/{guild_id}/prune', 'any', async ({ ctx, actor, params, query }) => pruneCount(ctx, actor, params.guild_id, parseBody(PruneQuery, query)))
  .post('/guilds/{guild_id}/prune', 'any', async ({ ctx, actor, params, body }) => {
    const b = parseBody(PruneBody, body);
    return beginPrune(ctx, actor, params.guild_id, {
      days: b.days ?? undefined,
      include_roles: b.include_roles ?? undefined,
      compute_prune_count: b.compute_prune_count ?? undefined,
    });
  })
  // Voice regions
  .get('/voice/regions', 'any', async () => VOICE_REGIONS)
  .get('/guilds/{guild_id}/regions', 'any', async ({ ctx, actor, params }) => guildRegions(ctx, actor, params.guild_id))
  // Search Guild Messages (202 + 110000 while the guild is being indexed)
  .get('/guilds/{guild_id}/messages/search', 'any', async ({ ctx, actor, params, query }) =>
    searchGuildMessages(ctx, actor, params.guild_id, parseBody(SearchQuery, query)),
  );

// Polls, crossposts, followers, voice status, connections and guild tags register with this module.
routes.defs.push(...messageExtras.defs, ...userExtras.defs);

export default routes;
