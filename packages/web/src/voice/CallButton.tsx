import { useSyncExternalStore } from 'react';
import type { Channel } from '../lib/api/types.js';
import { Icon } from '../lib/ui/index.js';
import { callStore } from './calls.js';
import { useVoice } from './useVoice.js';

/** A DM's header button: start a voice call (joining rings the others), or join the one running. */
export function CallButton({ channel }: { channel: Channel }) {
  const { voice, state } = useVoice();
  const call = useSyncExternalStore(callStore.subscribe, callStore.get).get(channel.id);
  const here = state.channelId === channel.id && (state.status === 'connecting' || state.status === 'connected');
  if (here) return null;
  const label = call?.inCall.length ? 'Join Voice Call' : 'Start Voice Call';
  return (
    <button type="button" className="icon-btn" aria-label={label} title={label} onClick={() => void voice.join(null, channel.id)}>
      <Icon name="phone" />
    </button>
  );
}
