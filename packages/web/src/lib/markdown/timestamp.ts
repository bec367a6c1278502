/** `<t:unix:style>` rendered as the official client does, in the reader's locale and time zone. */
export function formatTimestamp(unixSeconds: number, style = 'f', now = Date.now()): string {
  const d = new Date(unixSeconds * 1000);
  if (Number.isNaN(d.getTime())) return 'Invalid Date';
  const fmt = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, o).format(d);
  switch (style) {
    case 't':
      return fmt({ hour: 'numeric', minute: '2-digit' });
    case 'T':
      return fmt({ hour: 'numeric', minute: '2-digit', second: '2-digit' });
    case 'd':
      return fmt({ year: 'numeric', month: '2-digit', day: '2-digit' });
    case 'D':
      return fmt({ year: 'numeric', month: 'long', day: 'numeric' });
    case 'F':
      return fmt({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    case 'R':
      return relative(d.getTime(), now);
    default:
      return fmt({ year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' });
  }
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400e3],
  ['month', 30 * 86400e3],
  ['day', 86400e3],
  ['hour', 3600e3],
  ['minute', 60e3],
  ['second', 1e3],
];

export function relative(ms: number, now = Date.now()): string {
  const diff = ms - now;
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size || unit === 'second') return rtf.format(Math.round(diff / size), unit);
  }
  return '';
}

/**
 * Formatters made once: `toLocale…String` builds a new Intl formatter at every call, which costs milliseconds
 * when a scrolling list renders dozens of messages per frame.
 */
const fmt = {
  time: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }),
  date: new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit' }),
  full: new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' }),
};

/** "3:04 PM" */
export const shortTime = (iso: string) => fmt.time.format(new Date(iso));
/** "Tuesday, November 24, 2026 at 3:04 PM" (tooltips) */
export const fullTime = (iso: string) => fmt.full.format(new Date(iso));

/** The message header's time: "Today at 3:04 PM", "Yesterday at …", or a date. */
export function messageTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const time = fmt.time.format(d);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86400e3);
  if (days === 0) return `Today at ${time}`;
  if (days === 1) return `Yesterday at ${time}`;
  return `${fmt.date.format(d)} ${time}`;
}

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
