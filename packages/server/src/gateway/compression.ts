import zlib from 'node:zlib';

/**
 * zlib-stream transport compression: one deflate context per connection, each message flushed with Z_SYNC_FLUSH so
 * it ends in 00 00 ff ff. A smaller window and memLevel keep the per-connection cost low; clients inflate any window.
 */
export class ZlibStream {
  private deflate = zlib.createDeflate({ windowBits: 12, memLevel: 5, level: 6 });
  private chunks: Buffer[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly out: (data: Buffer) => void) {
    this.deflate.on('data', (c: Buffer) => this.chunks.push(c));
    this.deflate.on('error', () => {});
  }

  send(frame: string): void {
    this.queue = this.queue.then(
      () =>
        new Promise<void>((resolve) => {
          this.deflate.write(frame);
          this.deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
            const data = Buffer.concat(this.chunks);
            this.chunks = [];
            this.out(data);
            resolve();
          });
        }),
    );
  }

  close(): void {
    this.deflate.close();
  }
}
