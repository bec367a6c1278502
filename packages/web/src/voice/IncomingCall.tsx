import { useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useApi, useStore } from '../lib/session.js';
import { Avatar, Button, displayName } from '../lib/ui/index.js';
import { callStore } from './calls.js';
import { useVoice } from './useVoice.js';

/** Someone is calling: who, with accept (join the call) and decline (stop ringing for me). */
export function IncomingCall() {
  const { voice, state } = useVoice();
  const api = useApi();
  const navigate = useNavigate();
  const me = useStore((s) => s.me);
  const channels = useStore((s) => s.privateChannels);
  const calls = useSyncExternalStore(callStore.subscribe, callStore.get);
  const ringing = [...calls.values()].find((c) => me && c.ringing.includes(me.id) && state.channelId !== c.channelId);
  if (!ringing || !me) return null;
  const channel = channels.get(ringing.channelId);
  const callerId = ringing.inCall.find((u) => u !== me.id);
  const caller = channel?.recipients?.find((u) => u.id === callerId) ?? channel?.recipients?.[0];
  const name = channel?.type === 3 && channel.name ? channel.name : displayName(caller);
  return (
    <div className="ring" role="alertdialog" aria-label="Incoming call" data-channel={ringing.channelId}>
      <Avatar user={caller} size={64} />
      <div className="ring__name">{name}</div>
      <div className="ring__what">Incoming call…</div>
      <div className="row">
        <Button variant="danger" onClick={() => void api.http.post(`/channels/${ringing.channelId}/call/stop-ringing`, {}).catch(() => undefined)}>
          Decline
        </Button>
        <Button
          variant="success"
          onClick={() => {
            navigate(`/channels/@me/${ringing.channelId}`);
            void voice.join(null, ringing.channelId);
          }}
        >
          Accept
        </Button>
      </div>
    </div>
  );
}
