import type { APIUser } from '../lib/api/types.js';
import type { Store } from '../lib/state/store.js';

/** A user the client already knows (the store's users, or a guild member); null when it has never seen them. */
export function knownUser(store: Store, id: string): APIUser | null {
  const s = store.state;
  if (s.me?.id === id) return s.me;
  const u = s.users.get(id);
  if (u) return u;
  for (const g of s.guilds.values()) {
    const m = g.members.get(id);
    if (m?.user) return m.user;
  }
  return null;
}
