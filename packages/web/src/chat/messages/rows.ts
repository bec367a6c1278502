import type { Message } from '../../lib/api/types.js';
import type { LocalMessage } from '../../lib/state/store.js';
import { compareIds } from '../../lib/state/snowflake.js';

/** The list's rows: day dividers, messages (grouped under one header when close together) and local echoes. */
export type Row =
  | { kind: 'start'; key: string }
  | { kind: 'loading'; key: string }
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: Message; grouped: boolean }
  | { kind: 'local'; key: string; local: LocalMessage }
  | { kind: 'unread'; key: string };

const GROUP_MS = 7 * 60_000;
/** Types shown as normal messages (default, reply, slash-command and context-menu responses). */
const NORMAL = new Set([0, 19, 20, 23]);

/** Formatting a date is slow (Intl): only the day boundaries are formatted, once each. */
const labels = new Map<number, string>();
function dayLabel(d: Date, key: number): string {
  let l = labels.get(key);
  if (!l) labels.set(key, (l = d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })));
  return l;
}

/** `unreadAfter`: the "new messages" divider goes before the first message after this id (chat/read-states). */
export function buildRows(items: Message[], local: LocalMessage[] | undefined, hasMore: boolean, loading: boolean, unreadAfter: string | null = null): Row[] {
  const rows: Row[] = [];
  rows.push(hasMore || loading ? { kind: 'loading', key: 'loading' } : { kind: 'start', key: 'start' });
  let prev: Message | null = null;
  let prevDay = -1;
  let divided = unreadAfter === null;
  for (const m of items) {
    const at = new Date(m.timestamp);
    const day = at.getFullYear() * 10000 + at.getMonth() * 100 + at.getDate();
    if (day !== prevDay) {
      rows.push({ kind: 'day', key: `day-${m.id}`, label: dayLabel(at, day) });
      prevDay = day;
      prev = null;
    }
    if (!divided && compareIds(m.id, unreadAfter!) > 0) {
      rows.push({ kind: 'unread', key: 'unread' });
      divided = true;
    }
    const grouped =
      !!prev &&
      prev.author.id === m.author.id &&
      NORMAL.has(m.type) &&
      NORMAL.has(prev.type) &&
      m.type !== 19 &&
      m.type !== 20 &&
      m.type !== 23 &&
      !m.interaction_metadata &&
      at.getTime() - new Date(prev.timestamp).getTime() < GROUP_MS &&
      (prev.flags ?? 0) === (m.flags ?? 0);
    rows.push({ kind: 'message', key: m.id, message: m, grouped });
    prev = m;
  }
  for (const l of local ?? []) rows.push({ kind: 'local', key: `local-${l.nonce}`, local: l });
  return rows;
}
