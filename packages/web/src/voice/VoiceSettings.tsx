import { useEffect, useState } from 'react';
import { listDevices, type InputDevice } from './devices.js';
import type { VoiceManager } from './manager.js';
import type { VoiceState } from './state.js';

/** The push-to-talk key (held to talk while push to talk is on). */
export const PTT_KEY = '`';

/** Microphone and speaker choice and push to talk, under the voice panel's buttons. */
export function VoiceSettings({ voice, state }: { voice: VoiceManager; state: VoiceState }) {
  const [devices, setDevices] = useState<{ inputs: InputDevice[]; outputs: InputDevice[] } | null>(null);
  useEffect(() => {
    if (state.status !== 'connected') return;
    const load = () => void listDevices().then(setDevices, () => setDevices({ inputs: [], outputs: [] }));
    load();
    navigator.mediaDevices?.addEventListener?.('devicechange', load);
    return () => navigator.mediaDevices?.removeEventListener?.('devicechange', load);
  }, [state.status]);

  // Held key → talking; typing in a field does not count.
  useEffect(() => {
    if (!state.pushToTalk) return;
    const typing = (e: KeyboardEvent) => e.target instanceof HTMLElement && !!e.target.closest('input, textarea, [contenteditable="true"]');
    const down = (e: KeyboardEvent) => e.key === PTT_KEY && !typing(e) && voice.setTalking(true);
    const up = (e: KeyboardEvent) => e.key === PTT_KEY && voice.setTalking(false);
    const blur = () => voice.setTalking(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, [state.pushToTalk]);

  return (
    <div className="vc__settings">
      {devices && devices.inputs.length > 1 ? (
        <select className="vc__device" aria-label="Microphone" value={state.inputId ?? ''} onChange={(e) => void voice.setInput(e.target.value || null)}>
          <option value="">Default microphone</option>
          {devices.inputs.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>
      ) : null}
      {devices && devices.outputs.length > 1 ? (
        <select className="vc__device" aria-label="Speaker" value={state.outputId} onChange={(e) => voice.setOutput(e.target.value)}>
          <option value="">Default speaker</option>
          {devices.outputs.map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label}
            </option>
          ))}
        </select>
      ) : null}
      <label className="vc__ptt">
        <input type="checkbox" checked={state.pushToTalk} onChange={(e) => voice.setPushToTalk(e.target.checked)} />
        Push to talk (hold <kbd>{PTT_KEY}</kbd>){state.pushToTalk && state.talking ? <span className="vc__talking"> · talking</span> : null}
      </label>
    </div>
  );
}
