import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests node's HTTP parser cannot read (bad request line, header too large, timeout) never reach a route. They
 * get the platform's envelope too, not the framework's `{"error": …, "statusCode": …}`, and the socket closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ message: `${status}: ${STATUS_CODES[status]}`, code: 0 });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
