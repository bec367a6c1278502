import type { Duplex } from 'node:stream';
import type { Role } from '../core/roles.js';

/**
 * A WebSocket upgrade reaching a node that runs no Gateway (`--role api`, `voice`, `worker`): a 421 Misdirected
 * Request in the platform's JSON envelope, then the socket closes, so a misrouted client sees why instead of a reset.
 */
export function refuseUpgrade(role: Role, socket: Duplex): void {
  const body = JSON.stringify({ message: `This node (role ${role}) does not serve the Gateway: connect to a gateway node.`, code: 0 });
  socket.end(
    `HTTP/1.1 421 Misdirected Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
