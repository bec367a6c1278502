import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import type { APIUser } from '../lib/api/types.js';
import { dev, type DevUser } from '../lib/dev/client.js';
import { useSession } from '../lib/session.js';
import { Avatar, Button, Spinner } from '../lib/ui/index.js';

/** The people on this server; one click signs this browser in as any of them (a fresh token from the dev route). */
export function ActAsUser({ me }: { me: APIUser | null }) {
  const { signIn } = useSession();
  const nav = useNavigate();
  const [users, setUsers] = useState<DevUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  useEffect(() => {
    dev
      .users()
      .then(setUsers)
      .catch((e) => setError(readableError(e)));
  }, []);
  const actAs = async (u: DevUser) => {
    setSwitching(u.id);
    setError(null);
    try {
      const { token } = await dev.tokenFor(u.id);
      signIn(token);
      nav('/channels/@me');
    } catch (e) {
      setError(readableError(e));
      setSwitching(null);
    }
  };

  return (
    <section className="dev-card dev-card--grow" aria-label="Act as user">
      <h2 className="dev-card__title">Act as user</h2>
      <p className="dev-card__hint">Switch this browser to another person in one click. Seeded people come first.</p>
      {error ? (
        <div className="dev-card__error" role="alert">
          {error}
        </div>
      ) : null}
      {!users ? (
        error ? null : (
          <Spinner />
        )
      ) : !users.length ? (
        <p className="dev-card__hint">No people on this server yet.</p>
      ) : (
        <ul className="act-as">
          {users.map((u) => {
            const current = me?.id === u.id;
            return (
              <li key={u.id} className="act-as__row">
                <Avatar user={u as unknown as APIUser} size={32} />
                <div className="grow">
                  <div className="act-as__name ellipsis">
                    {u.global_name ?? u.username}
                    {u.seeded ? <span className="tag act-as__tag">Seed</span> : null}
                  </div>
                  <div className="act-as__user ellipsis">@{u.username}</div>
                </div>
                {current ? (
                  <span className="act-as__you">You</span>
                ) : (
                  <Button
                    size="sm"
                    variant="secondary"
                    busy={switching === u.id}
                    disabled={!!switching}
                    onClick={() => void actAs(u)}
                    aria-label={`Act as ${u.username}`}
                  >
                    Act as
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
