import './read-states.css';

/** The red line above the first message the person had not read when they opened the channel. */
export function UnreadDivider() {
  return (
    <div className="unread-divider" role="separator" aria-label="New messages" data-testid="unread-divider">
      <span>New</span>
    </div>
  );
}
