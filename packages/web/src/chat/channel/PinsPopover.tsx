import { useEffect, useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import type { Channel, Message } from '../../lib/api/types.js';
import { Markdown } from '../../lib/markdown/Markdown.js';
import { messageTime } from '../../lib/markdown/timestamp.js';
import { useApi, useStore } from '../../lib/session.js';
import { Avatar, displayName, Empty, ErrorState, Icon, Loading } from '../../lib/ui/index.js';

/** Pinned Messages of the channel, reloaded when CHANNEL_PINS_UPDATE arrives. */
export function PinsPopover({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const api = useApi();
  const version = useStore((s) => s.pinsVersion.get(channel.id) ?? 0);
  const [pins, setPins] = useState<Message[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.channels.pins(channel.id).then((r) => setPins(r.items.map((i) => i.message)), setError);
  }, [channel.id, version]);
  return (
    <div className="popover pins" role="dialog" aria-label="Pinned Messages">
      <div className="popover__head">
        <Icon name="pin" size={18} /> <strong className="grow">Pinned Messages</strong>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          <Icon name="x" size={16} />
        </button>
      </div>
      <div className="popover__body">
        {error ? (
          <ErrorState message={readableError(error)} />
        ) : !pins ? (
          <Loading />
        ) : !pins.length ? (
          <Empty icon="pin" title="No pins yet">
            This channel doesn't have any pinned messages… yet.
          </Empty>
        ) : (
          pins.map((m) => (
            <div key={m.id} className="pin">
              <div className="row">
                <Avatar user={m.author} size={24} />
                <strong>{displayName(m.author)}</strong>
                <span className="msg__time">{messageTime(m.timestamp)}</span>
              </div>
              {m.content ? <Markdown text={m.content} /> : <span className="muted">{m.attachments?.length ? 'Attachment' : 'Embed'}</span>}
            </div>
          ))
        )}
      </div>
    </div>
  );
}
