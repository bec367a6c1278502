import { LOCAL_SCOPE } from './scopes.js';
import type { RichPresence } from './activity.js';

/** How a connection reaches the app: framed IPC or WebSocket text messages. */
export interface RpcTransport {
  readonly kind: 'ipc' | 'websocket';
  /** Sends one RPC payload (an IPC FRAME, or one WebSocket message). */
  send(payload: unknown): void;
  /** Ends the connection with a close code and message (IPC CLOSE frame, WebSocket close). */
  close(code: number, message: string): void;
}

export interface AppInfo {
  id: string;
  name: string;
  icon: string | null;
  description: string;
  rpc_origins: string[];
}

export interface Subscription {
  evt: string;
  /** The guild or channel it is about, if any. */
  target: string | null;
}

let nextId = 1;

/** One app connected to the local client: who it is, what it may do, and what it listens to. */
export class RpcSocket {
  readonly id = nextId++;
  readonly scopes = new Set<string>();
  readonly subscriptions = new Map<string, Subscription>();
  activity: RichPresence | null = null;
  activitySetAt = 0;
  /** The access token AUTHENTICATE accepted, kept to call the platform as the app when needed. */
  accessToken: string | null = null;
  closed = false;

  constructor(
    readonly transport: RpcTransport,
    readonly app: AppInfo,
    readonly origin: string | null,
  ) {
    // Connections without an Origin (native apps on IPC, or WebSocket without the header) get the local scope.
    if (origin === null) this.scopes.add(LOCAL_SCOPE);
  }

  send(payload: unknown): void {
    if (!this.closed) this.transport.send(payload);
  }

  reply(cmd: string, nonce: string | null, data: unknown, evt: string | null = null): void {
    this.send({ cmd, data, evt, nonce });
  }

  error(cmd: string, nonce: string | null, code: number, message: string): void {
    this.send({ cmd, data: { code, message }, evt: 'ERROR', nonce });
  }

  dispatch(evt: string, data: unknown): void {
    this.send({ cmd: 'DISPATCH', data, evt, nonce: null });
  }

  subscribed(evt: string, target: string | null = null): boolean {
    return this.subscriptions.has(subscriptionKey(evt, target));
  }
}

export const subscriptionKey = (evt: string, target: string | null) => `${evt}:${target ?? ''}`;
