import type { Socket } from 'node:net';

/**
 * Writes frames one at a time and lets the peer's event loop turn between two frames. discord-rpc 4.0.1 decodes
 * only the first frame of each read and drops the rest, so two frames must never reach it in one chunk.
 */
export class PacedWriter {
  /** An app that stops reading is cut off rather than letting its backlog grow without bound. */
  static readonly MAX_QUEUED = 2000;
  private queue: Buffer[] = [];
  private busy = false;
  private ending = false;

  constructor(private readonly socket: Socket) {}

  write(frame: Buffer): void {
    if (this.ending || this.socket.destroyed) return;
    if (this.queue.length >= PacedWriter.MAX_QUEUED) return void this.socket.destroy();
    this.queue.push(frame);
    if (!this.busy) void this.pump();
  }

  /** Sends what is queued (and `last`), then ends the socket. */
  end(last?: Buffer): void {
    if (this.ending) return;
    if (last && !this.socket.destroyed) this.queue.push(last);
    this.ending = true;
    if (!this.busy) void this.pump();
  }

  private async pump(): Promise<void> {
    this.busy = true;
    while (this.queue.length && !this.socket.destroyed) {
      const frame = this.queue.shift()!;
      await new Promise<void>((resolve) => this.socket.write(frame, () => resolve()));
      // Two turns of our loop guarantee an I/O poll in between, so a reader in this process sees the frame alone.
      if (this.queue.length) await new Promise<void>((r) => setImmediate(() => setImmediate(r)));
    }
    this.busy = false;
    if (this.ending && !this.socket.destroyed) this.socket.end();
  }
}
