import { useEffect, useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import type { GuildState } from '../../lib/state/store.js';
import { useSession } from '../../lib/session.js';
import { Banner, Button, Dialog, Spinner, toast } from '../../lib/ui/index.js';
import { firstTextChannel } from './channel-tree.js';

/** "Invite friends to …": creates a 7-day invite for the open channel and shows its link. */
export function InviteDialog({ guild, channelId, onClose }: { guild: GuildState; channelId?: string; onClose: () => void }) {
  const { api } = useSession();
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const target = channelId && guild.channels.get(channelId)?.type !== 4 ? channelId : firstTextChannel(guild);
    if (!target) return setError(new Error('There is no channel to invite to.'));
    api.channels.createInvite(target).then((inv) => setLink(`${location.origin}/invite/${inv.code}`), setError);
  }, []);
  const copy = async () => {
    if (!link) return;
    await navigator.clipboard?.writeText(link).catch(() => undefined);
    toast('Invite link copied');
  };
  return (
    <Dialog title={`Invite friends to ${guild.name}`} onClose={onClose}>
      {error ? <Banner>{readableError(error)}</Banner> : null}
      {!error && !link ? <Spinner /> : null}
      {link ? (
        <div className="field">
          <label className="field__label" htmlFor="invite-link">
            Send a server invite link to a friend
          </label>
          <div className="row">
            <input id="invite-link" className="input grow" readOnly value={link} onFocus={(e) => e.target.select()} />
            <Button onClick={copy}>Copy</Button>
          </div>
          <div className="field__hint">Your invite link expires in 7 days.</div>
        </div>
      ) : null}
    </Dialog>
  );
}
