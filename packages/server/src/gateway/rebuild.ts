import type { StoredEvent } from '../bus/redis.js';
import { Dispatcher } from './dispatcher.js';
import { subscribePresences } from './presence-fanout.js';
import type { Session } from './session.js';
import { checkpointFor, type RedisSessionStore, type StoredSession } from './session-store.js';

/**
 * Rebuilds, on this node, a session another node served: from the newest checkpoint the client can resume from, the
 * bus events stored in its guilds' and user's streams go through the same delivery code as live ones, in the bus's
 * order, and the recorded direct frames are put back in their places, so the session gets the same frames with the
 * same seqs. False when that cannot be done (events no longer kept, or the frames do not line up): the client must
 * identify again. Runs inside the dispatcher's order, with the session's topics already watched.
 */
export async function rebuildSession(dispatcher: Dispatcher, store: RedisSessionStore, s: Session, stored: StoredSession, clientSeq: number): Promise<boolean> {
  const base = checkpointFor(stored, clientSeq);
  if (!base) return false;
  s.seq = base.seq;
  s.lastG = base.g;
  for (const g of base.guilds) s.guildIds.add(g);
  for (const f of base.follows ?? []) subscribePresences(s, f.guildId, f.users);

  const pending: StoredEvent[] = [];
  const loaded = new Set<string>();
  const load = async (topic: `guild:${string}` | `user:${string}`, after: number, from: number): Promise<boolean> => {
    if (loaded.has(topic)) return true;
    loaded.add(topic);
    const events = await store.eventsAfter(topic, after);
    if (!events) return false;
    const seen = new Set(pending.slice(from).map((p) => p.g));
    const rest = pending.splice(from).concat(events.filter((e) => !seen.has(e.g)));
    pending.push(...rest.sort((a, b) => a.g - b.g));
    return true;
  };
  if (!(await load(`user:${s.userId}`, base.g, 0))) return false;
  for (const g of base.guilds) if (!(await load(`guild:${g}`, base.g, 0))) return false;

  const direct = stored.direct.filter((f) => f.seq > base.seq).sort((a, b) => a.seq - b.seq);
  let di = 0;
  let pi = 0;
  while (pi < pending.length || di < direct.length) {
    const ev = pending[pi];
    const frame = direct[di];
    if (frame && (!ev || frame.g < ev.g)) {
      if (frame.follows) subscribePresences(s, frame.follows.guildId, frame.follows.users);
      // A GUILD_CREATE is built again as of now (a guild deleted since is sent unavailable, as the platform does).
      const d = frame.guild ? ((await dispatcher.guildCreateJson(s, frame.guild)) ?? JSON.stringify({ id: frame.guild, unavailable: true })) : frame.d;
      if (!s.restore(frame.seq, frame.t, d)) return false;
      di++;
      continue;
    }
    pi++;
    if (!Dispatcher.targets(ev.e, s)) continue;
    const before = new Set(s.guildIds);
    await dispatcher.deliver({ ...ev.e, g: ev.g }, [s], true);
    // A guild joined on the way: its later events count too.
    for (const g of s.guildIds) if (!before.has(g) && !(await load(`guild:${g}`, ev.g, pi))) return false;
  }
  return true;
}
