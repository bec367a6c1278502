import { Empty } from '../lib/ui/index.js';
import { NavDrawerButton } from './drawers.js';

/** /channels/@me with no conversation open. */
export function DmHome() {
  return (
    <section className="channel">
      <header className="channel__header">
        <NavDrawerButton />
        <span className="channel__title">Direct Messages</span>
      </header>
      <Empty icon="users" title="No conversation open">
        Pick a conversation in the list, or open a server and click someone in its member list to message them.
      </Empty>
    </section>
  );
}
