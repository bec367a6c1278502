import dgram from 'node:dgram';
import { Sfu, type CapturedFrame, type MediaEvent, type MediaMember, type MediaPatch, type MediaStats } from './sfu.js';

/** Commands from the voice gateway to a media host (plain data, so they can be posted to a worker). */
export type MediaCommand =
  | { t: 'add'; member: MediaMember }
  | { t: 'update'; ssrc: number; patch: MediaPatch }
  | { t: 'remove'; ssrc: number }
  | { t: 'capture'; on: boolean }
  | { t: 'take' }
  | { t: 'stats' };

export type MediaReply = CapturedFrame[] | MediaStats | null;

/** One UDP socket and its SFU. Runs in a worker thread, or in the main thread when workers are off. */
export class MediaHost {
  // Peers are always IPv4 literals (datagram sources, or checked addresses from Select Protocol): a synchronous lookup
  // saves the per-send trip through dns.lookup and process.nextTick.
  private readonly socket = dgram.createSocket({
    type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20,
    lookup: ((host: string, _family: unknown, cb: (err: null, address: string, family: number) => void) => cb(null, host, 4)) as never,
  });
  readonly sfu: Sfu;

  constructor(private readonly emit: (e: MediaEvent) => void) {
    this.sfu = new Sfu((buf, port, ip) => this.socket.send(buf, port, ip), emit);
    this.socket.on('message', (msg, rinfo) => this.sfu.onDatagram(msg, rinfo.address, rinfo.port));
    this.socket.on('error', (err) => console.error('[voice] udp error', err));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.socket.once('error', reject);
      // exclusive: under `--workers` each worker binds its own port itself (also from a media thread).
      this.socket.bind({ port, address: host, exclusive: true }, () => {
        this.socket.off('error', reject);
        const p = this.socket.address().port;
        this.emit({ type: 'listening', port: p });
        resolve(p);
      });
    });
  }

  command(c: MediaCommand): MediaReply {
    switch (c.t) {
      case 'add': this.sfu.add(c.member); return null;
      case 'update': this.sfu.update(c.ssrc, c.patch); return null;
      case 'remove': this.sfu.remove(c.ssrc); return null;
      case 'capture': this.sfu.setCapture(c.on); return null;
      case 'take': return this.sfu.takeCaptured();
      case 'stats': {
        const elu = performance.eventLoopUtilization();
        return { ...this.sfu.stats, busyMs: elu.active, idleMs: elu.idle };
      }
    }
  }

  close(): void {
    try {
      this.socket.close();
    } catch {
      // already closed
    }
  }
}
