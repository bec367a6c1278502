import type { Ctx } from '../services/context.js';
import type { BusEvent } from '../bus/bus.js';
import { intentFor, P } from '@accord/protocol';
import type { Session } from './session.js';
import type { PresenceState as Presences } from './presence.js';
import { serializedGuildCreate } from './payloads.js';
import { guildCreateCache } from './guild-create-cache.js';
import { presenceRecipients } from './presence-fanout.js';
import { blankMessage, messageView } from './views.js';
import { afterEvent, channelEventView, isObfuscatable, obfuscateChannel } from './obfuscation.js';

/** Which shard a guild belongs to: (guild_id >> 22) % num_shards. */
export function shardOf(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/**
 * Turns bus events into per-session dispatches: recipients by guild membership or explicit users, then shard,
 * intent and channel visibility filters, then one serialization per distinct view. Events are handled strictly in
 * order so every session sees them in publish order.
 */
export class Dispatcher {
  readonly byUser = new Map<string, Set<Session>>();
  readonly byGuild = new Map<string, Set<Session>>();
  private queue: Promise<void> = Promise.resolve();
  /** Distributed mode: the number of the last bus event whose recipients were chosen. */
  private processedG = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly presences: Presences,
  ) {}

  enqueue(e: BusEvent): void {
    if (e.t.startsWith('__')) return;
    this.queue = this.queue.then(() => this.dispatch(e)).catch((err) => console.error('[gateway] dispatch failed', e.t, err));
  }

  /** GUILD_CREATE for each of a new session's guilds, queued behind events already published. */
  enqueueGuildCreates(s: Session): void {
    const ids = [...s.guildIds];
    this.queue = this.queue.then(() => this.guildCreate(ids, s)).catch((err) => console.error('[gateway] guild create failed', err));
  }

  /** Resolves when every event published so far has been dispatched (tests, benchmarks). */
  idle(): Promise<void> {
    return this.queue;
  }

  add(s: Session): void {
    // Events this node already handed out went to the sessions attached then: this one starts after them, or its
    // rebuild elsewhere would send it frames it never had.
    s.lastG = Math.max(s.lastG, this.processedG);
    if (index(this.byUser, s.userId, s)) void this.ctx.bus.watch(`user:${s.userId}`);
    for (const g of s.guildIds) this.indexGuild(g, s);
  }

  remove(s: Session): void {
    if (unindex(this.byUser, s.userId, s)) this.ctx.bus.unwatch(`user:${s.userId}`);
    for (const g of s.guildIds) this.unindexGuild(g, s);
  }

  /**
   * Watches the topics of a session about to identify, and resolves once other nodes' events on them flow; the
   * returned function lets go (after `add`, which holds them for as long as the session lives).
   */
  async hold(userId: string, guildIds: Iterable<string>): Promise<() => void> {
    const topics = [`user:${userId}` as const, ...[...guildIds].map((g) => `guild:${g}` as const)];
    await Promise.all(topics.map((t) => this.ctx.bus.watch(t)));
    let held = true;
    return () => {
      if (held) for (const t of topics) this.ctx.bus.unwatch(t);
      held = false;
    };
  }

  /** A node listens to a guild's events from other nodes while one of its sessions is in the guild. */
  private indexGuild(guildId: string, s: Session): void {
    if (index(this.byGuild, guildId, s)) void this.ctx.bus.watch(`guild:${guildId}`);
  }

  private unindexGuild(guildId: string, s: Session): void {
    if (!unindex(this.byGuild, guildId, s)) return;
    this.ctx.bus.unwatch(`guild:${guildId}`);
    guildCreateCache(this.ctx).forget(guildId); // other nodes' events of it stop coming: its bodies could go stale
  }

  private async dispatch(e: BusEvent): Promise<void> {
    if (e.g !== undefined) this.processedG = e.g; // its targets are chosen now: a session attached later never gets it
    guildCreateCache(this.ctx).onEvent(e); // before any delivery: a session given an older GUILD_CREATE gets this event
    if (e.user_ids)
      return this.deliver(
        e,
        e.user_ids.flatMap((u) => [...(this.byUser.get(u) ?? [])]),
      );
    if (e.guild_id) return this.deliver(e, [...(this.byGuild.get(e.guild_id) ?? [])]);
  }

  /** Whether an event is for a session: its users', or its guild's while the session is in the guild. */
  static targets(e: BusEvent, s: Session): boolean {
    return e.user_ids ? e.user_ids.includes(s.userId) : !!e.guild_id && s.guildIds.has(e.guild_id);
  }

  /**
   * An event to the sessions it targets: live, or to one session rebuilt from the bus's streams on another node. In
   * distributed mode a session takes each event once, in the bus's order, and remembers how far it got (`lastG`):
   * after the event's frames for it are sent, so a frame sent outside the bus while this ran is placed before it.
   */
  async deliver(e: BusEvent, targets: Session[], rebuilding = false): Promise<void> {
    const g = e.g;
    if (g !== undefined) targets = targets.filter((s) => g > s.lastG);
    const guildId = e.guild_id ?? null;
    // No session of this node takes it (another worker's or node's guild): nothing to read or check.
    if (!targets.length && !rebuilding && !(guildId && this.byGuild.get(guildId)?.size)) return;
    if (e.t === 'GUILD_CREATE' && guildId) {
      for (const s of targets) {
        await this.guildCreate([guildId], s, true);
        if (g !== undefined) s.lastG = g;
      }
      return;
    }
    if (e.t === 'GUILD_DELETE' && guildId) {
      for (const s of targets) {
        s.guildIds.delete(guildId);
        this.unindexGuild(guildId, s);
      }
    }

    const views = new Map<string, string>();
    const obfuscatable = isObfuscatable(e);
    const shown = new Map<Session, boolean>(); // the event's channel, in full or not, as each session was sent it
    // A channel's event: every recipient's permissions from one read of the guild, not one wait per session.
    const permsIn = guildId && e.channel_id && !e.user_ids && !obfuscatable ? await this.ctx.access.channelPermsOf(guildId, e.channel_id) : null;
    const needed = intentFor(e.t, !!guildId);
    const wantsPresence = await presenceRecipients(this.ctx, e); // large guilds: people get the presences they follow
    for (const s of targets) {
      try {
        if (s.dead || (e.session_id && s.id !== e.session_id)) continue;
        if (e.humans_only && s.isBot) continue;
        if (wantsPresence && !wantsPresence(s)) continue;
        if (s.isBot && !this.routed(s, guildId)) continue;
        const selfMemberUpdate = e.t === 'GUILD_MEMBER_UPDATE' && e.d?.user?.id === s.userId;
        if (s.isBot && needed && !(s.intents & needed) && !selfMemberUpdate) continue;
        let hidden = false;
        if (obfuscatable) {
          // Channel events: bots that obfuscate get channels they cannot view obfuscated instead of not at all.
          const v = await channelEventView(this.ctx, s, e);
          if (v === 'skip') continue;
          hidden = v === 'obfuscated';
          shown.set(s, !hidden);
        } else if (permsIn) {
          const perms = permsIn(s.userId);
          if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
        }
        if (guildId && e.permission && !(await this.hasGuildPermission(guildId, s.userId, BigInt(e.permission)))) continue;
        if (
          guildId &&
          e.channel_id &&
          e.channel_permission &&
          !(await this.hasChannelPermission(guildId, e.channel_id, s.userId, BigInt(e.channel_permission)))
        )
          continue;
        const view = hidden ? 'obfuscated' : messageView(e.t, e.d, s);
        let json = views.get(view);
        if (json === undefined) {
          json = JSON.stringify(view === 'obfuscated' ? obfuscateChannel(e.d) : view === 'blank' ? blankMessage(e.d) : e.d);
          views.set(view, json);
        }
        s.dispatch(e.t, json, true);
      } finally {
        if (g !== undefined) s.lastG = g;
      }
    }
    // A bot that gained (or lost) access to channels gets CHANNEL_UPDATE with full (or obfuscated) data.
    if (guildId) await afterEvent(this.ctx, e, rebuilding ? targets : (this.byGuild.get(guildId) ?? []), shown);
  }

  /** Runs `task` in the dispatch order: events published after it was queued wait for it (a session's rebuild). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async hasGuildPermission(guildId: string, userId: string, needed: bigint): Promise<boolean> {
    const perms = await this.ctx.access.guildPerms(guildId, userId);
    return perms !== null && this.ctx.access.hasPerm(perms, needed);
  }

  private async hasChannelPermission(guildId: string, channelId: string, userId: string, needed: bigint): Promise<boolean> {
    const perms = await this.ctx.access.channelPerms(guildId, channelId, userId);
    return perms !== null && this.ctx.access.hasPerm(perms, needed);
  }

  /** Guild events go to the session whose shard owns the guild; the rest to shard 0. */
  private routed(s: Session, guildId: string | null): boolean {
    const [id, count] = s.shard;
    if (count <= 1) return true;
    return guildId ? shardOf(guildId, count) === id : id === 0;
  }

  private async guildCreate(guildIds: string[], s: Session, fromBus = false): Promise<void> {
    for (const guildId of guildIds) {
      if (s.dead || (s.isBot && !this.routed(s, guildId))) continue;
      s.guildIds.add(guildId);
      this.indexGuild(guildId, s);
      // A guild just joined: other nodes' events of it flow before its GUILD_CREATE is read, so none after it is missed.
      const topic = `guild:${guildId}` as const;
      await this.ctx.bus.watch(topic);
      this.ctx.bus.unwatch(topic);
      if (s.isBot && !(s.intents & 1)) continue;
      const json = await this.guildCreateJson(s, guildId);
      if (json) s.dispatch('GUILD_CREATE', json, fromBus, { guildCreate: guildId });
    }
  }

  /** A session's GUILD_CREATE payload for a guild as of now, null when the guild is gone. */
  async guildCreateJson(s: Session, guildId: string): Promise<string | null> {
    // Shared bodies only while this node follows the guild's events (a rebuild may run before its session is indexed).
    return serializedGuildCreate(this.ctx, s, guildId, this.presences, this.byGuild.has(guildId));
  }
}

/** Adds a session under a key; true when the key is new. */
function index(map: Map<string, Set<Session>>, key: string, s: Session): boolean {
  let set = map.get(key);
  const added = !set;
  if (!set) map.set(key, (set = new Set()));
  set.add(s);
  return added;
}

/** Removes a session from under a key; true when that emptied the key. */
function unindex(map: Map<string, Set<Session>>, key: string, s: Session): boolean {
  const set = map.get(key);
  if (!set || !set.delete(s)) return false;
  if (set.size) return false;
  map.delete(key);
  return true;
}
