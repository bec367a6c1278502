import dgram from 'node:dgram';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { VoiceFaultTable } from '../../dev/faults/voice.js';
import { Sfu, type CapturedFrame, type MediaEvent, type MediaMember, type MediaPatch, type MediaStats } from './sfu.js';

/** Commands from the voice gateway to a media host (plain data, so they can be posted to a worker). */
export type MediaCommand =
  | { t: 'add'; member: MediaMember }
  | { t: 'update'; ssrc: number; patch: MediaPatch }
  | { t: 'remove'; ssrc: number }
  | { t: 'capture'; on: boolean }
  | { t: 'take' }
  | { t: 'stats' }
  | { t: 'faults'; table: VoiceFaultTable };

export type MediaReply = CapturedFrame[] | MediaStats | null;

/** One UDP socket and its SFU. Runs in a worker thread, or in the main thread when workers are off. */
export class MediaHost {
  // Peers are always IPv4 literals (datagram sources, or checked addresses from Select Protocol): a synchronous lookup
  // saves the per-send trip through dns.lookup and process.nextTick. On an IPv6 (dual-stack) socket they travel as
  // IPv4-mapped addresses and are folded back on receipt, so the SFU only ever sees IPv4.
  private socket: dgram.Socket | null = null;
  private mapped = false;
  readonly sfu: Sfu;

  constructor(private readonly emit: (e: MediaEvent) => void) {
    this.sfu = new Sfu((buf, port, ip) => this.socket?.send(buf, port, this.mapped && net.isIPv4(ip) ? `::ffff:${ip}` : ip), emit);
  }

  listen(host: string, port: number): Promise<number> {
    const bind = udpBinding(host);
    const family = bind.type === 'udp6' ? 6 : 4;
    const socket = dgram.createSocket({
      type: bind.type,
      ipv6Only: false,
      recvBufferSize: 4 << 20,
      sendBufferSize: 4 << 20,
      lookup: ((h: string, _family: unknown, cb: (err: null, address: string, family: number) => void) => cb(null, h, family)) as never,
    });
    this.socket = socket;
    this.mapped = family === 6;
    socket.on('message', (msg, rinfo) => this.sfu.onDatagram(msg, fold(rinfo.address), rinfo.port));
    socket.on('error', (err) => console.error('[voice] udp error', err));
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      // exclusive: under `--workers` each worker binds its own port itself (also from a media thread).
      socket.bind({ port, address: bind.address, exclusive: true }, () => {
        socket.off('error', reject);
        const p = socket.address().port;
        this.emit({ type: 'listening', port: p });
        resolve(p);
      });
    });
  }

  /** The bound address and family (tests). */
  address(): { address: string; family: string; port: number } | null {
    return this.socket ? this.socket.address() : null;
  }

  command(c: MediaCommand): MediaReply {
    switch (c.t) {
      case 'add':
        this.sfu.add(c.member);
        return null;
      case 'update':
        this.sfu.update(c.ssrc, c.patch);
        return null;
      case 'remove':
        this.sfu.remove(c.ssrc);
        return null;
      case 'capture':
        this.sfu.setCapture(c.on);
        return null;
      case 'faults':
        this.sfu.faults = Object.keys(c.table).length ? c.table : null;
        return null;
      case 'take':
        return this.sfu.takeCaptured();
      case 'stats': {
        const elu = performance.eventLoopUtilization();
        return { ...this.sfu.stats, busyMs: elu.active, idleMs: elu.idle };
      }
    }
  }

  close(): void {
    try {
      this.socket?.close();
    } catch {
      // already closed
    }
  }
}

/**
 * Where the media socket binds for the server's --host: an IPv6 host gets an IPv6 socket on '::' (dual-stack, so the
 * IPv4 address clients are given still reaches it); any other host binds its own address ('localhost' as 127.0.0.1).
 */
export function udpBinding(host: string): { type: 'udp4' | 'udp6'; address: string } {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIPv6(bare)) return { type: 'udp6', address: '::' };
  return { type: 'udp4', address: bare === 'localhost' ? '127.0.0.1' : bare };
}

const fold = (a: string) => (a.startsWith('::ffff:') && net.isIPv4(a.slice(7)) ? a.slice(7) : a);
