import type { ActivityHost } from './host.js';
import { RpcError, RpcErrorCode, invalidPayload, notAuthenticated, type CommandFrame } from './protocol.js';

/** One frame's state while it runs: who it is, what AUTHENTICATE granted, what it subscribed to. */
export interface Session {
  host: ActivityHost;
  clientId: string;
  /** Set by AUTHENTICATE: the access token and its scopes. */
  auth: { accessToken: string; scopes: string[] } | null;
  /** Subscribed events and their arguments. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** Sends a dispatch if the frame subscribed to the event. */
  dispatch(evt: string, data: unknown): void;
}

export type Handler = (s: Session, args: Record<string, unknown>, frame: CommandFrame) => Promise<unknown>;

/** 4006 unless AUTHENTICATE granted every one of these scopes. */
export function requireScopes(s: Session, ...scopes: string[]): void {
  if (!s.auth || !scopes.every((x) => s.auth!.scopes.includes(x))) throw notAuthenticated();
}

export function str(args: Record<string, unknown>, key: string, opts: { max?: number; optional?: boolean } = {}): string | undefined {
  const v = args[key];
  if (v === undefined || v === null) {
    if (opts.optional) return undefined;
    throw invalidPayload(`${key} is required`);
  }
  if (typeof v !== 'string' || (opts.max !== undefined && v.length > opts.max))
    throw invalidPayload(`${key} must be a string${opts.max ? ` of at most ${opts.max} characters` : ''}`);
  return v;
}

export const isSnowflake = (v: unknown): v is string => typeof v === 'string' && /^\d{1,20}$/.test(v);

/** An API failure as the SDK's error: unknown channel/guild/user get their RPC codes, the rest a generic one. */
export function fromApi(err: unknown, fallback: number = RpcErrorCode.UNKNOWN): RpcError {
  if (err instanceof RpcError) return err;
  const e = err as { status?: number; code?: number; message?: string };
  return new RpcError(fallback, e?.message ? `${e.message}${e.code ? ` (${e.code})` : ''}` : 'The request failed');
}
