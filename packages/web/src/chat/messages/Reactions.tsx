import type { APIReaction, Message } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useApi } from '../../lib/session.js';
import { toast } from '../../lib/ui/index.js';
import { Twemoji } from '../../lib/emoji/Emoji.js';
import { plural } from '../../lib/plural.js';

export const emojiParam = (e: APIReaction['emoji']) => (e.id ? `${e.name}:${e.id}` : (e.name ?? ''));

/** Reaction pills under a message; yours are highlighted and clicking toggles your reaction. */
export function Reactions({ message: m }: { message: Message }) {
  const api = useApi();
  const toggle = (r: APIReaction) => {
    const emoji = emojiParam(r.emoji);
    const p = r.me ? api.channels.unreact(m.channel_id, m.id, emoji) : api.channels.react(m.channel_id, m.id, emoji);
    p.catch((err) => toast(readableError(err), true));
  };
  return (
    <div className="reactions">
      {m.reactions!.map((r) => (
        <button
          key={r.emoji.id ?? r.emoji.name}
          type="button"
          className={r.me ? 'reaction reaction--me' : 'reaction'}
          aria-pressed={r.me}
          aria-label={`${r.emoji.name}, ${plural(r.count, 'reaction', 'reactions')}`}
          onClick={() => toggle(r)}
        >
          {r.emoji.id ? <img className="emoji" src={`/emojis/${r.emoji.id}.webp?size=32`} alt={r.emoji.name ?? ''} /> : <Twemoji emoji={r.emoji.name ?? ''} />}
          <span className="reaction__count">{r.count}</span>
        </button>
      ))}
    </div>
  );
}
