import { Empty } from '../lib/ui/index.js';

/** /channels/@me with no conversation open. */
export function DmHome() {
  return (
    <section className="channel">
      <header className="channel__header">
        <span className="channel__title">Direct Messages</span>
      </header>
      <Empty icon="users" title="No conversation open">
        Pick a conversation on the left, or open a server and click someone in its member list to message them.
      </Empty>
    </section>
  );
}
