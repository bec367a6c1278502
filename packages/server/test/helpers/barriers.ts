import type { RunningServer } from '../../src/server.js';
import type { RawGateway } from './gateway-client.js';

/**
 * A barrier before a "nothing arrived" assertion on Gateway sessions: every event published so far has been
 * dispatched (the dispatcher is idle), and each session has read everything the server wrote to it before a heartbeat
 * ACK (TCP keeps the order). After this, a frame that has not arrived was never sent.
 */
export async function gatewaySynced(server: RunningServer, ...sessions: RawGateway[]): Promise<void> {
  await server.gateway.dispatcher.idle();
  for (const gw of sessions) {
    const mark = gw.frames.length;
    gw.send(1, null);
    await gw.wait((f) => f.op === 11 && gw.frames.indexOf(f) >= mark, 5000);
  }
}
