import { z } from 'zod';
import { parseBody } from '../../core/validation.js';
import { fieldError } from '../../core/errors.js';

/**
 * What a fault request may ask for (POST /__dev/faults): the kinds, their parameters, and the rule a kept fault
 * becomes. One-shot kinds act on the app's Gateway sessions at once; the others are rules consulted until deleted,
 * used up (`count`) or expired (`ttl_ms`, by the server clock).
 */

export const ONE_SHOT_KINDS = ['gateway.close', 'gateway.reconnect', 'gateway.invalid_session'] as const;
export const RULE_KINDS = ['gateway.dispatch', 'http', 'webhook_events', 'interactions_endpoint', 'voice'] as const;
export type OneShotKind = (typeof ONE_SHOT_KINDS)[number];
export type RuleKind = (typeof RULE_KINDS)[number];
export type FaultKind = OneShotKind | RuleKind;

/** Close codes a session may be closed with: the platform's 4000–4014, and the standard ones clients meet (1006: no close frame). */
const CLOSE_CODES = new Set([1000, 1001, 1006, 1011, 1012, 1013, 1014, ...Array.from({ length: 15 }, (_, i) => 4000 + i)]);

const Common = z.object({
  application_id: z.string().regex(/^\d{1,20}$/),
  kind: z.enum([...ONE_SHOT_KINDS, ...RULE_KINDS]),
  count: z.number().int().min(1).max(1_000_000).optional(),
  ttl_ms: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400_000)
    .optional(),
});

const Delivery = z.object({
  status: z.number().int().min(300).max(599).optional(),
  delay_ms: z.number().int().min(0).max(600_000).optional(),
  timeout: z.boolean().optional(),
});

const PARAMS = {
  'gateway.close': z.object({
    close_code: z
      .number()
      .int()
      .refine((c) => CLOSE_CODES.has(c), 'Close code must be 4000-4014, 1000, 1001, 1006 or 1011-1014.')
      .default(4000),
  }),
  'gateway.reconnect': z.object({}),
  'gateway.invalid_session': z.object({ resumable: z.boolean().default(false) }),
  'gateway.dispatch': z.object({
    delay_ms: z.number().int().min(0).max(600_000).optional(),
    drop: z.boolean().optional(),
    events: z
      .array(z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/))
      .min(1)
      .max(100)
      .optional(),
  }),
  http: z.object({
    route: z.string().min(2).max(200).optional(),
    bucket: z.string().min(1).max(100).optional(),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    retry_after: z.number().min(0).max(86_400).optional(),
    global: z.boolean().optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
  }),
  webhook_events: Delivery,
  interactions_endpoint: Delivery,
  voice: z.object({ loss: z.number().min(0).max(1).optional(), jitter_ms: z.number().int().min(0).max(10_000).optional() }),
} satisfies Record<FaultKind, z.ZodType>;

export type Params<K extends FaultKind> = z.infer<(typeof PARAMS)[K]>;
export type DispatchParams = Params<'gateway.dispatch'>;
export type HttpParams = Params<'http'>;
export type DeliveryParams = Params<'webhook_events'>;
export type VoiceParams = Params<'voice'>;

export interface FaultRequest {
  application_id: string;
  kind: FaultKind;
  count: number | null;
  ttl_ms: number | null;
  params: Record<string, unknown>;
}

/** What makes a rule do something: a rule that would change nothing is refused, naming the field to give. */
const NEEDS: Partial<Record<FaultKind, [string, (p: any) => boolean, string]>> = {
  'gateway.dispatch': ['drop', (p) => p.drop === true || (p.delay_ms ?? 0) > 0, 'Give drop: true or a delay_ms above 0.'],
  http: ['status', (p) => p.status !== undefined || (p.latency_ms ?? 0) > 0, 'Give a status or a latency_ms above 0.'],
  webhook_events: [
    'status',
    (p) => p.status !== undefined || p.timeout === true || (p.delay_ms ?? 0) > 0,
    'Give a status, timeout: true or a delay_ms above 0.',
  ],
  interactions_endpoint: [
    'status',
    (p) => p.status !== undefined || p.timeout === true || (p.delay_ms ?? 0) > 0,
    'Give a status, timeout: true or a delay_ms above 0.',
  ],
  voice: ['loss', (p) => (p.loss ?? 0) > 0 || (p.jitter_ms ?? 0) > 0, 'Give a loss or a jitter_ms above 0.'],
};

/** Reads a POST body; bad input throws the platform's 50035 with field errors. */
export function parseFaultRequest(body: unknown): FaultRequest {
  const common = parseBody(Common.passthrough(), body ?? {});
  const { application_id, kind, count, ttl_ms, ...rest } = common;
  const params = parseBody(PARAMS[kind] as z.ZodType<Record<string, unknown>>, rest);
  const need = NEEDS[kind];
  if (need && !need[1](params)) throw fieldError([need[0]], 'BASE_TYPE_REQUIRED', need[2]);
  // Voice faults act on packets in the media threads, which count nothing back: only a ttl ends them.
  if (kind === 'voice' && count !== undefined) throw fieldError(['count'], 'BASE_TYPE_CHOICES', 'Voice faults end by ttl_ms or deletion, not by count.');
  return { application_id, kind, count: count ?? null, ttl_ms: ttl_ms ?? null, params };
}

export const isOneShot = (kind: FaultKind): kind is OneShotKind => (ONE_SHOT_KINDS as readonly string[]).includes(kind);

/** A kept fault: its wire form and what the hooks need. Plain data, so it can cross the bus to other nodes. */
export interface Rule {
  id: string;
  application_id: string;
  kind: RuleKind;
  params: Record<string, unknown>;
  /** Uses left; null: unlimited. */
  remaining: number | null;
  /** Server-clock ms; null: never. */
  expires_at: number | null;
  /** The app's bot user (voice faults act on its voice sessions); null for an app without a bot. */
  bot_user_id: string | null;
}

/** The rule as the dev API shows it. */
export function ruleView(r: Rule): Record<string, unknown> {
  return {
    id: r.id,
    application_id: r.application_id,
    kind: r.kind,
    ...r.params,
    remaining: r.remaining,
    expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
  };
}
