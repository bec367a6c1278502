import { useState } from 'react';
import { Link } from 'react-router';
import { useSession, useStore } from '../lib/session.js';
import { Avatar, Button, displayName } from '../lib/ui/index.js';
import { ActivityPanel, useParticipants } from './ActivityPanel.js';
import { AppIcon, RocketIcon } from './AppIcon.js';
import { useAppInfo } from './app-info.js';
import { useInstances, type InstanceInfo } from './instances.js';
import { joinActivity, leaveActivity } from './launch.js';
import { Launcher } from './Launcher.js';
import './activity.css';

/** The App Launcher's button, for the channel header. */
export function ActivityLauncherButton({ guildId, channelId, channelLabel }: { guildId: string | null; channelId: string; channelLabel: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="icon-btn" onClick={() => setOpen(true)} aria-label="Activities" title="App Launcher">
        <RocketIcon size={20} />
      </button>
      {open ? <Launcher guildId={guildId} channelId={channelId} channelLabel={channelLabel} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Activities in a channel, above its messages: the Activity this session is in (docked as a panel), the ones others
 * run here (to join), and a note when this session's Activity runs in another channel.
 */
export function ActivityDock({ channelId, channelLabel }: { channelId: string; channelLabel: string }) {
  const sessionId = useStore((s) => s.sessionId);
  const mine = useInstances((s) => s.mine(sessionId));
  const here = useInstances((s) => s.inChannel(channelId));
  const others = here.filter((i) => i.instance_id !== mine?.instance_id);
  if (!mine && !others.length) return null;
  return (
    <>
      {mine && mine.location.channel_id !== channelId ? <ElsewhereBar inst={mine} /> : null}
      {others.map((i) => (
        <JoinBar key={i.instance_id} inst={i} channelId={channelId} />
      ))}
      {mine && mine.location.channel_id === channelId ? <ActivityPanel inst={mine} channelLabel={channelLabel} /> : null}
    </>
  );
}

function JoinBar({ inst, channelId }: { inst: InstanceInfo; channelId: string }) {
  const session = useSession();
  const app = useAppInfo(inst.application_id);
  const people = useParticipants(inst);
  const [busy, setBusy] = useState(false);
  const names = people.slice(0, 2).map(displayName).join(' and ') + (people.length > 2 ? ` and ${people.length - 2} more` : '');
  return (
    <div className="act-bar" role="region" aria-label={`${app.name} is running`}>
      <AppIcon app={app} size={32} />
      <div className="grow">
        <div className="act-bar__title">{app.name}</div>
        <div className="act-bar__sub ellipsis">{names ? `${names} ${people.length === 1 ? 'is' : 'are'} in this Activity` : 'Running in this channel'}</div>
      </div>
      <div className="act-bar__faces">
        {people.slice(0, 4).map((u) => (
          <Avatar key={u.id} user={u} size={24} />
        ))}
      </div>
      <Button
        size="sm"
        variant="success"
        busy={busy}
        onClick={() => {
          setBusy(true);
          joinActivity(session, inst.application_id, channelId).finally(() => setBusy(false));
        }}
      >
        Join Activity
      </Button>
    </div>
  );
}

function ElsewhereBar({ inst }: { inst: InstanceInfo }) {
  const session = useSession();
  const app = useAppInfo(inst.application_id);
  const to = `/channels/${inst.location.guild_id ?? '@me'}/${inst.location.channel_id}`;
  return (
    <div className="act-bar act-bar--elsewhere">
      <AppIcon app={app} size={24} />
      <div className="grow act-bar__sub">
        You are in <strong>{app.name}</strong> in another channel.
      </div>
      <Link className="btn btn--sm btn--secondary" to={to}>
        Go there
      </Link>
      <Button size="sm" variant="danger" onClick={() => void leaveActivity(session, inst)}>
        Leave
      </Button>
    </div>
  );
}
