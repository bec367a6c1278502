import type { ReactNode } from 'react';
import type { Message } from '../../lib/api/types.js';
import { messageTime } from '../../lib/markdown/timestamp.js';
import { displayName, Icon } from '../../lib/ui/index.js';

/** Message types other than text: joins, pins, thread creation, poll results. */
const SYSTEM = new Set([1, 2, 3, 4, 5, 6, 7, 8, 18, 46]);
export const isSystem = (m: Message) => SYSTEM.has(m.type);

/** " that lasted 3 minutes" once a DM call has ended (`call.ended_timestamp`), nothing while it runs. */
function callLength(m: Message): string {
  const end = m.call?.ended_timestamp;
  if (!end) return '';
  const minutes = Math.max(0, Math.round((Date.parse(end) - Date.parse(m.timestamp)) / 60_000));
  return minutes < 1 ? ' that lasted a few seconds' : ` that lasted ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function SystemMessage({ message: m }: { message: Message }) {
  const who = <strong className="sys__who">{displayName(m.author)}</strong>;
  let icon = 'plus';
  let text: ReactNode;
  switch (m.type) {
    case 7:
      icon = 'plus';
      text = <>{who} joined the server.</>;
      break;
    case 6:
      icon = 'pin';
      text = <>{who} pinned a message to this channel.</>;
      break;
    case 18:
      icon = 'thread';
      text = (
        <>
          {who} started a thread: <strong>{m.content}</strong>
        </>
      );
      break;
    case 46:
      icon = 'poll';
      text = <>{who}'s poll has closed.</>;
      break;
    case 1:
      text = (
        <>
          {who} added {m.mentions?.[0] ? displayName(m.mentions[0]) : 'someone'} to the group.
        </>
      );
      break;
    case 2:
      icon = 'x';
      text = <>{who} left the group.</>;
      break;
    case 3:
      icon = 'speaker';
      text = (
        <>
          {who} started a call{callLength(m)}.
        </>
      );
      break;
    case 4:
      icon = 'edit';
      text = (
        <>
          {who} changed the channel name: <strong>{m.content}</strong>
        </>
      );
      break;
    default:
      text = (
        <>
          {who} {m.content}
        </>
      );
  }
  return (
    <div className="sys" data-message-id={m.id}>
      <span className="sys__icon">
        <Icon name={icon} size={16} />
      </span>
      <span className="sys__text">
        {text}{' '}
        <time className="msg__time" dateTime={m.timestamp}>
          {messageTime(m.timestamp)}
        </time>
      </span>
    </div>
  );
}
