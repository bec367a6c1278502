import type { Message } from '../../lib/api/types.js';
import { Avatar, displayName } from '../../lib/ui/index.js';

/** The line above a reply: who it answers and the start of what they said. */
export function ReplyPreview({ reference }: { channelId: string; reference: Message | null | undefined }) {
  const jump = () => document.querySelector(`[data-message-id="${reference?.id}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  return (
    <div className="msg__reply">
      <span className="msg__spine" aria-hidden />
      {reference ? (
        <button type="button" className="msg__reply-btn" onClick={jump}>
          <Avatar user={reference.author} size={16} />
          <span className="msg__reply-name">@{displayName(reference.author)}</span>
          <span className="msg__reply-text ellipsis">
            {reference.content || (reference.attachments?.length ? 'Click to see attachment' : reference.embeds?.length ? 'Click to see embed' : '…')}
          </span>
        </button>
      ) : (
        <span className="muted msg__reply-text">Original message was deleted</span>
      )}
    </div>
  );
}
