import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError, formError } from '../../core/errors.js';
import { P, snowflakeAt } from '@accord/protocol';
import { parseBody, snowflake } from '../../core/validation.js';
import { num, parseJson } from '../../store/json.js';
import { type EventCover, type ScheduledEventRow } from '../../store/repos/scheduled-events.js';
import { member as memberWire } from '../../wire/member.js';
import { publicUser } from '../../wire/user.js';
import { eventWire, exceptionWire, type EventRow, type ExceptionRow } from '../../wire/scheduled-event.js';
import { assetHash, imageFromDataUri } from '../expressions/assets.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { getChannelRecord } from '../guilds/lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { getUsers } from '../identity/users.js';

/**
 * Guild scheduled events: CRUD with the permission table of the docs (by entity type, on the event's channel), the
 * CREATE_EVENTS split (MANAGE_EVENTS grants it until 2026-02-23 by the server clock), status transitions, the
 * platform's status automation (external events start and end on time; events never started are cancelled), the
 * users who are interested, and recurrence exceptions. Changes publish GUILD_SCHEDULED_EVENT_*; events in a channel
 * reach only those who can view it.
 */

export const unknownEvent = () => new ApiError(404, 10070, 'Unknown Guild Scheduled Event');
const unknownException = () => new ApiError(404, 10070, 'Unknown Guild Scheduled Event Exception');
const finished = () => new ApiError(400, 180000, 'Cannot update a finished event');

export const EventStatus = { SCHEDULED: 1, ACTIVE: 2, COMPLETED: 3, CANCELED: 4 } as const;
export const EntityType = { STAGE_INSTANCE: 1, VOICE: 2, EXTERNAL: 3 } as const;
const MAX_UNCOMPLETED = 100;
/** An event never started is cancelled this long after its start time ("on the order of hours"; unverified value). */
export const AUTO_CANCEL_AFTER_MS = 3 * 3600_000;
const MAX_COVER_BYTES = 10 * 1024 * 1024;

const iso = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Could not parse the date.', params: { code: 'DATE_TYPE_PARSE' } });
const RecurrenceRule = z.object({
  start: iso,
  end: z.unknown().optional(),
  frequency: z.literal([0, 1, 2, 3]),
  interval: z.number().int().min(1).max(2).nullable().optional(),
  by_weekday: z
    .array(z.literal([0, 1, 2, 3, 4, 5, 6]))
    .max(7)
    .nullable()
    .optional(),
  by_n_weekday: z
    .array(z.object({ n: z.number().int().min(1).max(5), day: z.literal([0, 1, 2, 3, 4, 5, 6]) }))
    .max(1)
    .nullable()
    .optional(),
  by_month: z.array(z.number().int().min(1).max(12)).max(1).nullable().optional(),
  by_month_day: z.array(z.number().int().min(1).max(31)).max(1).nullable().optional(),
  by_year_day: z.unknown().optional(),
  count: z.unknown().optional(),
});
type RecurrenceInput = z.infer<typeof RecurrenceRule>;
const metadata = z.object({ location: z.string().min(1).max(100).optional() });

const CreateBody = z.object({
  name: z.string().min(1).max(100),
  description: z.string().max(1000).nullable().optional(),
  image: z.string().nullable().optional(),
  scheduled_start_time: iso,
  scheduled_end_time: iso.nullable().optional(),
  privacy_level: z.literal(2),
  entity_type: z.literal([1, 2, 3]),
  channel_id: snowflake.nullable().optional(),
  entity_metadata: metadata.nullable().optional(),
  recurrence_rule: RecurrenceRule.nullable().optional(),
});
const PatchBody = z.object({
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(1000).nullable().optional(),
  image: z.string().nullable().optional(),
  scheduled_start_time: iso.optional(),
  scheduled_end_time: iso.nullable().optional(),
  privacy_level: z.literal(2).optional(),
  entity_type: z.literal([1, 2, 3]).nullable().optional(),
  channel_id: snowflake.nullable().optional(),
  entity_metadata: metadata.nullable().optional(),
  status: z.literal([1, 2, 3, 4]).nullable().optional(),
  recurrence_rule: RecurrenceRule.nullable().optional(),
});
const UsersQuery = z.object({
  limit: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(1).max(100).optional()),
  with_member: z.preprocess((v) => (v === undefined ? undefined : ['true', 'True', '1'].includes(String(v))), z.boolean().optional()),
  before: snowflake.optional(),
  after: snowflake.optional(),
});
const ExceptionBody = z.object({
  original_scheduled_start_time: iso,
  scheduled_start_time: iso.nullable().optional(),
  scheduled_end_time: iso.nullable().optional(),
  is_canceled: z.boolean().nullable().optional(),
});
const ExceptionPatch = z.object({
  scheduled_start_time: iso.nullable().optional(),
  scheduled_end_time: iso.nullable().optional(),
  is_canceled: z.boolean().nullable().optional(),
});

/** Renders rows with creators, exceptions and (optionally) interested-user counts. */
async function render(ctx: Ctx, rows: EventRow[], withCounts: boolean) {
  if (!rows.length) return [];
  const ids = rows.map((r) => String(r.id));
  const [creators, exceptions, counts] = await Promise.all([
    getUsers(
      ctx,
      rows
        .map((r) => r.creator_id)
        .filter(Boolean)
        .map(String),
    ),
    ctx.repos.scheduledEvents.exceptionsOf(ids),
    withCounts ? ctx.repos.scheduledEvents.interestedCounts(ids) : Promise.resolve(new Map<string, number>()),
  ]);
  const countOf = counts;
  return rows.map((r) =>
    eventWire(r, {
      creator: r.creator_id ? creators.get(String(r.creator_id)) : null,
      exceptions: exceptions.filter((x) => String(x.event_id) === String(r.id)),
      ...(withCounts ? { userCount: countOf.get(String(r.id)) ?? 0 } : {}),
    }),
  );
}

const renderOne = async (ctx: Ctx, row: EventRow, withCounts = false) => (await render(ctx, [row], withCounts))[0];

function publish(ctx: Ctx, t: string, row: EventRow, d: unknown) {
  ctx.bus.publish({ t, d, guild_id: String(row.guild_id), channel_id: row.channel_id ? String(row.channel_id) : null });
}

/**
 * The platform's automation, applied when events are read (judged on the server clock): external events become ACTIVE
 * at their start and COMPLETED at their end; any event still SCHEDULED well after its start is CANCELED.
 */
async function automate(ctx: Ctx, rows: EventRow[]): Promise<EventRow[]> {
  const now = ctx.clock.now();
  const out: EventRow[] = [];
  for (const r of rows) {
    const status = num(r.status);
    const start = num(r.scheduled_start_time);
    const end = r.scheduled_end_time == null ? null : num(r.scheduled_end_time);
    let next = status;
    if (num(r.entity_type) === EntityType.EXTERNAL) {
      if (status === EventStatus.SCHEDULED && now >= start) next = EventStatus.ACTIVE;
      if (next === EventStatus.ACTIVE && end !== null && now >= end) next = EventStatus.COMPLETED;
    } else if (status === EventStatus.SCHEDULED && now >= start + AUTO_CANCEL_AFTER_MS) {
      next = EventStatus.CANCELED;
    }
    if (next === status) {
      out.push(r);
      continue;
    }
    const changed = await ctx.repos.scheduledEvents.changeStatus(String(r.id), status, next);
    const updated = { ...r, status: next };
    if (changed) publish(ctx, 'GUILD_SCHEDULED_EVENT_UPDATE', updated, await renderOne(ctx, updated));
    out.push(updated);
  }
  return out;
}

async function guildRows(ctx: Ctx, guildId: string): Promise<EventRow[]> {
  return automate(ctx, await ctx.repos.scheduledEvents.ofGuild(guildId));
}

/** Who may see an event: members; channel events also need VIEW_CHANNEL there. */
async function visibleTo(ctx: Ctx, guildId: string, userId: string, row: EventRow): Promise<boolean> {
  if (!row.channel_id) return true;
  const perms = await ctx.access.channelPerms(guildId, String(row.channel_id), userId);
  return perms !== null && (perms & P.VIEW_CHANNEL) !== 0n;
}

/** The guild's events as GUILD_CREATE carries them (viewer filtering is the gateway's channel rule). */
export async function guildEvents(ctx: Ctx, guildId: string, viewerId?: string) {
  if (!isId(guildId)) return [];
  let rows = (await guildRows(ctx, guildId)).filter((r) => num(r.status) <= EventStatus.ACTIVE);
  if (viewerId) {
    const keep: EventRow[] = [];
    for (const r of rows) if (await visibleTo(ctx, guildId, viewerId, r)) keep.push(r);
    rows = keep;
  }
  return render(ctx, rows, false);
}

/** Events by id for the audit log's references. */
export async function eventsByIds(ctx: Ctx, guildId: string, ids: string[]) {
  const rows = await ctx.repos.scheduledEvents.byIds(guildId, ids.filter(isId));
  return render(ctx, rows, false);
}

async function requireEvent(ctx: Ctx, guildId: string, eventId: string): Promise<EventRow> {
  checkId(eventId, unknownEvent);
  const row = await ctx.repos.scheduledEvents.byId(guildId, eventId);
  if (!row) throw unknownEvent();
  return (await automate(ctx, [row]))[0];
}

/** An event the caller can see (10070 otherwise). */
async function requireVisibleEvent(ctx: Ctx, actor: Actor, guildId: string, eventId: string): Promise<EventRow> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const row = await requireEvent(ctx, guildId, eventId);
  if (!(await visibleTo(ctx, guildId, actor.user.id, row))) throw unknownEvent();
  return row;
}

/** The channel-level permissions each entity type requires (docs "Guild Scheduled Event Permissions Requirements"). */
const CHANNEL_NEEDS: Record<number, bigint> = {
  [EntityType.STAGE_INSTANCE]: P.MANAGE_CHANNELS | P.MUTE_MEMBERS | P.MOVE_MEMBERS,
  [EntityType.VOICE]: P.VIEW_CHANNEL | P.CONNECT,
  [EntityType.EXTERNAL]: 0n,
};

/**
 * Checks the permissions for creating (`creatorId` null) or managing an event of this type in this channel: CREATE_EVENTS
 * to create; to manage, MANAGE_EVENTS, or CREATE_EVENTS for one's own event; plus the entity type's channel bits.
 */
async function requireEventPermissions(
  ctx: Ctx,
  actor: Actor,
  guildId: string,
  entityType: number,
  channelId: string | null,
  creatorId: string | null | 'new',
): Promise<void> {
  const perms = channelId ? await ctx.access.channelPerms(guildId, channelId, actor.user.id) : await ctx.access.guildPerms(guildId, actor.user.id);
  if (perms === null) throw Errors.missingAccess();
  const has = (bit: bigint) => ctx.access.hasPerm(perms, bit);
  if (creatorId === 'new') {
    if (!has(P.CREATE_EVENTS)) throw Errors.missingPermissions();
  } else if (!has(P.MANAGE_EVENTS) && !(creatorId === actor.user.id && has(P.CREATE_EVENTS))) {
    throw Errors.missingPermissions();
  }
  const needs = CHANNEL_NEEDS[entityType] ?? 0n;
  if (needs && (perms & needs) !== needs) throw Errors.missingPermissions();
}

/** A stage (type 13) or voice (type 2) channel of this guild for the entity type. */
async function checkChannel(ctx: Ctx, guildId: string, entityType: number, channelId: string | null | undefined): Promise<string | null> {
  if (entityType === EntityType.EXTERNAL) {
    if (channelId) throw fieldError('channel_id', 'GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED', 'External events cannot have a channel.');
    return null;
  }
  if (!channelId) throw fieldError('channel_id', 'BASE_TYPE_REQUIRED', 'This field is required');
  const ch = await getChannelRecord(ctx, channelId);
  const wanted = entityType === EntityType.STAGE_INSTANCE ? 13 : 2;
  if (!ch || ch.guild_id !== guildId || ch.type !== wanted) throw fieldError('channel_id', 'CHANNEL_INVALID', 'Invalid channel type for this entity type.');
  return ch.id;
}

/** The recurrence limits the docs list; fields the platform sets itself are refused. */
function checkRecurrence(r: RecurrenceInput | null | undefined, startMs: number): Record<string, unknown> | null {
  if (!r) return null;
  const bad = (key: string, message: string) => formError([{ path: ['recurrence_rule', key], code: 'GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID', message }]);
  for (const k of ['end', 'count', 'by_year_day'] as const) if (r[k] !== undefined && r[k] !== null) throw bad(k, 'This field cannot be set.');
  const interval = r.interval ?? 1;
  if (interval !== 1 && r.frequency !== 2) throw bad('interval', 'An interval other than 1 needs a weekly frequency.');
  const exclusive = [r.by_weekday?.length, r.by_n_weekday?.length, r.by_month?.length || r.by_month_day?.length].filter(Boolean).length;
  if (exclusive > 1) throw bad('by_weekday', 'by_weekday, by_n_weekday and by_month with by_month_day are mutually exclusive.');
  if (r.by_weekday?.length) {
    if (r.frequency !== 2 && r.frequency !== 3) throw bad('by_weekday', 'by_weekday needs a daily or weekly frequency.');
    if (r.frequency === 2 && r.by_weekday.length !== 1) throw bad('by_weekday', 'Weekly events recur on a single day.');
    if (r.frequency === 3) {
      const sets = ['0,1,2,3,4', '1,2,3,4,5', '6,0,1,2,3', '4,5', '5,6', '6,0'];
      if (!sets.includes(r.by_weekday.join(','))) throw bad('by_weekday', 'Daily events recur on a known set of weekdays.');
    }
  }
  if (r.by_n_weekday?.length && r.frequency !== 1) throw bad('by_n_weekday', 'by_n_weekday needs a monthly frequency.');
  if (r.by_month?.length || r.by_month_day?.length) {
    if (r.frequency !== 0) throw bad('by_month', 'by_month and by_month_day need a yearly frequency.');
    if (!r.by_month?.length || !r.by_month_day?.length) throw bad('by_month', 'by_month and by_month_day go together.');
  }
  void startMs;
  return {
    start: new Date(Date.parse(r.start)).toISOString(),
    frequency: r.frequency,
    interval,
    by_weekday: r.by_weekday ?? null,
    by_n_weekday: r.by_n_weekday ?? null,
    by_month: r.by_month ?? null,
    by_month_day: r.by_month_day ?? null,
  };
}

function checkTimes(ctx: Ctx, startMs: number, endMs: number | null, startChanged: boolean): void {
  if (startChanged && startMs < ctx.clock.now())
    throw fieldError('scheduled_start_time', 'GUILD_SCHEDULED_EVENT_SCHEDULE_PAST', 'Cannot schedule event in the past.');
  if (endMs !== null && endMs <= startMs)
    throw fieldError('scheduled_end_time', 'GUILD_SCHEDULED_EVENT_END_BEFORE_START', 'Cannot schedule event to end before starting.');
}

const auditView = (e: ReturnType<typeof eventWire>) => ({ ...e, location: e.entity_metadata?.location, image_hash: e.image });

export async function listEvents(ctx: Ctx, actor: Actor, guildId: string, withCounts: boolean) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const rows: EventRow[] = [];
  for (const r of await guildRows(ctx, guildId)) if (await visibleTo(ctx, guildId, actor.user.id, r)) rows.push(r);
  return render(ctx, rows, withCounts);
}

export async function getEvent(ctx: Ctx, actor: Actor, guildId: string, eventId: string, withCounts: boolean) {
  return renderOne(ctx, await requireVisibleEvent(ctx, actor, guildId, eventId), withCounts);
}

/** The cover to keep for an image field: a data URI's image, null to remove it, undefined to leave it as it is. */
function coverImage(image: string | null | undefined): EventCover | null | undefined {
  if (image === undefined || image === null) return image;
  const asset = imageFromDataUri(image, { field: 'image', allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_COVER_BYTES });
  return { contentType: asset.contentType, data: asset.data, hash: assetHash(asset.data) };
}

/** POST /guilds/{id}/scheduled-events. */
export async function createEvent(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const b = parseBody(CreateBody, body);
  const channelId = await checkChannel(ctx, guildId, b.entity_type, b.channel_id);
  await requireEventPermissions(ctx, actor, guildId, b.entity_type, channelId, 'new');
  const external = b.entity_type === EntityType.EXTERNAL;
  if (external && !b.entity_metadata?.location) throw fieldError(['entity_metadata', 'location'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (external && !b.scheduled_end_time) throw fieldError('scheduled_end_time', 'BASE_TYPE_REQUIRED', 'This field is required');
  const start = Date.parse(b.scheduled_start_time);
  const end = b.scheduled_end_time ? Date.parse(b.scheduled_end_time) : null;
  checkTimes(ctx, start, end, true);
  const recurrence = checkRecurrence(b.recurrence_rule, start);
  if (b.image) imageFromDataUri(b.image, { field: 'image', allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_COVER_BYTES });
  if ((await ctx.repos.scheduledEvents.countOpen(guildId)) >= MAX_UNCOMPLETED)
    throw new ApiError(400, 30038, 'Maximum number of uncompleted guild scheduled events reached (100)');

  const row: ScheduledEventRow = {
    id: ctx.ids.next(),
    guild_id: guildId,
    channel_id: channelId,
    creator_id: actor.user.id,
    name: b.name,
    description: b.description ?? null,
    scheduled_start_time: start,
    scheduled_end_time: end,
    privacy_level: 2,
    status: EventStatus.SCHEDULED,
    entity_type: b.entity_type,
    entity_id: null,
    entity_metadata: external ? JSON.stringify({ location: b.entity_metadata!.location }) : null,
    image: null,
    recurrence_rule: recurrence ? JSON.stringify(recurrence) : null,
    created_at: ctx.clock.now(),
  };
  const cover = coverImage(b.image || undefined) ?? null;
  row.image = cover ? cover.hash : null;
  await ctx.repos.scheduledEvents.create(row, cover, ctx.clock.now());
  const out = eventWire(row, { creator: actor.user });
  publish(ctx, 'GUILD_SCHEDULED_EVENT_CREATE', row, out);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_CREATE,
    targetId: row.id,
    changes: auditChanges('event', null, auditView(out)),
  });
  return out;
}

const TRANSITIONS: Record<number, number[]> = { 1: [2, 4], 2: [3], 3: [], 4: [] };

/** PATCH /guilds/{id}/scheduled-events/{event_id}: fields, entity type moves, and status transitions. */
export async function updateEvent(ctx: Ctx, actor: Actor, guildId: string, eventId: string, body: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  const creatorId = row.creator_id ? String(row.creator_id) : null;
  await requireEventPermissions(ctx, actor, guildId, num(row.entity_type), row.channel_id ? String(row.channel_id) : null, creatorId);
  const b = parseBody(PatchBody, body);
  const status = num(row.status);
  if (status === EventStatus.COMPLETED || status === EventStatus.CANCELED) throw finished();

  const entityType = b.entity_type ?? num(row.entity_type);
  const typeChanged = entityType !== num(row.entity_type);
  const external = entityType === EntityType.EXTERNAL;
  let channelId = row.channel_id ? String(row.channel_id) : null;
  if (typeChanged || b.channel_id !== undefined) {
    if (external && typeChanged && b.channel_id !== null)
      throw fieldError('channel_id', 'BASE_TYPE_REQUIRED', 'channel_id must be set to null for external events.');
    channelId = await checkChannel(ctx, guildId, entityType, external ? null : b.channel_id === undefined ? channelId : b.channel_id);
    if (channelId !== (row.channel_id ? String(row.channel_id) : null) || typeChanged) {
      await requireEventPermissions(ctx, actor, guildId, entityType, channelId, creatorId);
    }
  }
  let meta = parseJson<{ location?: string }>(row.entity_metadata, {});
  if (external) {
    if (b.entity_metadata !== undefined) meta = { location: b.entity_metadata?.location };
    if (!meta.location) throw fieldError(['entity_metadata', 'location'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const start = b.scheduled_start_time !== undefined ? Date.parse(b.scheduled_start_time) : num(row.scheduled_start_time);
  const end =
    b.scheduled_end_time !== undefined
      ? b.scheduled_end_time
        ? Date.parse(b.scheduled_end_time)
        : null
      : row.scheduled_end_time == null
        ? null
        : num(row.scheduled_end_time);
  if (external && end === null) throw fieldError('scheduled_end_time', 'BASE_TYPE_REQUIRED', 'This field is required');
  checkTimes(ctx, start, end, b.scheduled_start_time !== undefined && start !== num(row.scheduled_start_time));
  let nextStatus = status;
  if (b.status != null && b.status !== status) {
    if (!TRANSITIONS[status].includes(b.status)) throw fieldError('status', 'GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION', 'Invalid status transition.');
    nextStatus = b.status;
  }
  const recurrence = b.recurrence_rule !== undefined ? checkRecurrence(b.recurrence_rule, start) : undefined;
  if (b.image) imageFromDataUri(b.image, { field: 'image', allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_COVER_BYTES });

  const set: Record<string, unknown> = {
    name: b.name ?? row.name,
    description: b.description !== undefined ? b.description : row.description,
    scheduled_start_time: start,
    scheduled_end_time: end,
    entity_type: entityType,
    channel_id: channelId,
    status: nextStatus,
    entity_metadata: external ? JSON.stringify({ location: meta.location }) : null,
  };
  if (recurrence !== undefined) set.recurrence_rule = recurrence ? JSON.stringify(recurrence) : null;
  const cover = coverImage(b.image);
  if (cover !== undefined) set.image = cover ? cover.hash : null;
  // A changed recurrence drops the exceptions made for the old one.
  await ctx.repos.scheduledEvents.update(String(row.id), set as Partial<ScheduledEventRow>, cover, recurrence !== undefined, ctx.clock.now());
  const before = await renderOne(ctx, row);
  const next = { ...row, ...set } as EventRow;
  const out = await renderOne(ctx, next);
  // Listeners who could see the old channel learn it moved (they may not see the new one).
  publish(ctx, 'GUILD_SCHEDULED_EVENT_UPDATE', next, out);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_UPDATE,
    targetId: out.id,
    changes: auditChanges('event', auditView(before), auditView(out)),
  });
  return out;
}

export async function deleteEvent(ctx: Ctx, actor: Actor, guildId: string, eventId: string): Promise<void> {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  await requireEventPermissions(
    ctx,
    actor,
    guildId,
    num(row.entity_type),
    row.channel_id ? String(row.channel_id) : null,
    row.creator_id ? String(row.creator_id) : null,
  );
  const out = await renderOne(ctx, row);
  await ctx.repos.scheduledEvents.deleteMany([String(row.id)]);
  publish(ctx, 'GUILD_SCHEDULED_EVENT_DELETE', row, out);
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_DELETE,
    targetId: out.id,
    changes: auditChanges('event', auditView(out), null),
  });
}

/** Links a stage instance to its event and starts it (stage instances call this). */
export async function startStageEvent(ctx: Ctx, guildId: string, eventId: string, channelId: string, stageId: string): Promise<void> {
  const row = await ctx.repos.scheduledEvents.byId(guildId, eventId);
  if (!row || num(row.entity_type) !== EntityType.STAGE_INSTANCE || String(row.channel_id) !== channelId || num(row.status) !== EventStatus.SCHEDULED) return;
  await ctx.repos.scheduledEvents.setStatus(eventId, EventStatus.ACTIVE, stageId);
  const next = { ...row, status: EventStatus.ACTIVE, entity_id: stageId };
  publish(ctx, 'GUILD_SCHEDULED_EVENT_UPDATE', next, await renderOne(ctx, next));
}

/** Completes the event of a stage instance that ended. */
export async function endStageEvent(ctx: Ctx, guildId: string, eventId: string): Promise<void> {
  const row = await ctx.repos.scheduledEvents.byId(guildId, eventId);
  if (!row || num(row.status) !== EventStatus.ACTIVE) return;
  await ctx.repos.scheduledEvents.setStatus(eventId, EventStatus.COMPLETED);
  const next = { ...row, status: EventStatus.COMPLETED };
  publish(ctx, 'GUILD_SCHEDULED_EVENT_UPDATE', next, await renderOne(ctx, next));
}

/** A SCHEDULED stage event of this channel, for stage instance creation. */
export async function stageEventFor(ctx: Ctx, guildId: string, eventId: string, channelId: string): Promise<boolean> {
  if (!isId(eventId)) return false;
  const row = await ctx.repos.scheduledEvents.byId(guildId, eventId);
  return !!row && num(row.entity_type) === EntityType.STAGE_INSTANCE && String(row.channel_id) === channelId && num(row.status) <= EventStatus.ACTIVE;
}

// ---- interested users -------------------------------------------------------------------------------------------

async function usersOf(ctx: Ctx, guildId: string, eventId: string, exceptionId: string, query: unknown) {
  const q = parseBody(UsersQuery, query);
  const limit = q.limit ?? 100;
  if (q.before !== undefined && !isId(q.before)) return [];
  if (q.before === undefined && q.after !== undefined && !isId(q.after)) return [];
  const userIds = await ctx.repos.scheduledEvents.interestedPage(eventId, exceptionId, {
    before: q.before,
    after: q.before === undefined ? q.after : undefined,
    limit,
  });
  const users = await getUsers(ctx, userIds);
  const members = q.with_member && userIds.length ? await ctx.repos.members.someOf(guildId, userIds) : new Map();
  return userIds.flatMap((userId) => {
    const u = users.get(userId);
    if (!u) return [];
    const m = members.get(u.id);
    return [
      {
        guild_scheduled_event_id: eventId,
        ...(exceptionId !== '0' ? { guild_scheduled_event_exception_id: exceptionId } : {}),
        user_id: u.id,
        user: publicUser(u),
        // The spec's GuildMemberResponse carries `user` here too.
        ...(m ? { member: memberWire(m, u, { now: ctx.clock.now() }) } : {}),
        response: 1,
      },
    ];
  });
}

/** GET .../scheduled-events/{id}/users: ascending by user id, `before` wins over `after`. */
export async function listEventUsers(ctx: Ctx, actor: Actor, guildId: string, eventId: string, query: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  return usersOf(ctx, guildId, String(row.id), '0', query);
}

export async function listExceptionUsers(ctx: Ctx, actor: Actor, guildId: string, eventId: string, exceptionId: string, query: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  const x = await requireException(ctx, String(row.id), exceptionId);
  return usersOf(ctx, guildId, String(row.id), String(x.exception_id), query);
}

const CountsQuery = z.object({ guild_scheduled_event_exception_ids: z.union([snowflake, z.array(snowflake).max(10)]).optional() });

export async function countEventUsers(ctx: Ctx, actor: Actor, guildId: string, eventId: string, query: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  const q = parseBody(CountsQuery, query);
  const wanted = q.guild_scheduled_event_exception_ids === undefined ? [] : [q.guild_scheduled_event_exception_ids].flat().filter(isId);
  const byId = await ctx.repos.scheduledEvents.interestedCountsByException(String(row.id));
  return {
    guild_scheduled_event_count: byId.get('0') ?? 0,
    guild_scheduled_event_exception_counts: Object.fromEntries(wanted.map((x) => [x, byId.get(x) ?? 0])),
  };
}

/** PUT/DELETE .../scheduled-events/{id}/users/@me: a person marks themselves interested (official client route). */
export async function setInterested(ctx: Ctx, actor: Actor, guildId: string, eventId: string, interested: boolean, exceptionId = '0') {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  const eid = String(row.id);
  if (exceptionId !== '0') await requireException(ctx, eid, exceptionId);
  if (interested) {
    if (!(await ctx.repos.scheduledEvents.addInterested(eid, exceptionId, actor.user.id, ctx.clock.now()))) return;
  } else {
    if (!(await ctx.repos.scheduledEvents.removeInterested(eid, exceptionId, actor.user.id))) return;
  }
  const d = {
    guild_scheduled_event_id: eid,
    user_id: actor.user.id,
    guild_id: guildId,
    ...(exceptionId !== '0' ? { guild_scheduled_event_exception_id: exceptionId } : {}),
  };
  publish(ctx, interested ? 'GUILD_SCHEDULED_EVENT_USER_ADD' : 'GUILD_SCHEDULED_EVENT_USER_REMOVE', row, d);
}

/** Members leaving a guild stop being interested in its events. */
export async function forgetInterest(ctx: Ctx, guildId: string, userId: string): Promise<void> {
  await ctx.repos.scheduledEvents.forgetInterest(guildId, userId);
}

// ---- exceptions -------------------------------------------------------------------------------------------------

async function requireException(ctx: Ctx, eventId: string, exceptionId: string): Promise<ExceptionRow> {
  checkId(exceptionId, unknownException);
  const x = await ctx.repos.scheduledEvents.exception(eventId, exceptionId);
  if (!x) throw unknownException();
  return x;
}

const noChange = () => new ApiError(400, 180005, 'An exception must set is_canceled, scheduled_start_time or scheduled_end_time');

export async function createException(ctx: Ctx, actor: Actor, guildId: string, eventId: string, body: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  await requireEventPermissions(
    ctx,
    actor,
    guildId,
    num(row.entity_type),
    row.channel_id ? String(row.channel_id) : null,
    row.creator_id ? String(row.creator_id) : null,
  );
  const b = parseBody(ExceptionBody, body);
  if (!row.recurrence_rule) throw fieldError('original_scheduled_start_time', 'GUILD_SCHEDULED_EVENT_NOT_RECURRING', 'The event does not recur.');
  if (b.is_canceled == null && b.scheduled_start_time == null && b.scheduled_end_time == null) throw noChange();
  const original = Date.parse(b.original_scheduled_start_time);
  if (original < num(row.scheduled_start_time))
    throw fieldError('original_scheduled_start_time', 'GUILD_SCHEDULED_EVENT_EXCEPTION_INVALID', 'No occurrence starts at that time.');
  const x = {
    event_id: String(row.id),
    exception_id: snowflakeAt(original),
    scheduled_start_time: b.scheduled_start_time ? Date.parse(b.scheduled_start_time) : null,
    scheduled_end_time: b.scheduled_end_time ? Date.parse(b.scheduled_end_time) : null,
    is_canceled: b.is_canceled ? 1 : 0,
  };
  if (await ctx.repos.scheduledEvents.exception(x.event_id, x.exception_id))
    throw fieldError('original_scheduled_start_time', 'GUILD_SCHEDULED_EVENT_EXCEPTION_EXISTS', 'An exception already exists for this occurrence.');
  await ctx.repos.scheduledEvents.insertException(x);
  const out = exceptionWire(x);
  publish(ctx, 'GUILD_SCHEDULED_EVENT_EXCEPTION_CREATE', row, { ...out, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_EXCEPTION_CREATE,
    targetId: out.event_id,
    changes: auditChanges('exception', null, out),
  });
  return out;
}

export async function updateException(ctx: Ctx, actor: Actor, guildId: string, eventId: string, exceptionId: string, body: unknown) {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  await requireEventPermissions(
    ctx,
    actor,
    guildId,
    num(row.entity_type),
    row.channel_id ? String(row.channel_id) : null,
    row.creator_id ? String(row.creator_id) : null,
  );
  const x = await requireException(ctx, String(row.id), exceptionId);
  const b = parseBody(ExceptionPatch, body);
  const set: Record<string, unknown> = {};
  if (b.scheduled_start_time !== undefined) set.scheduled_start_time = b.scheduled_start_time ? Date.parse(b.scheduled_start_time) : null;
  if (b.scheduled_end_time !== undefined) set.scheduled_end_time = b.scheduled_end_time ? Date.parse(b.scheduled_end_time) : null;
  if (b.is_canceled != null) set.is_canceled = b.is_canceled ? 1 : 0;
  if (Object.keys(set).length) {
    await ctx.repos.scheduledEvents.updateException(String(row.id), String(x.exception_id), set as { is_canceled?: number });
  }
  const before = exceptionWire(x);
  const out = exceptionWire({ ...x, ...set } as ExceptionRow);
  publish(ctx, 'GUILD_SCHEDULED_EVENT_EXCEPTION_UPDATE', row, { ...out, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_EXCEPTION_UPDATE,
    targetId: out.event_id,
    changes: auditChanges('exception', before, out),
  });
  return out;
}

export async function deleteException(ctx: Ctx, actor: Actor, guildId: string, eventId: string, exceptionId: string): Promise<void> {
  const row = await requireVisibleEvent(ctx, actor, guildId, eventId);
  await requireEventPermissions(
    ctx,
    actor,
    guildId,
    num(row.entity_type),
    row.channel_id ? String(row.channel_id) : null,
    row.creator_id ? String(row.creator_id) : null,
  );
  const x = await requireException(ctx, String(row.id), exceptionId);
  await ctx.repos.scheduledEvents.deleteException(String(row.id), String(x.exception_id));
  const out = exceptionWire(x);
  publish(ctx, 'GUILD_SCHEDULED_EVENT_EXCEPTION_DELETE', row, { ...out, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.GUILD_SCHEDULED_EVENT_EXCEPTION_DELETE,
    targetId: out.event_id,
    changes: auditChanges('exception', out, null),
  });
}
