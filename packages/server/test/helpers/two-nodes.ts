import { before, after } from 'node:test';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';
import { RawGateway } from './gateway-client.js';

export interface TwoNodes {
  a: TestServer;
  /** Joined to node A's deployment (same schema and Redis prefix). */
  b: TestServer;
  /** A raw Gateway client of node `t`, terminated when the nodes close. */
  connect(t: TestServer): Promise<RawGateway>;
}

/** Two nodes of one deployment for the enclosing describe block: started before its tests, closed after them. */
export function twoNodes(opts: TestServerOptions = {}): TwoNodes {
  const open: RawGateway[] = [];
  const nodes = {
    async connect(t: TestServer) {
      const gw = await RawGateway.connect(t.server.url);
      open.push(gw);
      return gw;
    },
  } as TwoNodes;
  before(async () => {
    nodes.a = await startTestServer(opts);
    nodes.b = await startTestServer({ ...opts, join: nodes.a });
  });
  after(async () => {
    for (const g of open) g.ws.terminate();
    await nodes.b?.close();
    await nodes.a?.close();
  });
  return nodes;
}
