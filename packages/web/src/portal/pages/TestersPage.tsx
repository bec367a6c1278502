import { useEffect, useState, type FormEvent } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { Avatar, Button, Empty, ErrorState, Icon, Loading, TextField, displayName, toast } from '../../lib/ui/index.js';
import { useAction } from '../../lib/use-action.js';
import { useOpenApp } from '../context.js';
import type { AppTester } from '../types.js';
import { PageHead, Section } from '../ui/Section.js';

/**
 * App Testers: people who see the app as its developers do while it is in development (its Activity in the launcher
 * of their small servers). The owner invites by username; the invitation waits on the person's Applications page.
 */
export function TestersPage() {
  const { app, api } = useOpenApp();
  const [list, setList] = useState<AppTester[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [username, setUsername] = useState('');
  const load = () => {
    setError(null);
    api.testers(app.id).then(setList).catch(setError);
  };
  useEffect(load, [app.id]);
  const invite = useAction(async () => {
    const t = await api.inviteTester(app.id, username.trim());
    setList((l) => [...(l ?? []).filter((x) => x.user.id !== t.user.id), t]);
    setUsername('');
    toast(`${displayName(t.user)} is invited`);
  });
  const remove = async (t: AppTester) => {
    try {
      await api.removeTester(app.id, t.user.id);
      setList((l) => (l ?? []).filter((x) => x.user.id !== t.user.id));
      toast(`${displayName(t.user)} removed`);
    } catch (err) {
      toast(readableError(err), true);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (username.trim()) void invite.run();
  };

  return (
    <>
      <PageHead title="App Testers">
        Testers use your app while it is in development, as you do: once they accept, your Activity is in the App Launcher of their servers under 25 members. Up
        to 50 people.
      </PageHead>
      <Section title="Invite a tester" description="They accept or decline on their Applications page.">
        <form className="testers__invite" onSubmit={submit} aria-label="Invite a tester">
          <TextField
            label="Username"
            placeholder="their username"
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={invite.fieldError('username') ?? (invite.error ? readableError(invite.error) : undefined)}
          />
          <Button type="submit" busy={invite.busy} disabled={!username.trim()}>
            Invite
          </Button>
        </form>
      </Section>
      <Section title={`Testers${list ? ` (${list.length})` : ''}`}>
        {error ? (
          <ErrorState title="Could not load the testers" message={readableError(error)} onRetry={load} />
        ) : !list ? (
          <Loading label="Loading testers…" />
        ) : !list.length ? (
          <div className="p-empty p-empty--small">
            <Empty icon="users" title="No testers yet">
              Invite someone by their username.
            </Empty>
          </div>
        ) : (
          <ul className="testers" aria-label="Testers">
            {list.map((t) => (
              <li key={t.user.id} className="testers__row">
                <Avatar user={t.user} size={32} />
                <span className="grow ellipsis">
                  <span className="testers__name">{displayName(t.user)}</span> <span className="muted">{t.user.username}</span>
                </span>
                <span className={t.state === 2 ? 'pill pill--ok' : 'pill'}>{t.state === 2 ? 'Tester' : 'Invited'}</span>
                <button type="button" className="icon-btn" aria-label={`Remove ${displayName(t.user)}`} onClick={() => void remove(t)}>
                  <Icon name="trash" size={18} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
