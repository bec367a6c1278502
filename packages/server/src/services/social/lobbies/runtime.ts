import { isUnavailable } from '../../../core/errors.js';
import type { Ctx } from '../../context.js';
import { channelGone, destroyLobby } from './lobbies.js';
import { bridgeCreate, bridgeDelete, bridgeUpdate } from './messages.js';
import { lobbyMembers } from './model.js';
import { leaveLobbyVoice } from './voice.js';

/**
 * What runs beside the lobby routes:
 *
 * - the idle clock: a lobby goes away (LOBBY_DELETE, reason "deleted") once its `idle_deadline` passes on the server
 *   clock while none of its members has a Gateway session. Activity in the lobby (create, join, member changes,
 *   edits, messages, linking) pushes the deadline out by `idle_timeout_seconds`; so does a sweep that finds a member
 *   connected, so a lobby lives until it has been idle — no activity and nobody connected — for its timeout. Sweeps
 *   run every second and whenever the dev clock moves (`__CLOCK_MOVED`).
 * - the channel bridge: MESSAGE_CREATE / UPDATE / DELETE(_BULK) in a linked guild channel reach the lobby, and
 *   CHANNEL_DELETE of a linked channel unlinks it. Linked channels are kept in memory (loaded at start, then followed
 *   through `__LOBBY_LINK` bus events), so ordinary channel traffic costs a map lookup.
 *
 * `isOnline` says whether a user has a Gateway session (this process's sessions). `idleClock: false` runs only the
 * bridge (an API node: the bridge must run where messages are posted, the clock on worker nodes).
 */
export function startLobbies(ctx: Ctx, isOnline: (userId: string) => boolean = () => false, everyMs = 1000, idleClock = true): () => void {
  const linked = new Map<string, string>(); // channel id → lobby id
  let stopped = false;
  let queue: Promise<void> = Promise.resolve();
  const run = (what: string, fn: () => Promise<void>) => {
    if (stopped) return;
    queue = queue.then(fn).catch((err) => {
      if (!stopped && !isUnavailable(err)) console.error(`[lobbies] ${what} failed`, err); // an outage is reported once
    });
  };

  const sweep = () =>
    idleClock &&
    run('idle sweep', async () => {
      const now = ctx.clock.now();
      const due = await ctx.repos.lobbies.idleDue(now, 200);
      for (const lobby of due) {
        if (stopped) return;
        const members = await lobbyMembers(ctx, lobby.id);
        if (members.some((m) => isOnline(m.user_id))) {
          await ctx.repos.lobbies.setIdleDeadline(lobby.id, now + lobby.idle_timeout_seconds * 1000);
        } else {
          await destroyLobby(ctx, lobby);
        }
      }
    });

  const unsubscribe = ctx.bus.subscribe((e) => {
    switch (e.t) {
      case '__CLOCK_MOVED':
        sweep();
        break;
      case '__LOBBY_LINK': {
        const { lobby_id, channel_id, previous } = e.d ?? {};
        if (typeof previous === 'string' && linked.get(previous) === lobby_id) linked.delete(previous);
        if (typeof channel_id === 'string') linked.set(channel_id, String(lobby_id));
        break;
      }
      case 'MESSAGE_CREATE': {
        const lobbyId = linked.get(String(e.d?.channel_id));
        if (lobbyId) run('bridge create', () => bridgeCreate(ctx, lobbyId, String(e.d.id)));
        break;
      }
      case 'MESSAGE_UPDATE':
        if (linked.has(String(e.d?.channel_id))) run('bridge update', () => bridgeUpdate(ctx, String(e.d.id)));
        break;
      case 'MESSAGE_DELETE':
        if (linked.has(String(e.d?.channel_id))) run('bridge delete', () => bridgeDelete(ctx, String(e.d.id)));
        break;
      case 'MESSAGE_DELETE_BULK':
        if (linked.has(String(e.d?.channel_id)) && Array.isArray(e.d.ids)) {
          const ids = e.d.ids.map(String);
          run('bridge delete', async () => {
            for (const mid of ids) await bridgeDelete(ctx, mid);
          });
        }
        break;
      case 'LOBBY_DELETE': {
        // Removed from the lobby, or the lobby went away: its calls end for those users.
        const lobbyId = String(e.d?.id);
        for (const userId of e.user_ids ?? []) run('lobby voice leave', () => leaveLobbyVoice(ctx, lobbyId, userId));
        break;
      }
      case 'CHANNEL_DELETE':
        if (linked.has(String(e.d?.id))) run('unlink', () => channelGone(ctx, String(e.d.id)));
        break;
      case 'GUILD_DELETE':
        // A deleted guild takes its channels without a CHANNEL_DELETE each (GUILD_DELETE also tells a member who left).
        if (e.d?.id && !e.d.unavailable) run('unlink', () => guildGone(String(e.d.id)));
        break;
    }
  });

  /** Unlinks the lobbies linked to channels of a guild that no longer exists. */
  async function guildGone(guildId: string): Promise<void> {
    if (await ctx.repos.guilds.byId(guildId)) return;
    const rows = await ctx.repos.lobbies.linkedInGuild(guildId);
    for (const r of rows) {
      if (r.linked_channel_id == null) continue;
      linked.delete(r.linked_channel_id);
      await channelGone(ctx, r.linked_channel_id);
    }
  }

  run('load links', async () => {
    const rows = await ctx.repos.lobbies.allLinks();
    for (const r of rows) if (!linked.has(r.channel_id)) linked.set(r.channel_id, r.id);
  });
  sweep();
  const timer = idleClock ? setInterval(sweep, everyMs) : undefined;
  timer?.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
  };
}
