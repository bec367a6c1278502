import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Avatar, Banner, Button, displayName, Empty, ErrorState, Loading } from '../../lib/ui/index.js';
import type { InviteRow } from './api.js';
import type { SectionProps } from './section-props.js';
import { useLoad } from './use-load.js';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function expiry(i: InviteRow): string {
  if (i.expires_at) return when(i.expires_at);
  if (i.max_age && i.created_at) return when(new Date(Date.parse(i.created_at) + i.max_age * 1000).toISOString());
  return 'Never';
}

/** The server's active invites: who made each, for which channel, how often it was used and when it expires. */
export function Invites({ api }: SectionProps) {
  const list = useLoad(() => api.invites(), [api]);
  const revoke = useAction(async (code: string) => {
    await api.revokeInvite(code);
    await list.reload();
  });
  if (list.error) return <ErrorState message={readableError(list.error)} onRetry={() => void list.reload()} />;
  if (!list.data) return <Loading />;
  if (!list.data.length)
    return (
      <Empty icon="link" title="No invites">
        Nobody has made an invite to this server yet, or they have all expired.
      </Empty>
    );
  return (
    <div>
      {revoke.error ? <Banner>{readableError(revoke.error)}</Banner> : null}
      <table className="ss-table">
        <caption className="sr-only">Active invites</caption>
        <thead>
          <tr>
            <th scope="col">Inviter</th>
            <th scope="col">Invite code</th>
            <th scope="col">Uses</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((i) => (
            <tr key={i.code} data-invite={i.code}>
              <td data-label="Inviter">
                <span className="row">
                  <Avatar user={i.inviter} size={24} />
                  <span className="ellipsis">{displayName(i.inviter)}</span>
                </span>
              </td>
              <td data-label="Code">
                <code>{i.code}</code>
                {i.channel?.name ? <span className="muted"> #{i.channel.name}</span> : null}
              </td>
              <td data-label="Uses">{i.max_uses ? `${i.uses ?? 0} / ${i.max_uses}` : (i.uses ?? 0)}</td>
              <td data-label="Expires">{expiry(i)}</td>
              <td>
                <Button variant="danger" size="sm" aria-label={`Revoke invite ${i.code}`} busy={revoke.busy} onClick={() => void revoke.run(i.code)}>
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
