import { RpcErrorCode, RpcError } from './codes.js';
import { arr, bool, nullable, num, obj, required, str, validateArgs } from './schema.js';

/** Activity types SET_ACTIVITY accepts: Playing, Listening, Watching, Competing. */
export const RPC_ACTIVITY_TYPES = [0, 2, 3, 5];
/** status_display_type: which of name (0), state (1) or details (2) the member list shows. */
const STATUS_DISPLAY_TYPES = [0, 1, 2];

export const ActivityFlags = { INSTANCE: 1 << 0, JOIN: 1 << 1, PARTY_PRIVACY_FRIENDS: 1 << 6, PARTY_PRIVACY_VOICE_CHANNEL: 1 << 7 } as const;
const PARTY_PUBLIC = 1;

const text = () => str({ min: 2, max: 128 });
const url = () => str({ uri: true, min: 1, max: 256 });

/** The client's SET_ACTIVITY schema: limits and wording as the platform's client checks them. */
const SetActivityArgs = obj({
  pid: num({ min: 0 }),
  activity: nullable(
    obj({
      name: str({ min: 1, max: 128 }),
      state: text(),
      state_url: url(),
      details: text(),
      details_url: url(),
      timestamps: obj({ start: num({ min: 1 }), end: num({ min: 1 }) }),
      assets: obj({
        large_image: str({ min: 1, max: 300 }),
        large_text: text(),
        large_url: url(),
        small_image: str({ min: 1, max: 300 }),
        small_text: text(),
        small_url: url(),
        invite_cover_image: str({ min: 1, max: 300 }),
      }),
      party: obj({
        id: text(),
        size: arr(num({ min: 0 }), { length: 2 }),
        privacy: num({ valid: [0, 1] }),
      }),
      secrets: obj({ match: text(), join: text(), spectate: text() }),
      buttons: arr(obj({ label: required(str({ min: 1, max: 32 })), url: required(str({ uri: true, min: 1, max: 512 })) }), { min: 1, max: 2 }),
      instance: bool(),
      supported_platforms: arr(str({ min: 1, max: 32 }), { min: 1, max: 10 }),
      type: num({ valid: RPC_ACTIVITY_TYPES }),
      status_display_type: num({ valid: STATUS_DISPLAY_TYPES }),
    }),
  ),
});

export interface RichPresence {
  /** What goes to the Gateway (op 3): no secrets, buttons as labels, URLs in metadata. */
  presence: Record<string, unknown>;
  /** What SET_ACTIVITY answers and the local client keeps (secrets included, for Ask to Join). */
  echo: Record<string, unknown>;
  secrets: { join?: string; spectate?: string; match?: string } | null;
  party: { id?: string; size?: [number, number] } | null;
}

/**
 * Validates SET_ACTIVITY args and builds the activity. Returns null for a clear (`activity` absent or null).
 * Invalid shapes are 4000 with the schema's message; secrets that repeat, match the party id or come with buttons
 * are 5005, as on the platform's client.
 */
export function buildActivity(args: unknown, app: { id: string; name: string }, now: number): RichPresence | null {
  const r = validateArgs<{ pid?: number; activity?: Record<string, any> | null }>(SetActivityArgs, args);
  if (!r.ok) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, r.message);
  const a = r.value.activity;
  if (a == null) return null;

  const secrets = a.secrets ? pick(a.secrets, ['match', 'join', 'spectate']) : null;
  if (secrets) {
    const values = Object.values(secrets).filter(Boolean) as string[];
    if (a.party?.id && values.includes(a.party.id)) throw new RpcError(RpcErrorCode.INVALID_ACTIVITY_SECRET, 'secrets cannot match the party id');
    if (new Set(values).size < values.length) throw new RpcError(RpcErrorCode.INVALID_ACTIVITY_SECRET, 'secrets must be unique');
    if (a.buttons) throw new RpcError(RpcErrorCode.INVALID_ACTIVITY_SECRET, 'secrets cannot currently be sent with buttons');
  }

  let flags = 0;
  if (a.instance) flags |= ActivityFlags.INSTANCE;
  if (secrets?.join) flags |= ActivityFlags.JOIN;
  if (a.party?.privacy === PARTY_PUBLIC) flags |= ActivityFlags.PARTY_PRIVACY_FRIENDS | ActivityFlags.PARTY_PRIVACY_VOICE_CHANNEL;

  const presence: Record<string, unknown> = {
    name: a.name ?? app.name,
    type: a.type ?? 0,
    application_id: app.id,
    created_at: now,
    platform: 'desktop',
  };
  copy(presence, a, ['state', 'state_url', 'details', 'details_url', 'status_display_type', 'supported_platforms']);
  if (a.timestamps) presence.timestamps = toMillis(pick(a.timestamps, ['start', 'end']), now);
  if (a.assets) presence.assets = pick(a.assets, ['large_image', 'large_text', 'large_url', 'small_image', 'small_text', 'small_url', 'invite_cover_image']);
  const party = a.party ? (pick(a.party, ['id', 'size']) as RichPresence['party']) : null;
  if (party) presence.party = party;
  if (a.buttons) {
    presence.buttons = a.buttons.map((b: { label: string }) => b.label);
    presence.metadata = { button_urls: a.buttons.map((b: { url: string }) => b.url) };
  }
  if (flags) presence.flags = flags;
  const echo = { ...presence, ...(secrets ? { secrets } : {}) };
  return { presence, echo, secrets, party };
}

/** Timestamps given in seconds (clearly shorter than now in ms) are turned into milliseconds, as the client does. */
function toMillis(t: Record<string, number>, now: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(t)) out[k] = String(now).length - String(Math.trunc(v)).length > 2 ? Math.floor(v * 1000) : v;
  return out;
}

function pick<T extends Record<string, unknown>>(o: T, keys: string[]): Record<string, any> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function copy(to: Record<string, unknown>, from: Record<string, unknown>, keys: string[]) {
  for (const k of keys) if (from[k] !== undefined) to[k] = from[k];
}
