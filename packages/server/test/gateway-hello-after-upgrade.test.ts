// engine-independent: the WebSocket handshake's bytes, before any session or store is involved
/**
 * HELLO reaches the client after the `101 Switching Protocols`, never in the same read. Clients that parse the
 * handshake's response from one read and drop the rest (a popular framework's own Node socket does) otherwise never
 * see HELLO; on the real platform it always arrives separately.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

/** Opens a raw upgrade and returns the socket's first two reads. */
function upgrade(port: number): Promise<{ first: Buffer; second: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `GET /?v=10&encoding=json HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (d) => {
      chunks.push(d);
      if (chunks.length === 2 || (chunks.length === 1 && d.includes('"op":10'))) {
        socket.destroy();
        resolve({ first: chunks[0], second: chunks[1] ?? Buffer.alloc(0) });
      }
    });
    socket.on('error', reject);
  });
}

test('HELLO comes in its own read after the 101, upgrade after upgrade', async () => {
  const port = Number(new URL(t.server.url).port);
  for (let i = 0; i < 20; i++) {
    const { first, second } = await upgrade(port);
    const text = first.toString('latin1');
    assert.match(text, /^HTTP\/1\.1 101 /);
    assert.ok(text.endsWith('\r\n\r\n'), `upgrade ${i}: the first read held ${first.length - text.indexOf('\r\n\r\n') - 4} bytes after the 101`);
    assert.match(second.toString('utf8'), /"op":10/);
  }
});
