import type { Socket } from 'node:net';

/**
 * Dispatch frames written straight to the socket, so that one payload sent to many sessions is one buffer: the frame
 * is `{"t":…,"op":0,"d":…,"s":` (shared by every session that gets the same payload) followed by the session's seq.
 * ws would copy the whole string into a new buffer per session; at fan-out that copy and its garbage dominate.
 * Server frames are unmasked and, with per-message deflate off, ws writes to the socket synchronously too, so frames
 * written here and by ws leave in the order they were sent.
 */
let memo: { t: string; d: string; head: Buffer } | null = null;

/** The shared head of a dispatch frame; consecutive calls for the same payload (one fan-out) reuse one buffer. */
export function dispatchHead(t: string, d: string): Buffer {
  if (memo && memo.t === t && memo.d === d) return memo.head;
  memo = { t, d, head: Buffer.from(`{"t":"${t}","op":0,"d":${d},"s":`) };
  return memo.head;
}

/** Writes one final, unmasked text frame whose payload is `head` then `tail` (ASCII), without copying `head`. */
export function writeTextFrame(socket: Socket, head: Buffer, tail: string): void {
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
  socket.write(head);
  socket.write(tail, 'latin1');
}
