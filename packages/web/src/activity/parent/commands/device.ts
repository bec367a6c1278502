import { RpcError, RpcErrorCode, invalidPayload } from '../protocol.js';
import { str, type Handler } from '../session.js';
import { requireScopes } from '../session.js';

/** The frame and the device: configuration, locale, links out, logs, orientation, images and the proxy ticket. */

export const setConfig: Handler = async (_s, args) => {
  if (typeof args.use_interactive_pip !== 'boolean') throw invalidPayload('use_interactive_pip must be a boolean');
  return { use_interactive_pip: args.use_interactive_pip };
};

export const getLocale: Handler = async (s) => {
  requireScopes(s, 'identify');
  return { locale: s.host.locale() };
};

export const encourageHardwareAcceleration: Handler = async () => ({ enabled: true });

export const getPlatformBehaviors: Handler = async () => ({});

/** Opens a web page outside the client once the person confirms; `opened: false` when they stay. */
export const openExternalLink: Handler = async (s, args) => {
  const url = str(args, 'url', { max: 2048 })!;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidPayload('url');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalidPayload('url must be http or https');
  if (!(await s.host.ui.confirmExternalLink(parsed.toString()))) return { opened: false };
  s.host.openUrl(parsed.toString());
  return { opened: true };
};

const LEVELS = new Set(['log', 'warn', 'debug', 'info', 'error']);
/** At most this many log lines per window reach the client's console; the rest are answered and dropped. */
const LOG_BURST = 200;
const LOG_WINDOW_MS = 10_000;
const logBudget = new WeakMap<object, { start: number; count: number }>();

export const captureLog: Handler = async (s, args) => {
  const level = str(args, 'level')!;
  if (!LEVELS.has(level)) throw invalidPayload('level');
  const message = str(args, 'message')!;
  const now = Date.now();
  let b = logBudget.get(s);
  if (!b || now - b.start > LOG_WINDOW_MS) logBudget.set(s, (b = { start: now, count: 0 }));
  if (++b.count <= LOG_BURST) s.host.log(level, message.slice(0, 4000));
  return null;
};

const LOCK_STATES = new Set([1, 2, 3]);

export const setOrientationLockState: Handler = async (s, args) => {
  const lock = args.lock_state;
  const pip = args.picture_in_picture_lock_state;
  const grid = args.grid_lock_state;
  const ok = (v: unknown, optional: boolean) => (optional && (v === undefined || v === null)) || LOCK_STATES.has(v as number);
  if (!ok(lock, false) || !ok(pip, true) || !ok(grid, true)) throw invalidPayload('lock states are 1 (unlocked), 2 (portrait) or 3 (landscape)');
  s.host.lockOrientation({ lock_state: lock as number, picture_in_picture_lock_state: (pip as number) ?? null, grid_lock_state: (grid as number) ?? null });
  return null;
};

const MAX_IMAGE = 8 * 1024 * 1024;

/**
 * The person picks an image; the frame gets it as a `data:` URL (its CSP allows data: images and fetches), so the
 * upload needs no message in any channel.
 */
export const initiateImageUpload: Handler = async (s) => {
  const file = await s.host.ui.pickImage();
  if (!file) throw new RpcError(RpcErrorCode.UNKNOWN, 'The image picker was closed');
  if (!file.type.startsWith('image/')) throw invalidPayload('the file is not an image');
  if (file.size > MAX_IMAGE) throw invalidPayload('the image is larger than 8 MiB');
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { image_url: `data:${file.type};base64,${btoa(bin)}` };
};

export const requestProxyTicketRefresh: Handler = async (s) => {
  try {
    return { ticket: await s.host.refreshProxyTicket() };
  } catch {
    throw new RpcError(RpcErrorCode.UNKNOWN, 'No proxy ticket could be issued');
  }
};

/** Commands of the SDK's list that this client has nothing behind: always the SDK's error shape, never silence. */
export const unsupported =
  (what: string): Handler =>
  async () => {
    throw new RpcError(RpcErrorCode.INVALID_COMMAND, `${what} is not supported by this client`);
  };
