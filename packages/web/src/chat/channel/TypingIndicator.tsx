import { useStore } from '../../lib/session.js';
import { displayName } from '../../lib/ui/index.js';

/** "Alice is typing…", "Alice and Bob are typing…", "Several people are typing…". */
export function TypingIndicator({ channelId, guildId }: { channelId: string; guildId: string | null }) {
  const typing = useStore((s) => s.typing.get(channelId));
  const users = useStore((s) => s.users);
  const members = useStore((s) => (guildId ? s.guilds.get(guildId)?.members : undefined));
  const ids = [...(typing?.keys() ?? [])];
  const names = ids.map((id) => members?.get(id)?.nick ?? displayName(users.get(id)));
  let text = '';
  if (names.length === 1) text = `${names[0]} is typing…`;
  else if (names.length === 2) text = `${names[0]} and ${names[1]} are typing…`;
  else if (names.length === 3) text = `${names[0]}, ${names[1]} and ${names[2]} are typing…`;
  else if (names.length > 3) text = 'Several people are typing…';
  return (
    <div className="typing" aria-live="polite" data-testid="typing">
      {text ? (
        <>
          <span className="dots" aria-hidden>
            <i />
            <i />
            <i />
          </span>
          <strong>{text.replace(/ (is|are) typing…$/, '')}</strong>
          {text.match(/ (is|are) typing…$/)?.[0] ?? ''}
        </>
      ) : null}
    </div>
  );
}
