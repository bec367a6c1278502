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
      <DeviceSelect label="Microphone" devices={devices?.inputs} value={state.inputId ?? ''} onChange={(id) => void voice.setInput(id || null)} />
      <DeviceSelect label="Speaker" devices={devices?.outputs} value={state.outputId} onChange={(id) => voice.setOutput(id)} />
      <label className="vc__ptt">
        <input type="checkbox" checked={state.pushToTalk} onChange={(e) => voice.setPushToTalk(e.target.checked)} />
        Push to talk (hold <kbd>{PTT_KEY}</kbd>){state.pushToTalk && state.talking ? <span className="vc__talking"> · talking</span> : null}
      </label>
    </div>
  );
}

/** A device list with the system default first; hidden when there is nothing to choose. */
function DeviceSelect({ label, devices, value, onChange }: { label: string; devices?: InputDevice[]; value: string; onChange: (id: string) => void }) {
  if (!devices || devices.length < 2) return null;
  return (
    <select className="vc__device" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Default {label.toLowerCase()}</option>
      {devices.map((d) => (
        <option key={d.deviceId} value={d.deviceId}>
          {d.label}
        </option>
      ))}
    </select>
  );
}
