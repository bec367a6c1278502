import crypto from 'node:crypto';
import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { ApiError, Errors, fieldError } from '../../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import { parseBody, snowflake } from '../../../core/validation.js';
import { toWebhook } from '../../../store/repos/mappers.js';
import type { ChannelRecord, UserRecord, WebhookRecord } from '../../../store/records.js';
import { webhook as webhookWire } from '../../../wire/webhook.js';
import { followerSources } from '../announcements.js';
import { getUsers } from '../../identity/users.js';
import { WebhookName, loadWebhook, requireWebhookByToken } from './lookup.js';
import { AuditLogEvent, auditChanges, webhookAudit, writeAuditLog } from '../../moderation/audit-log.js';
import { randomBytes } from '../../../core/random.js';

export { executeWebhook, getWebhookMessage, editWebhookMessage, deleteWebhookMessage } from './execute.js';
export { loadWebhook, requireWebhookByToken, tokenMatches } from './lookup.js';

/**
 * Incoming webhooks. The token is a secret: only the creation response, the creator's own GET/PATCH, and the
 * token-authenticated routes return it. Events never carry it.
 */

export const WEBHOOK_CHANNEL_TYPES = new Set([0, 2, 5, 13, 15, 16]);
const MAX_PER_CHANNEL = 15;
const MAX_PER_GUILD = 1000;
const maxPerGuild = () => new ApiError(400, 30058, 'Maximum number of webhooks per guild reached (1000)');

const Avatar = z.string().max(10_000_000).nullable().optional();

const CreateBody = z.object({ name: WebhookName, avatar: Avatar });
const PatchBody = z.object({ name: WebhookName.optional(), avatar: Avatar, channel_id: snowflake.optional() });
const TokenPatchBody = z.object({ name: WebhookName.optional(), avatar: Avatar });

/** Image data is stored as a content hash, as user avatars are. */
const imageHash = (data: string) => crypto.createHash('md5').update(data).digest('hex');

const newToken = () => randomBytes(51).toString('base64url');

async function loadWebhookChannel(ctx: Ctx, channelId: string): Promise<ChannelRecord & { guild_id: string }> {
  if (!isSnowflake(channelId)) throw Errors.unknownChannel();
  const c = await ctx.repos.channels.byId(channelId);
  if (!c) throw Errors.unknownChannel();
  if (!c.guild_id) throw Errors.cannotDM();
  if (!WEBHOOK_CHANNEL_TYPES.has(c.type)) throw Errors.wrongChannelType();
  return c as ChannelRecord & { guild_id: string };
}

/** MANAGE_WEBHOOKS on the webhook's channel; callers who are not in its guild learn nothing (10015). */
async function requireManage(ctx: Ctx, actor: Actor, webhookId: string): Promise<WebhookRecord> {
  const w = await loadWebhook(ctx, webhookId);
  if (!w || !w.guild_id) throw Errors.unknownWebhook();
  if (!(await ctx.access.isMember(w.guild_id, actor.user.id))) throw Errors.unknownWebhook();
  await ctx.access.requireChannel(w.guild_id, w.channel_id, actor.user.id, P.MANAGE_WEBHOOKS);
  return w;
}

type View = 'creator-only' | 'token' | 'none';

/** Serializes webhooks for a viewer: the token only for its creator (or a caller who presented it), `user` unless token-authenticated. */
async function views(ctx: Ctx, hooks: WebhookRecord[], viewerId: string | null, mode: View) {
  const creators =
    mode === 'token'
      ? new Map<string, UserRecord>()
      : await getUsers(
          ctx,
          hooks.map((w) => w.creator_id).filter((x): x is string => !!x),
        );
  const sources = await followerSources(
    ctx,
    hooks.filter((w) => w.type === 2).map((w) => w.id),
  );
  return hooks.map((w) =>
    webhookWire(w, {
      source: sources.get(w.id) ?? null,
      creator: mode === 'token' ? null : w.creator_id ? (creators.get(w.creator_id) ?? null) : null,
      withToken: mode === 'token' || (mode === 'creator-only' && viewerId !== null && w.creator_id === viewerId),
      baseUrl: ctx.publicUrl,
    }),
  );
}
const view = async (ctx: Ctx, w: WebhookRecord, viewerId: string | null, mode: View) => (await views(ctx, [w], viewerId, mode))[0];

function announce(ctx: Ctx, guildId: string | null, channelId: string) {
  // WEBHOOKS_UPDATE carries ids only: never the webhook, never its token.
  if (guildId) ctx.bus.publish({ t: 'WEBHOOKS_UPDATE', d: { guild_id: guildId, channel_id: channelId }, guild_id: guildId, channel_id: channelId });
}

async function checkCapacity(ctx: Ctx, guildId: string, channelId: string) {
  const [perChannel, perGuild] = await Promise.all([ctx.repos.webhooks.countInChannel(channelId), ctx.repos.webhooks.countInGuild(guildId)]);
  if (perChannel >= MAX_PER_CHANNEL) throw Errors.maxWebhooks();
  if (perGuild >= MAX_PER_GUILD) throw maxPerGuild();
}

/** POST /channels/{channel_id}/webhooks: MANAGE_WEBHOOKS; the response is the only listing that always shows the token. */
export async function createWebhook(ctx: Ctx, actor: Actor, channelId: string, body: unknown) {
  const ch = await loadWebhookChannel(ctx, channelId);
  await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id, P.MANAGE_WEBHOOKS);
  const b = parseBody(CreateBody, body);
  await checkCapacity(ctx, ch.guild_id, ch.id);
  const row = {
    id: ctx.ids.next(),
    type: 1,
    guild_id: ch.guild_id,
    channel_id: ch.id,
    creator_id: actor.user.id,
    application_id: actor.kind === 'bot' ? actor.applicationId : null,
    name: b.name,
    avatar: b.avatar ? imageHash(b.avatar) : null,
    token: newToken(),
    created_at: ctx.clock.now(),
  };
  await ctx.repos.webhooks.insert(row);
  announce(ctx, ch.guild_id, ch.id);
  await writeAuditLog(ctx, {
    guildId: ch.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.WEBHOOK_CREATE,
    targetId: row.id,
    changes: auditChanges('webhook', null, webhookAudit(row)),
  });
  return webhookWire(toWebhook(row), { creator: actor.user, withToken: true, baseUrl: ctx.publicUrl });
}

/** GET /channels/{channel_id}/webhooks: MANAGE_WEBHOOKS. */
export async function listChannelWebhooks(ctx: Ctx, actor: Actor, channelId: string) {
  const ch = await loadWebhookChannel(ctx, channelId);
  await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id, P.MANAGE_WEBHOOKS);
  return views(ctx, await ctx.repos.webhooks.ofChannel(ch.id), actor.user.id, 'creator-only');
}

/** GET /guilds/{guild_id}/webhooks: MANAGE_WEBHOOKS in the guild. */
export async function listGuildWebhooks(ctx: Ctx, actor: Actor, guildId: string) {
  if (!isSnowflake(guildId)) throw Errors.unknownGuild();
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_WEBHOOKS);
  return views(ctx, await ctx.repos.webhooks.ofGuild(guildId), actor.user.id, 'creator-only');
}

/** GET /webhooks/{webhook_id}. */
export async function getWebhook(ctx: Ctx, actor: Actor, webhookId: string) {
  const w = await requireManage(ctx, actor, webhookId);
  return view(ctx, w, actor.user.id, 'creator-only');
}

/** GET /webhooks/{webhook_id}/{token}: no `user`, token included (the caller holds it). */
export async function getWebhookByToken(ctx: Ctx, webhookId: string, token: string) {
  return view(ctx, await requireWebhookByToken(ctx, webhookId, token), null, 'token');
}

async function applyPatch(ctx: Ctx, w: WebhookRecord, b: { name?: string; avatar?: string | null; channel_id?: string }): Promise<WebhookRecord> {
  const set: Partial<{ name: string; avatar: string | null; channel_id: string }> = {};
  if (b.name !== undefined) set.name = b.name;
  if (b.avatar !== undefined) set.avatar = b.avatar ? imageHash(b.avatar) : null;
  if (b.channel_id !== undefined && b.channel_id !== w.channel_id) set.channel_id = b.channel_id;
  if (Object.keys(set).length) await ctx.repos.webhooks.update(w.id, set);
  const next = { ...w, ...set };
  if (Object.keys(set).length) {
    announce(ctx, w.guild_id, w.channel_id);
    if (set.channel_id) announce(ctx, w.guild_id, set.channel_id);
  }
  return next;
}

/** PATCH /webhooks/{webhook_id}: MANAGE_WEBHOOKS; `channel_id` moves it to another channel of the same guild. */
export async function updateWebhook(ctx: Ctx, actor: Actor, webhookId: string, body: unknown) {
  const w = await requireManage(ctx, actor, webhookId);
  const b = parseBody(PatchBody, body);
  if (b.channel_id !== undefined && b.channel_id !== w.channel_id) {
    const target = await loadWebhookChannel(ctx, b.channel_id).catch((e) => {
      if (e instanceof ApiError && e.code === 10003) throw fieldError('channel_id', 'CHANNEL_ID_INVALID', 'Unknown channel.');
      throw e;
    });
    if (target.guild_id !== w.guild_id) throw fieldError('channel_id', 'CHANNEL_ID_INVALID', "The channel must be in the webhook's guild.");
    await ctx.access.requireChannel(target.guild_id, target.id, actor.user.id, P.MANAGE_WEBHOOKS);
    await checkCapacity(ctx, target.guild_id, target.id);
  }
  const next = await applyPatch(ctx, w, b);
  if (w.guild_id)
    await writeAuditLog(ctx, {
      guildId: w.guild_id,
      userId: actor.user.id,
      actionType: AuditLogEvent.WEBHOOK_UPDATE,
      targetId: w.id,
      changes: auditChanges('webhook', webhookAudit(w), webhookAudit(next)),
    });
  return view(ctx, next, actor.user.id, 'creator-only');
}

/** PATCH /webhooks/{webhook_id}/{token}: name and avatar only. */
export async function updateWebhookByToken(ctx: Ctx, webhookId: string, token: string, body: unknown) {
  const w = await requireWebhookByToken(ctx, webhookId, token);
  const b = parseBody(TokenPatchBody, body);
  return view(ctx, await applyPatch(ctx, w, b), null, 'token');
}

async function remove(ctx: Ctx, w: WebhookRecord) {
  // A follower webhook's link to its announcement channel goes with it (crossposts no longer reach this channel).
  await ctx.repos.webhooks.delete(w.id);
  announce(ctx, w.guild_id, w.channel_id);
}

/** DELETE /webhooks/{webhook_id}: MANAGE_WEBHOOKS. */
export async function deleteWebhook(ctx: Ctx, actor: Actor, webhookId: string): Promise<void> {
  const w = await requireManage(ctx, actor, webhookId);
  await remove(ctx, w);
  if (w.guild_id)
    await writeAuditLog(ctx, {
      guildId: w.guild_id,
      userId: actor.user.id,
      actionType: AuditLogEvent.WEBHOOK_DELETE,
      targetId: w.id,
      changes: auditChanges('webhook', webhookAudit(w), null),
    });
}

/** DELETE /webhooks/{webhook_id}/{token}. */
export async function deleteWebhookByToken(ctx: Ctx, webhookId: string, token: string): Promise<void> {
  await remove(ctx, await requireWebhookByToken(ctx, webhookId, token));
}
