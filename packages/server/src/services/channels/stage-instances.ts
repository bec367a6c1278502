import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { parseBody, snowflake } from '../../core/validation.js';
import type { ChannelRecord } from '../../store/records.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { getChannelRecord } from '../guilds/lookup.js';
import { isId } from '../../core/ids.js';
import { endStageEvent, stageEventFor, startStageEvent } from '../events/scheduled-events.js';

/**
 * Stage instances: a stage channel is live while it has one. Creating, editing and ending one needs the stage
 * moderator permissions (MANAGE_CHANNELS, MUTE_MEMBERS, MOVE_MEMBERS) in the channel. A stage instance tied to a
 * scheduled stage event starts that event, and ending the instance completes it. STAGE_INSTANCE_* reach those who
 * can view the channel.
 */

const unknownStage = () => new ApiError(404, 10067, 'Unknown Stage Instance');
const MODERATOR = P.MANAGE_CHANNELS | P.MUTE_MEMBERS | P.MOVE_MEMBERS;

const CreateBody = z.object({
  channel_id: snowflake,
  topic: z.string().min(1).max(120),
  privacy_level: z.literal([1, 2]).nullable().optional(),
  send_start_notification: z.boolean().nullable().optional(),
  guild_scheduled_event_id: snowflake.nullable().optional(),
});
const PatchBody = z.object({ topic: z.string().min(1).max(120).optional(), privacy_level: z.literal([1, 2]).optional() });

interface StageRow {
  id: unknown;
  guild_id: unknown;
  channel_id: unknown;
  topic: string;
  privacy_level: unknown;
  discoverable_disabled: unknown;
  guild_scheduled_event_id: unknown;
}

export const stageWire = (r: StageRow) => ({
  id: String(r.id),
  guild_id: String(r.guild_id),
  channel_id: String(r.channel_id),
  topic: r.topic,
  privacy_level: Number(r.privacy_level),
  discoverable_disabled: r.discoverable_disabled === true || Number(r.discoverable_disabled) === 1,
  guild_scheduled_event_id: r.guild_scheduled_event_id == null ? null : String(r.guild_scheduled_event_id),
});

/** A guild's live stages, for GUILD_CREATE. */
export async function guildStageInstances(ctx: Ctx, guildId: string) {
  if (!isId(guildId)) return [];
  return (await ctx.repos.channels.stagesOfGuild(guildId)).map(stageWire);
}

async function stageChannel(ctx: Ctx, channelId: string, field: string | null): Promise<ChannelRecord & { guild_id: string }> {
  const ch = await getChannelRecord(ctx, channelId);
  if (!ch || ch.guild_id === null) throw field ? fieldError(field, 'CHANNEL_INVALID', 'Unknown channel.') : Errors.unknownChannel();
  if (ch.type !== 13) throw field ? fieldError(field, 'CHANNEL_TYPE_INVALID', 'The channel must be a stage channel.') : Errors.wrongChannelType();
  return ch as ChannelRecord & { guild_id: string };
}

async function requireModerator(ctx: Ctx, actor: Actor, ch: ChannelRecord & { guild_id: string }): Promise<void> {
  const perms = await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id);
  if ((perms & MODERATOR) !== MODERATOR) throw Errors.missingPermissions();
}

async function requireStage(ctx: Ctx, channelId: string): Promise<StageRow> {
  if (!isId(channelId)) throw unknownStage();
  const row = await ctx.repos.channels.stageOfChannel(channelId);
  if (!row) throw unknownStage();
  return row;
}

const publish = (ctx: Ctx, t: string, r: StageRow) => ctx.bus.publish({ t, d: stageWire(r), guild_id: String(r.guild_id), channel_id: String(r.channel_id) });

/** POST /stage-instances: 150006 when the stage is already live. */
export async function createStageInstance(ctx: Ctx, actor: Actor, body: unknown) {
  const b = parseBody(CreateBody, body);
  const ch = await stageChannel(ctx, b.channel_id, 'channel_id');
  await requireModerator(ctx, actor, ch);
  if (await ctx.repos.channels.stageOfChannel(ch.id)) throw new ApiError(400, 150006, 'The Stage is already open');
  const eventId = b.guild_scheduled_event_id ?? null;
  if (eventId && !(await stageEventFor(ctx, ch.guild_id, eventId, ch.id)))
    throw fieldError('guild_scheduled_event_id', 'GUILD_SCHEDULED_EVENT_INVALID', 'Unknown stage event for this channel.');
  const row = {
    id: ctx.ids.next(),
    guild_id: ch.guild_id,
    channel_id: ch.id,
    topic: b.topic,
    privacy_level: b.privacy_level ?? 2,
    discoverable_disabled: false,
    guild_scheduled_event_id: eventId,
    created_at: ctx.clock.now(),
  };
  try {
    await ctx.repos.channels.insertStage(row);
  } catch {
    // The unique channel index lost a race: the stage is live already.
    throw new ApiError(400, 150006, 'The Stage is already open');
  }
  publish(ctx, 'STAGE_INSTANCE_CREATE', row);
  if (eventId) await startStageEvent(ctx, ch.guild_id, eventId, ch.id, row.id);
  const out = stageWire(row);
  await writeAuditLog(ctx, {
    guildId: ch.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.STAGE_INSTANCE_CREATE,
    targetId: row.id,
    changes: auditChanges('stage', null, out),
    options: { channel_id: ch.id },
  });
  return out;
}

export async function getStageInstance(ctx: Ctx, actor: Actor, channelId: string) {
  const row = await requireStage(ctx, channelId);
  await ctx.access.requireChannel(String(row.guild_id), String(row.channel_id), actor.user.id);
  return stageWire(row);
}

export async function updateStageInstance(ctx: Ctx, actor: Actor, channelId: string, body: unknown) {
  const row = await requireStage(ctx, channelId);
  const ch = await stageChannel(ctx, String(row.channel_id), null);
  await requireModerator(ctx, actor, ch);
  const b = parseBody(PatchBody, body);
  const set: { topic?: string; privacy_level?: number } = {};
  if (b.topic !== undefined) set.topic = b.topic;
  if (b.privacy_level !== undefined) set.privacy_level = b.privacy_level;
  const next = { ...row, ...set };
  if (Object.keys(set).length) {
    await ctx.repos.channels.updateStage(String(row.id), set);
    publish(ctx, 'STAGE_INSTANCE_UPDATE', next);
    await writeAuditLog(ctx, {
      guildId: ch.guild_id,
      userId: actor.user.id,
      actionType: AuditLogEvent.STAGE_INSTANCE_UPDATE,
      targetId: String(row.id),
      changes: auditChanges('stage', stageWire(row), stageWire(next)),
      options: { channel_id: ch.id },
    });
  }
  return stageWire(next);
}

export async function deleteStageInstance(ctx: Ctx, actor: Actor, channelId: string): Promise<void> {
  const row = await requireStage(ctx, channelId);
  const ch = await stageChannel(ctx, String(row.channel_id), null);
  await requireModerator(ctx, actor, ch);
  if (!(await ctx.repos.channels.deleteStage(String(row.id)))) throw unknownStage();
  publish(ctx, 'STAGE_INSTANCE_DELETE', row);
  if (row.guild_scheduled_event_id) await endStageEvent(ctx, ch.guild_id, String(row.guild_scheduled_event_id));
  await writeAuditLog(ctx, {
    guildId: ch.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.STAGE_INSTANCE_DELETE,
    targetId: String(row.id),
    changes: auditChanges('stage', stageWire(row), null),
    options: { channel_id: ch.id },
  });
}
