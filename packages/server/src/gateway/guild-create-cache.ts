import type { Ctx } from '../services/context.js';
import type { BusEvent } from '../bus/bus.js';

/**
 * Serialized GUILD_CREATE bodies, shared by the sessions that see a guild the same way (gateway/payloads.ts builds
 * them and says what a view is). A session's frame then holds a small head of its own plus a reference to the shared
 * body instead of a copy of it.
 *
 * An entry lives until any event of its guild is dispatched (the dispatcher calls `onEvent` before delivering the
 * event, so a session that got an older body also gets the event), until this node stops following the guild
 * (`forget`: it would miss other nodes' events), and at most TTL_MS: a change that publishes no guild event (a
 * member renaming their account, seen only in the full member lists of small guilds) shows within that time.
 */
const TTL_MS = 5000;

interface Entry {
  json: string;
  /** The body lists members' presences (small guilds), so a PRESENCE_UPDATE makes it stale. */
  presences: boolean;
  at: number;
}

export class GuildCreateCache {
  /** Bodies serialized so far (a miss builds one): tests and benchmarks read it. */
  builds = 0;
  private readonly byGuild = new Map<string, Map<string, Entry>>();
  private readonly generation = new Map<string, number>();

  /** A body for this view, or undefined. */
  get(guildId: string, view: string): string | undefined {
    const e = this.byGuild.get(guildId)?.get(view);
    if (!e) return undefined;
    if (performance.now() - e.at <= TTL_MS) return e.json;
    this.byGuild.get(guildId)!.delete(view);
    return undefined;
  }

  /** The guild's generation, read before building: a body built across an invalidation is not kept. */
  gen(guildId: string): number {
    return this.generation.get(guildId) ?? 0;
  }

  set(guildId: string, view: string, json: string, presences: boolean, gen: number): void {
    this.builds++;
    if (gen !== this.gen(guildId)) return;
    let m = this.byGuild.get(guildId);
    if (!m) this.byGuild.set(guildId, (m = new Map()));
    for (const [k, e] of m) if (performance.now() - e.at > TTL_MS) m.delete(k);
    m.set(view, { json, presences, at: performance.now() });
  }

  /** A dispatched event: its guild's bodies may be stale now. */
  onEvent(e: BusEvent): void {
    if (e.t === 'USER_UPDATE') return this.clear(); // a name or avatar in some member list
    if (!e.guild_id || e.t === 'TYPING_START') return; // changes nothing a GUILD_CREATE carries
    if (e.t === 'PRESENCE_UPDATE') {
      // Only bodies listing presences (small guilds) change; the others keep serving the join storm that sent it.
      const m = this.byGuild.get(e.guild_id);
      if (m) for (const [k, entry] of m) if (entry.presences) m.delete(k);
      return;
    }
    this.forget(e.guild_id);
  }

  /** Drops a guild's bodies (an event of it, or this node no longer follows its events). */
  forget(guildId: string): void {
    this.byGuild.delete(guildId);
    this.generation.set(guildId, this.gen(guildId) + 1);
  }

  clear(): void {
    for (const id of this.byGuild.keys()) this.forget(id);
  }
}

const caches = new WeakMap<Ctx, GuildCreateCache>();

/** The cache of a server (one per context, so servers sharing a process never share bodies). */
export function guildCreateCache(ctx: Ctx): GuildCreateCache {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = new GuildCreateCache()));
  return c;
}
