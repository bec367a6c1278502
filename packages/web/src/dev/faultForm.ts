/**
 * The faults form's model: which fields each kind asks for, and the request body built from what was typed. Field
 * values are the inputs' strings; empty ones are left out, numbers are read as numbers, checkboxes as 'true' / ''.
 */

export interface FaultField {
  name: string;
  label: string;
  type: 'number' | 'text' | 'checkbox' | 'select';
  options?: string[];
  placeholder?: string;
}

const num = (name: string, label: string, placeholder?: string): FaultField => ({ name, label, type: 'number', placeholder });
const delivery: FaultField[] = [
  num('status', 'Answer status', 'e.g. 500'),
  { name: 'timeout', label: 'Never answer (time out)', type: 'checkbox' },
  num('delay_ms', 'Delay (ms)'),
];

export const FAULT_KINDS: { kind: string; label: string; oneShot?: boolean; fields: FaultField[] }[] = [
  {
    kind: 'gateway.close',
    label: 'Gateway: close the sessions',
    oneShot: true,
    fields: [{ name: 'close_code', label: 'Close code', type: 'select', options: ['4000', '4009', '4004', '1000', '1001', '1006', '1011'] }],
  },
  { kind: 'gateway.reconnect', label: 'Gateway: send RECONNECT', oneShot: true, fields: [] },
  {
    kind: 'gateway.invalid_session',
    label: 'Gateway: send INVALID_SESSION',
    oneShot: true,
    fields: [{ name: 'resumable', label: 'Resumable', type: 'checkbox' }],
  },
  {
    kind: 'gateway.dispatch',
    label: 'Gateway: drop or delay events',
    fields: [
      { name: 'drop', label: 'Drop', type: 'checkbox' },
      num('delay_ms', 'Delay (ms)'),
      { name: 'events', label: 'Only these events', type: 'text', placeholder: 'MESSAGE_CREATE, …' },
    ],
  },
  {
    kind: 'http',
    label: 'HTTP: fail or slow requests',
    fields: [
      { name: 'route', label: 'Route', type: 'text', placeholder: 'any, or e.g. POST /channels/:channel_id/messages' },
      { name: 'status', label: 'Status', type: 'select', options: ['', '429', '500', '502', '503', '504'] },
      num('retry_after', 'Retry after (s, 429)'),
      { name: 'global', label: 'Global 429', type: 'checkbox' },
      num('latency_ms', 'Added latency (ms)'),
    ],
  },
  { kind: 'webhook_events', label: 'Webhook events: endpoint fails', fields: delivery },
  { kind: 'interactions_endpoint', label: 'Interactions endpoint fails', fields: delivery },
  { kind: 'voice', label: 'Voice: packet loss and jitter', fields: [num('loss', 'Loss (0–1)', '0.2'), num('jitter_ms', 'Jitter (ms)')] },
];

/** The POST /__dev/faults body for a kind from the typed values; `count` and `ttl_s` apply to rules only. */
export function faultBody(applicationId: string, kind: string, values: Record<string, string>): Record<string, unknown> {
  const spec = FAULT_KINDS.find((k) => k.kind === kind);
  const body: Record<string, unknown> = { application_id: applicationId, kind };
  for (const f of spec?.fields ?? []) {
    const v = (values[f.name] ?? '').trim();
    if (!v) continue;
    if (f.type === 'checkbox') body[f.name] = true;
    else if (f.name === 'events')
      body.events = v
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((e) => e.toUpperCase());
    else if (f.type === 'number' || (f.type === 'select' && /^\d+$/.test(v))) body[f.name] = Number(v);
    else body[f.name] = v;
  }
  if (!spec?.oneShot) {
    if (values.count?.trim()) body.count = Number(values.count);
    if (values.ttl_s?.trim()) body.ttl_ms = Math.round(Number(values.ttl_s) * 1000);
  }
  return body;
}

const SHOWN = new Set(['id', 'application_id', 'kind', 'remaining', 'expires_at', 'sessions']);

/** One line about a rule: its kind and parameters, and what is left of it. */
export function describeFault(f: Record<string, unknown>): string {
  const params = Object.entries(f)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : String(v)}`);
  const left = [
    f.remaining != null ? `${f.remaining} left` : '',
    f.expires_at ? `until ${new Date(String(f.expires_at)).toLocaleTimeString(undefined, { hour12: false })}` : '',
  ].filter(Boolean);
  return [f.kind, ...params, ...(left.length ? [`(${left.join(', ')})`] : [])].join(' ');
}
