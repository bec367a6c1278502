import { useState } from 'react';
import { useStore } from '../lib/session.js';
import { displayName, Icon } from '../lib/ui/index.js';
import { VoiceSettings } from './VoiceSettings.js';
import { codeChunks, type VoiceState } from './state.js';
import { IncomingCall } from './IncomingCall.js';
import { useVoice } from './useVoice.js';
import './voice.css';

const STATUS: Record<string, string> = { connecting: 'Connecting…', connected: 'Voice Connected', failed: 'Voice Disconnected' };

/**
 * Above the person's card while in voice: the connection, end-to-end encryption, mute, deafen, microphone, leave. It
 * also shows an incoming DM call (it is mounted wherever the person's card is).
 */
export function VoiceControls() {
  const { voice, state } = useVoice();
  const channel = useStore((s) => {
    if (!state.channelId) return undefined;
    if (state.guildId) return s.guilds.get(state.guildId)?.channels.get(state.channelId);
    return s.privateChannels.get(state.channelId);
  });
  if (state.status === 'idle') return <IncomingCall />;
  const where = channel?.name || (channel?.recipients?.length ? `Call with ${channel.recipients.map((u) => displayName(u)).join(', ')}` : 'Call');
  return (
    <>
      <IncomingCall />
      <section className={`vc vc--${state.status}`} aria-label="Voice connection" data-status={state.status}>
        <div className="vc__row">
          <div className="vc__where grow">
            <div className="vc__status" role="status">
              {STATUS[state.status]}
            </div>
            <div className="vc__channel ellipsis">{where}</div>
          </div>
          {state.status === 'failed' ? (
            <button type="button" className="icon-btn" title="Dismiss" aria-label="Dismiss" onClick={() => voice.clear()}>
              <Icon name="x" size={18} />
            </button>
          ) : (
            <button type="button" className="icon-btn vc__leave" title="Disconnect" aria-label="Disconnect" onClick={() => voice.leave()}>
              <Icon name="phoneOff" size={20} />
            </button>
          )}
        </div>
        {state.error ? (
          <p className="vc__error" role="alert">
            {state.error}
          </p>
        ) : null}
        {state.micError ? (
          <p className="vc__error" role="alert" data-kind="microphone">
            {state.micError}
          </p>
        ) : null}
        {state.status !== 'failed' ? (
          <>
            <E2eeBadge e2ee={state.e2ee} />
            <div className="vc__row vc__buttons">
              <button
                type="button"
                className={state.muted ? 'icon-btn vc__toggle vc__toggle--on' : 'icon-btn vc__toggle'}
                aria-pressed={state.muted}
                aria-label={state.muted ? 'Unmute' : 'Mute'}
                title={state.micError ?? (state.muted ? 'Unmute' : 'Mute')}
                disabled={!!state.micError}
                onClick={() => voice.setMuted(!state.muted)}
              >
                <Icon name={state.muted ? 'micOff' : 'mic'} size={18} />
              </button>
              <button
                type="button"
                className={state.deafened ? 'icon-btn vc__toggle vc__toggle--on' : 'icon-btn vc__toggle'}
                aria-pressed={state.deafened}
                aria-label={state.deafened ? 'Undeafen' : 'Deafen'}
                title={state.deafened ? 'Undeafen' : 'Deafen'}
                onClick={() => voice.setDeafened(!state.deafened)}
              >
                <Icon name={state.deafened ? 'headphonesOff' : 'headphones'} size={18} />
              </button>
            </div>
            <VoiceSettings voice={voice} state={state} />
          </>
        ) : null}
      </section>
    </>
  );
}

/** The lock and the group's privacy code: the same digits on every member's screen when nobody is in the middle. */
function E2eeBadge({ e2ee }: { e2ee: VoiceState['e2ee'] }) {
  const [open, setOpen] = useState(false);
  if (!e2ee.on)
    return (
      <div className="vc__e2ee vc__e2ee--off" data-e2ee={e2ee.required ? 'waiting' : 'off'}>
        {e2ee.required ? 'End-to-end encryption starts when someone joins' : 'Not end-to-end encrypted'}
      </div>
    );
  return (
    <div className="vc__e2ee" data-e2ee="on">
      <button type="button" className="vc__e2ee-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name="lock" size={14} /> End-to-end encrypted
      </button>
      {open ? (
        <div className="vc__code" aria-label="Voice privacy code">
          <div className="vc__code-digits" data-code={e2ee.code}>
            {codeChunks(e2ee.code).join(' ')}
          </div>
          <div className="vc__hint">Everyone in this call sees the same code.</div>
        </div>
      ) : null}
    </div>
  );
}
