import { useSyncExternalStore } from 'react';
import { useSession, type Session } from '../lib/session.js';
import { VoiceManager } from './manager.js';
import type { VoiceState } from './state.js';

let manager: VoiceManager | null = null;
let current: Session | null = null;

/** The page's one voice manager; it reaches the Gateway of whichever session rendered last. */
export function voiceManager(session: Session): VoiceManager {
  current = session;
  manager ??= new VoiceManager({
    send: (op, d) => current?.gateway?.send(op, d),
    userId: () => current?.store.state.me?.id ?? null,
  });
  return manager;
}

export function useVoice(): { voice: VoiceManager; state: VoiceState } {
  const voice = voiceManager(useSession());
  const state = useSyncExternalStore(voice.subscribe, voice.getState);
  return { voice, state };
}
