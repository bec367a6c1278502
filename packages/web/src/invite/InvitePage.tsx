import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AuthShell } from '../auth/AuthShell.js';
import { readableError } from '../lib/api/errors.js';
import type { APIInvite } from '../lib/api/types.js';
import { useSession } from '../lib/session.js';
import { Banner, Button, ErrorState, Loading } from '../lib/ui/index.js';
import { plural } from '../lib/plural.js';

type Preview = APIInvite & { approximate_member_count?: number; approximate_presence_count?: number };

/** /invite/{code}: the invite's guild with its counts, and Accept (signed out: log in or register first). */
export function InvitePage() {
  const { code = '' } = useParams();
  const { api, token } = useSession();
  const nav = useNavigate();
  const [invite, setInvite] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [joinError, setJoinError] = useState<unknown>(null);

  useEffect(() => {
    setInvite(null);
    setError(null);
    api.invites.get(code).then(setInvite, setError);
  }, [code]);

  const accept = async () => {
    if (!token) return nav(`/login?redirect_to=${encodeURIComponent(`/invite/${code}`)}`);
    setBusy(true);
    setJoinError(null);
    try {
      const r = await api.invites.accept(code);
      const guildId = r.guild?.id ?? invite?.guild?.id;
      nav(guildId ? `/channels/${guildId}/${r.channel?.id ?? invite?.channel?.id ?? ''}` : '/channels/@me');
    } catch (err) {
      setJoinError(err);
      setBusy(false);
    }
  };

  if (error) {
    return (
      <AuthShell title="Invite invalid">
        <ErrorState title="" message={readableError(error)} />
        <Button block onClick={() => nav('/app')}>
          Continue to Accord
        </Button>
      </AuthShell>
    );
  }
  if (!invite)
    return (
      <AuthShell title="Checking invite…">
        <Loading label="" />
      </AuthShell>
    );
  const name = invite.guild?.name ?? 'a group';
  return (
    <AuthShell title="">
      <div className="invite">
        <div className="invite__icon" aria-hidden>
          {name.charAt(0).toUpperCase()}
        </div>
        <div className="muted">
          {invite.inviter ? `${invite.inviter.global_name ?? invite.inviter.username} invited you to join` : 'You have been invited to join'}
        </div>
        <div className="invite__name">{name}</div>
        <div className="invite__counts">
          {invite.approximate_presence_count != null ? (
            <span>
              <i className="dot status--online" />
              {invite.approximate_presence_count} Online
            </span>
          ) : null}
          {invite.approximate_member_count != null ? (
            <span>
              <i className="dot status--offline" />
              {plural(invite.approximate_member_count, 'Member', 'Members')}
            </span>
          ) : null}
        </div>
        {joinError ? <Banner>{readableError(joinError)}</Banner> : null}
        <Button block busy={busy} onClick={accept}>
          {token ? 'Accept Invite' : 'Log in to accept'}
        </Button>
      </div>
    </AuthShell>
  );
}
