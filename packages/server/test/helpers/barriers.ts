import type { RunningServer } from '../../src/server.js';
import type { RawGateway } from './gateway-client.js';

/**
 * Every event this process published so far has reached the Gateway and been dispatched. In Redis mode the Gateway
 * gets events back from Redis, after the dispatcher's queue may already be idle: a mark published now comes back on
 * the same ordered delivery after them.
 */
export async function busDrained(server: RunningServer): Promise<void> {
  const mark = `__TEST_MARK_${Math.random()}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error('the bus did not deliver a mark within 10 s'))), 10_000);
    const off = server.ctx.bus.subscribe(
      (e) => {
        if (e.t !== mark) return;
        clearTimeout(timer);
        off();
        resolve();
      },
      { ordered: true },
    );
    server.ctx.bus.publish({ t: mark, d: null });
  });
  await server.gateway.dispatcher.idle();
}

/**
 * A barrier before a "nothing arrived" assertion on Gateway sessions: every event published so far has been
 * dispatched (busDrained), and each session has read everything the server wrote to it before a heartbeat ACK (TCP
 * keeps the order). After this, a frame that has not arrived was never sent.
 */
export async function gatewaySynced(server: RunningServer, ...sessions: RawGateway[]): Promise<void> {
  await busDrained(server);
  for (const gw of sessions) {
    const mark = gw.frames.length;
    gw.send(1, null);
    await gw.wait((f) => f.op === 11 && gw.frames.indexOf(f) >= mark, 5000);
  }
}
