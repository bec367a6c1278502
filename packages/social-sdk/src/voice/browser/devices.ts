import type { AudioDevice, AudioDevices, AudioSettings } from '../types.js';

/** Chromium lists the system's default and communications devices as extra entries beside the real ones. */
const PSEUDO = new Set(['default', 'communications']);

/**
 * Microphones and speakers through `enumerateDevices` (names show once the page may use the microphone). The real
 * device behind the browser's "default" entry is the one marked default.
 */
export const browserDevices: AudioDevices = {
  async list() {
    const all = (await navigator.mediaDevices?.enumerateDevices?.()) ?? [];
    const of = (kind: MediaDeviceKind, word: string): AudioDevice[] => {
      const same = all.filter((d) => d.kind === kind);
      const def = same.find((d) => d.deviceId === 'default');
      const real = same.filter((d) => !PSEUDO.has(d.deviceId));
      // The default entry shares its device's group, or names it ("Default - <label>"); else the first is the default.
      let at = def ? real.findIndex((d) => d.groupId && d.groupId === def.groupId) : -1;
      if (at < 0 && def?.label) at = real.findIndex((d) => d.label && def.label.endsWith(d.label));
      return real.map((d, i) => ({ id: d.deviceId, name: d.label || `${word} ${i + 1}`, isDefault: i === Math.max(0, at) }));
    };
    return { inputs: of('audioinput', 'Microphone'), outputs: of('audiooutput', 'Speaker') };
  },
  onChange(fn) {
    const md = navigator.mediaDevices;
    if (!md) return () => {};
    md.addEventListener('devicechange', fn);
    return () => md.removeEventListener('devicechange', fn);
  },
};

/** The getUserMedia constraints of the client's settings: the chosen microphone and its processing. */
export function microphoneConstraints(a: AudioSettings): MediaTrackConstraints {
  return {
    ...(a.inputDeviceId ? { deviceId: { exact: a.inputDeviceId } } : {}),
    echoCancellation: a.echoCancellation,
    noiseSuppression: a.noiseSuppression,
    autoGainControl: a.automaticGainControl,
  };
}
