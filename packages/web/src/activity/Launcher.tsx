import { useEffect, useState } from 'react';
import { useSession } from '../lib/session.js';
import type { CommandIndex } from '../lib/api/types.js';
import { Button, Dialog, Empty, Loading } from '../lib/ui/index.js';
import { AppIcon } from './AppIcon.js';
import { launchEntryPoint, type EntryPoint } from './launch.js';

interface Launchable {
  app: CommandIndex['applications'][number];
  command: EntryPoint;
}

/**
 * The App Launcher: the apps with an Entry Point command usable here (installed in the guild, or by the person, or
 * the person's own in-development Activity, which the guild's index lists), each launched by running that command.
 */
export function Launcher({ guildId, channelId, channelLabel, onClose }: { guildId: string | null; channelId: string; channelLabel: string; onClose(): void }) {
  const session = useSession();
  const [list, setList] = useState<Launchable[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const here = guildId ? session.api.guilds.commandIndex(guildId) : session.api.http.get<CommandIndex>(`/channels/${channelId}/application-command-index`);
    Promise.all([here, session.api.commands.userIndex().catch(() => null)])
      .then((indexes) => {
        const seen = new Set<string>();
        const out: Launchable[] = [];
        for (const index of indexes) {
          for (const cmd of index?.application_commands ?? []) {
            if (cmd.type !== 4 || seen.has(cmd.application_id)) continue;
            const app = index!.applications.find((a) => a.id === cmd.application_id);
            if (!app) continue;
            seen.add(cmd.application_id);
            out.push({ app, command: { id: cmd.id, name: cmd.name, application_id: cmd.application_id, version: cmd.version } });
          }
        }
        setList(out);
      })
      .catch((err) => setError(err?.readable ?? 'The launcher could not load.'));
  }, [guildId, channelId]);

  const launch = async (l: Launchable) => {
    setBusy(l.app.id);
    setError(null);
    try {
      await launchEntryPoint(session, l.command, { guildId, channelId });
      onClose();
    } catch (err: any) {
      setError(err?.readable ?? 'The Activity could not be launched.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog title="Activities" subtitle={`Play and hang out in ${channelLabel}`} onClose={onClose} wide label="App Launcher">
      {error ? (
        <div className="banner" role="alert">
          {error}
        </div>
      ) : null}
      {!list ? (
        <Loading label="Loading apps…" />
      ) : !list.length ? (
        <Empty icon="compass" title="No Activities here yet">
          Apps with an Activity appear here once they are added to this server. Your own apps appear as soon as you enable Activities (in servers under 25
          members).
        </Empty>
      ) : (
        <ul className="act-launcher">
          {list.map((l) => (
            <li key={l.app.id} className="act-launcher__item">
              <AppIcon app={l.app} size={48} />
              <div className="grow">
                <div className="act-launcher__name">{l.app.name}</div>
                <div className="act-launcher__desc ellipsis">{l.app.description || `/${l.command.name}`}</div>
              </div>
              <Button size="sm" busy={busy === l.app.id} onClick={() => void launch(l)} aria-label={`Launch ${l.app.name}`}>
                Launch
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
