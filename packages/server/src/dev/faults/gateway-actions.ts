import { Op } from '@accord/protocol';
import type { Gateway } from '../../gateway/gateway.js';
import type { GatewayAction } from './book.js';

/**
 * Runs a one-shot action on this node's live sessions of the application's bot; answers how many it reached.
 * - `gateway.close`: the socket closes with the code (1006: the TCP connection is dropped with no close frame). The
 *   session stays resumable, except after 1000/1001, which end it as a client's clean close does.
 * - `gateway.reconnect`: op 7; the socket carries no more events (closed 1012 after a grace); the session stays resumable.
 * - `gateway.invalid_session`: op 9 with d = resumable; not resumable ends the session (a Resume is refused).
 */
export function actOnGateway(gateway: Gateway, a: GatewayAction): number {
  const sessions = [...gateway.sessions.values()].filter((s) => !s.dead && s.transport && s.isBot && s.actor.applicationId === a.application_id);
  for (const s of sessions) {
    const transport = s.transport!;
    switch (a.kind) {
      case 'gateway.close': {
        const code = Number(a.params.close_code);
        // 1006 is never sent in a close frame: the transport drops the connection instead (ws refuses the code).
        transport.close(code, code === 1006 ? '' : 'Closed by a dev fault.');
        if (code === 1000 || code === 1001) gateway.kill(s);
        break;
      }
      case 'gateway.reconnect':
        gateway.requestReconnect(s);
        break;
      case 'gateway.invalid_session':
        transport.send(JSON.stringify({ op: Op.INVALID_SESSION, d: a.params.resumable === true, s: null, t: null }));
        if (a.params.resumable !== true) gateway.kill(s);
        break;
    }
  }
  return sessions.length;
}
