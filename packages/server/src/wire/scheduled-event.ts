import type { APIGuildScheduledEventRecurrenceRule } from 'discord-api-types/v10';
import type { UserRecord } from '../store/records.js';
import { bool, num, parseJson } from '../store/json.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordScheduledEvent, AccordScheduledEventException } from './extensions.js';

/** Guild scheduled events and their recurrence exceptions, from their rows. */

export interface EventRow {
  id: unknown;
  guild_id: unknown;
  channel_id: unknown;
  creator_id: unknown;
  name: string;
  description: string | null;
  scheduled_start_time: unknown;
  scheduled_end_time: unknown;
  privacy_level: unknown;
  status: unknown;
  entity_type: unknown;
  entity_id: unknown;
  entity_metadata: string | null;
  image: string | null;
  recurrence_rule: string | null;
  created_at: unknown;
}

export interface ExceptionRow {
  event_id: unknown;
  exception_id: unknown;
  scheduled_start_time: unknown;
  scheduled_end_time: unknown;
  is_canceled: unknown;
}

/** GuildScheduledEventEntityType.External (a type-only import gives no value). */
const EXTERNAL = 3;

const id = (v: unknown): string => String(v);
const idOrNull = (v: unknown): string | null => (v == null ? null : String(v));
const isoOf = (ms: unknown) => (ms == null ? null : new Date(Number(ms)).toISOString());

function recurrenceWire(r: Record<string, any> | null): APIGuildScheduledEventRecurrenceRule | null {
  if (!r) return null;
  return {
    start: r.start,
    end: null,
    frequency: r.frequency,
    interval: r.interval ?? 1,
    by_weekday: r.by_weekday ?? null,
    by_n_weekday: r.by_n_weekday ?? null,
    by_month: r.by_month ?? null,
    by_month_day: r.by_month_day ?? null,
    by_year_day: null,
    count: null,
  };
}

export const exceptionWire = (x: ExceptionRow): AccordScheduledEventException => ({
  event_id: id(x.event_id),
  event_exception_id: id(x.exception_id),
  scheduled_start_time: isoOf(x.scheduled_start_time),
  scheduled_end_time: isoOf(x.scheduled_end_time),
  is_canceled: bool(x.is_canceled),
});

/** The event object: typed as the base every entity type shares (the row's type decides which one it is). */
export function eventWire(r: EventRow, opts: { creator?: UserRecord | null; userCount?: number; exceptions?: ExceptionRow[] } = {}): AccordScheduledEvent {
  const external = num(r.entity_type) === EXTERNAL;
  return dropUndefined<AccordScheduledEvent>({
    id: id(r.id),
    guild_id: id(r.guild_id),
    channel_id: idOrNull(r.channel_id),
    creator_id: idOrNull(r.creator_id),
    name: r.name,
    description: r.description ?? null,
    image: r.image ?? null,
    scheduled_start_time: isoOf(r.scheduled_start_time) ?? '',
    scheduled_end_time: isoOf(r.scheduled_end_time),
    status: num(r.status),
    entity_type: num(r.entity_type),
    entity_id: idOrNull(r.entity_id),
    recurrence_rule: recurrenceWire(parseJson(r.recurrence_rule, null)),
    privacy_level: num(r.privacy_level),
    user_count: opts.userCount,
    guild_scheduled_event_exceptions: (opts.exceptions ?? []).map(exceptionWire),
    entity_metadata: external ? { location: parseJson<{ location?: string }>(r.entity_metadata, {}).location ?? '' } : null,
    creator: opts.creator ? publicUser(opts.creator) : undefined,
  });
}
