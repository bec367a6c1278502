import { useEffect, useState } from 'react';
import { useSession, useStore } from '../lib/session.js';
import { rememberUsers } from '../lib/state/guild-events.js';
import type { APIUser } from '../lib/api/types.js';
import { Avatar, Icon, displayName, toast } from '../lib/ui/index.js';
import { ActivityFrame, type FrameMode } from './ActivityFrame.js';
import { AppIcon } from './AppIcon.js';
import { userIdsOf, type InstanceInfo } from './instances.js';
import { leaveActivity } from './launch.js';
import { useAppInfo } from './app-info.js';
import { knownUser } from './users.js';

/**
 * The Activity docked in its channel: a header with the app, who is in it and the panel's controls (pop out, leave),
 * and the frame below. Leaving closes the frame, clears the presence it set, and takes this session out of the instance.
 */
export function ActivityPanel({ inst, channelLabel }: { inst: InstanceInfo; channelLabel: string }) {
  const session = useSession();
  const app = useAppInfo(inst.application_id);
  const [mode, setMode] = useState<FrameMode>('inline');
  const participants = useParticipants(inst);

  const leave = async () => {
    session.gateway?.send(3, { since: 0, status: 'online', afk: false, activities: [] });
    await leaveActivity(session, inst);
  };

  // Closing the tab leaves too (a Gateway session that ends for good also does, on the server).
  useEffect(() => {
    const onHide = () => void leaveActivity(session, inst, true);
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [inst.instance_id]);

  return (
    <section className={mode === 'popout' ? 'act-panel act-panel--popped' : 'act-panel'} aria-label={`${app.name} Activity`}>
      <div className="act-panel__stage">
        <ActivityFrame
          key={inst.instance_id}
          inst={inst}
          app={app}
          mode={mode}
          channelLabel={channelLabel}
          onPopoutClosed={() => setMode('inline')}
          onFrameClosed={(code, message) => {
            if (code !== 1000) toast(message ? `${app.name} closed: ${message}` : `${app.name} closed unexpectedly`, true);
            void leave();
          }}
        />
      </div>
      <div className="act-panel__bar">
        <AppIcon app={app} size={32} />
        <div className="act-panel__meta">
          <div className="act-panel__name ellipsis">{app.name}</div>
          <div className="act-panel__sub ellipsis">
            {participants.length === 1 ? 'Just you' : `${participants.length} participants`} · in {channelLabel}
          </div>
        </div>
        <ul className="act-panel__people" aria-label="Participants">
          {participants.map((u) => (
            <li key={u.id} className="act-panel__person" title={displayName(u)}>
              <Avatar user={u} size={24} />
              <span className="act-panel__person-name">{displayName(u)}</span>
            </li>
          ))}
        </ul>
        <div className="act-panel__actions">
          <button
            type="button"
            className="icon-btn"
            aria-label={mode === 'popout' ? 'Bring back' : 'Pop out'}
            title={mode === 'popout' ? 'Bring back' : 'Pop out'}
            aria-pressed={mode === 'popout'}
            onClick={() => setMode(mode === 'popout' ? 'inline' : 'popout')}
          >
            <Icon name="external" size={18} />
          </button>
          <button type="button" className="act-panel__leave" onClick={() => void leave()}>
            <Icon name="logout" size={16} /> Leave
          </button>
        </div>
      </div>
    </section>
  );
}

/** The instance's users, fetching the ones the client has not seen yet. */
export function useParticipants(inst: InstanceInfo | undefined): APIUser[] {
  const session = useSession();
  const users = useStore((s) => s.users);
  const ids = userIdsOf(inst);
  useEffect(() => {
    for (const id of ids) {
      if (knownUser(session.store, id)) continue;
      session.api.users
        .get(id)
        .then((u) => rememberUsers(session.store, [u]))
        .catch(() => undefined);
    }
  }, [ids.join(',')]);
  void users;
  return ids.map((id) => knownUser(session.store, id)).filter((u): u is APIUser => !!u);
}
