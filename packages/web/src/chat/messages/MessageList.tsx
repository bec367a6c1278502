import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { Channel } from '../../lib/api/types.js';
import { loadOlder, openChannel } from '../../lib/state/actions.js';
import { useSession, useStore } from '../../lib/session.js';
import { ErrorState, Icon, Spinner } from '../../lib/ui/index.js';
import { LocalEcho } from './LocalEcho.js';
import { MessageItem } from './MessageItem.js';
import { buildRows, type Row } from './rows.js';
import { useReadMarker } from '../read-states/use-read-marker.js';
import { UnreadDivider } from '../read-states/UnreadDivider.js';

/**
 * The channel's history, virtualized: only the rows near the viewport exist in the DOM, so 10,000 messages
 * scroll like 50. The list is anchored at its end (new messages keep you at the bottom when you were there, and
 * loading older pages keeps what you were reading in place). Scrolling near the top loads the previous page.
 */
export function MessageList({
  channel,
  onReply,
  onEdit,
  editingId,
}: {
  channel: Channel;
  onReply: (id: string) => void;
  onEdit: (id: string | null) => void;
  editingId: string | null;
}) {
  const { api, store } = useSession();
  const data = useStore((s) => s.messages.get(channel.id));
  const local = useStore((s) => s.local.get(channel.id));
  const scrollRef = useRef<HTMLDivElement>(null);
  useEffect(() => void openChannel(api, store, channel.id), [channel.id]);

  const unreadAfter = useReadMarker(channel, scrollRef, !!data && !data.loading);
  const rows = useMemo<Row[]>(() => (data ? buildRows(data.items, local, data.hasMore, data.loading, unreadAfter) : []), [data, local, unreadAfter]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'message' && rows[i].grouped ? 26 : rows[i]?.kind === 'day' ? 40 : 64),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 48,
    paddingEnd: 16,
  });

  // The first page opens at the bottom; rows measure themselves over the next frames, so follow them down.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || !data || data.loading || !rows.length || !scrollRef.current) return;
    opened.current = true;
    let frames = 0;
    const settle = () => {
      virtualizer.scrollToEnd();
      if (++frames < 12) requestAnimationFrame(settle);
    };
    settle();
  }, [data, rows.length]);

  const items = virtualizer.getVirtualItems();
  // Near the top with more history on the server: fetch the previous page.
  useEffect(() => {
    if (!opened.current || !data?.hasMore || data.loading) return;
    if (items.length && items[0].index <= 3) void loadOlder(api, store, channel.id);
  }, [items[0]?.index, data?.hasMore, data?.loading]);

  if (!data || (data.loading && !data.items.length))
    return (
      <div className="messages messages--center">
        <Spinner />
      </div>
    );
  if (data.error && !data.items.length)
    return <ErrorState title="Could not load messages" message={data.error} onRetry={() => void openChannel(api, store, channel.id)} />;

  return (
    <div className="messages" ref={scrollRef} role="log" aria-label={`Messages in ${channel.name ?? 'this conversation'}`} data-testid="message-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((vi) => {
          const row = rows[vi.index];
          return (
            <div
              key={vi.key}
              data-index={vi.index}
              ref={virtualizer.measureElement}
              className={row.kind === 'message' && !row.grouped ? 'messages__row messages__row--head' : 'messages__row'}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${vi.start}px)` }}
            >
              {renderRow(row, channel, onReply, onEdit, editingId)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function renderRow(row: Row, channel: Channel, onReply: (id: string) => void, onEdit: (id: string | null) => void, editingId: string | null) {
  switch (row.kind) {
    case 'loading':
      return (
        <div className="messages__loading">
          <Spinner small /> Loading older messages…
        </div>
      );
    case 'start':
      return <ChannelStart channel={channel} />;
    case 'day':
      return (
        <div className="divider" role="separator">
          <span>{row.label}</span>
        </div>
      );
    case 'local':
      return <LocalEcho local={row.local} />;
    case 'unread':
      return <UnreadDivider />;
    case 'message':
      return (
        <MessageItem message={row.message} grouped={row.grouped} channel={channel} onReply={onReply} onEdit={onEdit} editing={editingId === row.message.id} />
      );
  }
}

function ChannelStart({ channel }: { channel: Channel }) {
  const dm = channel.type === 1 || channel.type === 3;
  const thread = channel.type >= 10 && channel.type <= 12;
  return (
    <div className="start">
      <div className="start__icon" aria-hidden>
        {/* The thread's own icon, not an emoji: a system without an emoji font shows a blank box */}
        {dm ? '@' : thread ? <Icon name="thread" size={36} /> : '#'}
      </div>
      <h2 className="start__title">{dm ? (channel.name ?? 'Direct message') : thread ? channel.name : `Welcome to #${channel.name}!`}</h2>
      <p className="muted">
        {dm
          ? 'This is the beginning of your direct message history.'
          : thread
            ? 'This is the start of the thread.'
            : `This is the start of the #${channel.name} channel.`}
      </p>
    </div>
  );
}
