import type { Socket } from 'node:net';

/**
 * Dispatch frames written straight to the socket, so that one payload sent to many sessions is one buffer: the frame
 * is the session's `{"t":…,"s":<seq>` followed by `,"op":0,"d":…}`, shared by every session that gets the same payload
 * (the platform's own key order).
 * ws would copy the whole string into a new buffer per session; at fan-out that copy and its garbage dominate.
 * Server frames are unmasked and, with per-message deflate off, ws writes to the socket synchronously too, so frames
 * written here and by ws leave in the order they were sent.
 */
let memo: { d: string; tail: Buffer } | null = null;

/** The shared tail of a dispatch frame; consecutive calls for the same payload (one fan-out) reuse one buffer. */
export function dispatchTail(d: string): Buffer {
  if (memo && memo.d === d) return memo.tail;
  memo = { d, tail: Buffer.from(`,"op":0,"d":${d}}`) };
  return memo.tail;
}

/** Writes one final, unmasked text frame whose payload is `head` (ASCII) then `tail`, without copying `tail`. */
export function writeTextFrame(socket: Socket, head: string, tail: Buffer): void {
  const length = head.length + tail.length;
  let header: Buffer;
  if (length < 126) header = Buffer.from([0x81, length]);
  else if (length < 65536) {
    header = Buffer.allocUnsafe(4);
    header[0] = 0x81;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
  } else {
    header = Buffer.allocUnsafe(10);
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  socket.write(header);
  socket.write(head, 'latin1');
  socket.write(tail);
}
