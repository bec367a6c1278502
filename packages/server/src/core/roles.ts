/**
 * Node roles (`accord start --role`): which parts of the platform one process runs. `all` runs every part, as a
 * single server does; the others split a distributed deployment (PostgreSQL + Redis) across processes or machines.
 */
export const ROLES = ['all', 'api', 'gateway', 'voice', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/**
 * - `http`: the HTTP API, CDN, web client, dev routes and Activity proxy (the place changes are made, so also the
 *   side effects that must run once where a change is made).
 * - `gateway`: the Gateway WebSocket.
 * - `voice`: the voice gateway and UDP media.
 * - `background`: the webhook-events outbox, the subscription lifecycle, the poll clock and the lobby idle clock.
 */
export type Part = 'http' | 'gateway' | 'voice' | 'background';

const PARTS: Record<Role, readonly Part[]> = {
  all: ['http', 'gateway', 'voice', 'background'],
  api: ['http'],
  gateway: ['gateway'],
  voice: ['voice'],
  worker: ['background'],
};

export const hasPart = (role: Role, part: Part): boolean => PARTS[role].includes(part);

export function parseRole(v: string): Role {
  const r = v.trim().toLowerCase();
  if (!(ROLES as readonly string[]).includes(r)) throw new Error(`--role: ${v} is not one of ${ROLES.join(', ')}`);
  return r as Role;
}
