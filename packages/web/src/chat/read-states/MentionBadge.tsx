import './read-states.css';
import { plural } from '../../lib/plural.js';

/** The red count of unread mentions (or DM messages) on a channel, a DM or a server icon. */
export function MentionBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="mention-badge" aria-label={plural(count, 'mention', 'mentions')} data-testid="mention-badge">
      {count > 99 ? '99+' : count}
    </span>
  );
}
