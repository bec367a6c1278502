import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Channel } from '../../lib/api/types.js';
import { ackChannel, isUnread } from '../../lib/state/read-states.js';
import { compareIds } from '../../lib/state/snowflake.js';
import { useSession, useStore } from '../../lib/session.js';

/** Near enough to the end of the list to have seen the newest message. */
const BOTTOM_PX = 48;

const atBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_PX;

/**
 * The open channel's read state: acks it while the newest message is in view (at the bottom of the list, the tab
 * visible), and returns where the "new messages" divider goes: after the message read last when the channel opened
 * unread, or when messages arrived unseen (the tab hidden or the list scrolled up). Null when there is none.
 */
export function useReadMarker(channel: Channel, scrollRef: RefObject<HTMLDivElement | null>, loaded: boolean): string | null {
  const { api, store } = useSession();
  const rs = useStore((s) => s.readStates.get(channel.id));
  const [marker, setMarker] = useState<string | null>(() => (isUnread(channel, rs) ? (rs?.lastMessageId ?? '0') : null));
  const acked = useRef<string | null>(null);
  // Whether the list was at its end at the last scroll: a message just appended makes it look scrolled up until the
  // list follows it down, and must still count as seen.
  const pinned = useRef(false);
  const last = channel.last_message_id ?? null;

  useEffect(() => {
    const el = scrollRef.current;
    if (!loaded || !el || !last) return;
    const check = () => {
      const bottom = pinned.current || atBottom(el);
      const read = store.state.readStates.get(channel.id);
      const behind = !read?.lastMessageId || compareIds(read.lastMessageId, last) < 0;
      if (!behind || acked.current === last) return;
      if (document.visibilityState !== 'visible' || !bottom) {
        const newest = store.state.messages.get(channel.id)?.items.at(-1);
        const mine = newest?.id === last && newest.author.id === store.state.me?.id;
        if (read && !mine && isUnread(channel, read)) setMarker((m) => m ?? read.lastMessageId ?? '0');
        return;
      }
      acked.current = last;
      void ackChannel(api, store, { ...channel, last_message_id: last }).catch(() => {
        acked.current = null; // tried again on the next scroll or message
      });
    };
    const onScroll = () => {
      pinned.current = atBottom(el);
      check();
    };
    check();
    el.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('visibilitychange', check);
    return () => {
      el.removeEventListener('scroll', onScroll);
      document.removeEventListener('visibilitychange', check);
    };
  }, [channel.id, last, loaded, rs]);

  return marker;
}
