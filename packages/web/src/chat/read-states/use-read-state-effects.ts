import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { isVoice, type Channel } from '../../lib/api/types.js';
import { onDispatch } from '../../lib/state/dispatch-taps.js';
import { isUnread, mentionsMe, totalMentions } from '../../lib/state/read-states.js';
import { compareIds } from '../../lib/state/snowflake.js';
import type { State } from '../../lib/state/store.js';
import { useSession, useStore } from '../../lib/session.js';
import { displayName } from '../../lib/ui/index.js';
import { channelTree } from '../sidebar/channel-tree.js';

const TITLE = 'Accord';

/**
 * What read states do outside the lists: the unread mention count in the page title, a browser notification for a
 * mention or a DM while the tab is hidden, and Alt+Up/Down between channels (with Shift, between unread ones).
 */
export function useReadStateEffects(): void {
  const { store } = useSession();
  const nav = useNavigate();
  const readStates = useStore((s) => s.readStates);
  const guilds = useStore((s) => s.guilds);
  const privateChannels = useStore((s) => s.privateChannels);
  const count = totalMentions({ readStates, guilds, privateChannels });

  useEffect(() => {
    document.title = count ? `(${count}) ${TITLE}` : TITLE;
  }, [count]);
  useEffect(() => () => void (document.title = TITLE), []);

  useEffect(() => {
    // Permission can only be asked on a gesture: the first click anywhere in the app asks once.
    const ask = () => {
      if ('Notification' in window && Notification.permission === 'default') void Notification.requestPermission();
    };
    document.addEventListener('pointerdown', ask, { once: true });
    const off = onDispatch((t, d) => {
      if (t !== 'MESSAGE_CREATE' || document.visibilityState !== 'hidden' || !mentionsMe(store.state, d)) return;
      if (!('Notification' in window) || Notification.permission !== 'granted') return;
      const where = d.guild_id ? `#${store.state.guilds.get(d.guild_id)?.channels.get(d.channel_id)?.name ?? 'channel'}` : null;
      const n = new Notification(where ? `${displayName(d.author)} (${where})` : displayName(d.author), {
        body: String(d.content ?? '').slice(0, 200) || 'Sent an attachment',
        tag: d.channel_id,
      });
      n.onclick = () => {
        window.focus();
        nav(`/channels/${d.guild_id ?? '@me'}/${d.channel_id}`);
        n.close();
      };
    });
    return () => {
      off();
      document.removeEventListener('pointerdown', ask);
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
      // Read from the URL at key time: a key pressed right after a navigation comes before the render that follows it.
      const where = /^\/channels\/([^/]+)(?:\/([^/]+))?/.exec(window.location.pathname);
      if (!where) return;
      const [, guildId, channelId] = where;
      const list = navigable(store.state, guildId);
      const at = channelId ? list.findIndex((c) => c.id === channelId) : -1;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      for (let i = 1; i <= list.length; i++) {
        const next = list[(((at + step * i) % list.length) + list.length) % list.length];
        if (!next || next.id === channelId) continue;
        if (e.shiftKey && !isUnread(next, store.state.readStates.get(next.id))) continue;
        e.preventDefault();
        nav(`/channels/${guildId}/${next.id}`);
        return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The channels Alt+Up/Down walks, in sidebar order: a guild's text channels and threads, or the DMs newest first. */
function navigable(state: State, guildId: string): Channel[] {
  if (guildId === '@me') return [...state.privateChannels.values()].sort((a, b) => compareIds(b.last_message_id ?? b.id, a.last_message_id ?? a.id));
  const g = state.guilds.get(guildId);
  if (!g) return [];
  return channelTree(g).flatMap(({ channels }) => channels.flatMap(({ channel, threads }) => (isVoice(channel.type) ? [] : [channel, ...threads])));
}
