import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Ctx } from '../context.js';

/** Placeholder until the gateway lands. */
export class Gateway {
  constructor(private readonly ctx: Ctx) {}
  handleUpgrade(_req: IncomingMessage, socket: Duplex, _head: Buffer): void {
    socket.destroy();
  }
  close(): void {}
}
