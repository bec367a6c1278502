import type { Session } from './session.js';
import type { GatewayHub } from './hub.js';

/** Presence Update (op 3): the session's user changes status or activities. */
export function handlePresenceUpdate(hub: GatewayHub, s: Session, d: any): void {
  if (!d || typeof d !== 'object') return;
  hub.setPresence(s, d);
}
