import { useStore } from '../lib/session.js';

/** A thin bar while the Gateway session is down and being resumed, as the official client shows. */
export function ConnectionBanner() {
  const status = useStore((s) => s.status);
  const detail = useStore((s) => s.statusDetail);
  if (status === 'ready' || status === 'connecting') return null;
  const text = status === 'failed' ? (detail ?? 'Disconnected.') : status === 'resuming' ? 'Reconnecting…' : 'Connection lost. Reconnecting…';
  return (
    <div className={status === 'failed' ? 'conn conn--failed' : 'conn'} role="status">
      {text}
    </div>
  );
}
