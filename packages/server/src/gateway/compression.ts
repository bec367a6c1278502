import zlib from 'node:zlib';

/**
 * zlib-stream transport compression: one deflate context per connection, each message flushed with Z_SYNC_FLUSH so
 * it ends in 00 00 ff ff. The context lives as long as the connection, so it is kept small: a 1 KB window, a small
 * hash (memLevel 3) and a 2 KB output chunk instead of zlib's 16 KB, about 10 KB per connection instead of ~80 KB;
 * clients inflate any window, and repeated JSON keys still fall within 1 KB.
 */
export class ZlibStream {
  private deflate = zlib.createDeflate({ windowBits: 10, memLevel: 3, level: 6, chunkSize: 2048 });
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
