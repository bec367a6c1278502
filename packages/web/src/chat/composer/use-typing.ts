import { useRef } from 'react';
import { useApi } from '../../lib/session.js';

/** POST /channels/{id}/typing at most every 8 s while the person types (the indicator lasts 10 s). */
export function useTypingSignal(channelId: string): () => void {
  const api = useApi();
  const last = useRef(0);
  return () => {
    const now = Date.now();
    if (now - last.current < 8000) return;
    last.current = now;
    api.channels.typing(channelId).catch(() => undefined);
  };
}
