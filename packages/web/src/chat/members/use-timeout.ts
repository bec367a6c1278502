import { useEffect, useState } from 'react';
import { useStore } from '../../lib/session.js';
import { timeoutEnd } from './moderation.js';

/** Longest delay setTimeout takes (about 24.8 days); a 28-day timeout re-checks once on the way. */
const MAX_DELAY = 2 ** 31 - 1;

/** When the person's own timeout in this guild ends (ms), or null; re-renders when it ends or is lifted. */
export function useOwnTimeoutEnd(guildId: string | null): number | null {
  const until = useStore((s) => (guildId && s.me ? s.guilds.get(guildId)?.members.get(s.me.id)?.communication_disabled_until : undefined));
  const [, tick] = useState(0);
  const end = timeoutEnd(until);
  useEffect(() => {
    if (!end) return;
    const t = setTimeout(() => tick((n) => n + 1), Math.min(end - Date.now() + 50, MAX_DELAY));
    return () => clearTimeout(t);
  }, [end]);
  return end;
}
