import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { useAction } from '../lib/use-action.js';
import { Banner, Button, Dialog, Empty, ErrorState, Loading, TextField, toast } from '../lib/ui/index.js';
import { usePortal } from './context.js';
import type { Application, TestedApplication } from './types.js';

/** /developers/applications: the developer's applications, and "New Application". */
export function AppList() {
  const { api } = usePortal();
  const [apps, setApps] = useState<Application[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [creating, setCreating] = useState(false);
  const load = () => {
    setError(null);
    api.list().then(setApps).catch(setError);
  };
  useEffect(load, [api]);

  return (
    <main className="portal__page portal__page--wide">
      <header className="p-head p-head--row">
        <div className="grow">
          <h1 className="p-head__title">Applications</h1>
          <p className="p-head__desc">Apps are bots, commands, activities and sign-in with Accord. Make one to get a bot token and OAuth2 credentials.</p>
        </div>
        <Button onClick={() => setCreating(true)}>New Application</Button>
      </header>
      {error ? (
        <ErrorState title="Could not load your applications" message={readableError(error)} onRetry={load} />
      ) : !apps ? (
        <Loading label="Loading your applications…" />
      ) : !apps.length ? (
        <div className="p-empty">
          <Empty icon="bot" title="No applications yet" action={<Button onClick={() => setCreating(true)}>Create your first application</Button>}>
            An application gives you a bot, slash commands, and OAuth2 to let people sign in with Accord.
          </Empty>
        </div>
      ) : (
        <ul className="app-grid" aria-label="Your applications">
          {apps.map((a) => (
            <li key={a.id}>
              <Link to={`/developers/applications/${a.id}/information`} className="app-card">
                <AppIcon app={a} size={96} radius={28} />
                <span className="app-card__name">{a.name}</span>
                <span className="app-card__meta">
                  {a.approximate_guild_count} server{a.approximate_guild_count === 1 ? '' : 's'}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <TestedApps />
      {creating ? <NewAppDialog onClose={() => setCreating(false)} /> : null}
    </main>
  );
}

/** The apps one is invited to test or tests: accept or decline an invitation, or stop testing. Hidden when none. */
function TestedApps() {
  const { api } = usePortal();
  const [list, setList] = useState<TestedApplication[]>([]);
  useEffect(() => {
    api
      .tested()
      .then(setList)
      .catch(() => setList([]));
  }, [api]);
  const act = async (t: TestedApplication, accept: boolean) => {
    try {
      if (accept) await api.acceptTesting(t.application.id);
      else await api.leaveTesting(t.application.id);
      setList((l) => (accept ? l.map((x) => (x === t ? { ...x, state: 2 as const } : x)) : l.filter((x) => x !== t)));
      toast(accept ? `You now test ${t.application.name}` : t.state === 2 ? `You left ${t.application.name}'s testers` : 'Invitation declined');
    } catch (err) {
      toast(readableError(err), true);
    }
  };
  if (!list.length) return null;
  return (
    <section className="p-section tested" aria-labelledby="tested-title">
      <h2 id="tested-title" className="p-section__title">
        Apps you test
      </h2>
      <p className="p-section__desc">In development: their Activities are in your App Launcher in servers under 25 members.</p>
      <ul className="testers" aria-label="Apps you test">
        {list.map((t) => (
          <li key={t.application.id} className="testers__row">
            <AppIcon app={t.application} size={32} radius={10} />
            <span className="grow ellipsis testers__name">{t.application.name}</span>
            {t.state === 1 ? (
              <>
                <span className="pill">Invited</span>
                <Button size="sm" variant="secondary" onClick={() => void act(t, false)}>
                  Decline
                </Button>
                <Button size="sm" onClick={() => void act(t, true)}>
                  Accept
                </Button>
              </>
            ) : (
              <>
                <span className="pill pill--ok">Tester</span>
                <Button size="sm" variant="secondary" onClick={() => void act(t, false)}>
                  Leave
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function NewAppDialog({ onClose }: { onClose: () => void }) {
  const { api } = usePortal();
  const nav = useNavigate();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const app = await api.create(name.trim());
    nav(`/developers/applications/${app.id}/information`);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) void create.run();
  };
  return (
    <Dialog
      title="Create an application"
      subtitle="You can change its name, icon and description later."
      onClose={onClose}
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="new-app" busy={create.busy} disabled={!name.trim()}>
            Create
          </Button>
        </>
      }
    >
      <form id="new-app" onSubmit={submit}>
        {create.error && !create.fieldError('name') ? (
          <div className="p-gap">
            <Banner>{readableError(create.error)}</Banner>
          </div>
        ) : null}
        <TextField label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={create.fieldError('name')} autoFocus />
      </form>
    </Dialog>
  );
}
