import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Ctx } from '../services/context.js';
import { appIdFromHost } from '../services/activities/origins.js';
import { handleProxyRequest, handleProxyUpgrade } from './proxy.js';

/**
 * Puts the proxy host on the server's own port: requests whose Host is `<application_id>.<proxy host>` go to the
 * Activity proxy before the API sees them (so no API rewrite, body parser or route can touch them); everything else
 * goes where it went before. One port keeps dev simple (`<app>.localhost:<port>` needs no DNS); an operator puts a
 * wildcard name in front of the same port.
 */
export function mountActivityProxy(ctx: Ctx, server: Server, otherUpgrades: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void {
  const api = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const appId = appIdFromHost(ctx, req.headers.host);
    if (appId) return void handleProxyRequest(ctx, appId, req, res);
    for (const listener of api) listener.call(server, req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const appId = appIdFromHost(ctx, req.headers.host);
    if (appId) return void handleProxyUpgrade(ctx, appId, req, socket, head);
    otherUpgrades(req, socket, head);
  });
}
