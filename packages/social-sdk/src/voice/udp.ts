import dgram from 'node:dgram';

const DISCOVERY_LEN = 74;

/** The call's UDP socket: IP discovery against the media server, then media both ways, and keepalives. */
export class MediaSocket {
  private readonly socket = dgram.createSocket('udp4');
  private keepalive: ReturnType<typeof setInterval> | null = null;
  onPacket: (pkt: Buffer) => void = () => {};

  constructor(
    readonly ip: string,
    readonly port: number,
  ) {
    this.socket.on('error', () => {});
  }

  /** Sends the 74-byte discovery request for `ssrc`; resolves with the address the server saw. */
  discover(ssrc: number, timeoutMs = 5000): Promise<{ ip: string; port: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('IP discovery timed out')), timeoutMs);
      this.socket.on('message', (msg) => {
        if (msg.length === DISCOVERY_LEN && msg.readUInt16BE(0) === 2) {
          clearTimeout(timer);
          resolve({ ip: msg.subarray(8, 72).toString('ascii').replace(/\0+$/, ''), port: msg.readUInt16BE(72) });
        } else this.onPacket(msg);
      });
      const req = Buffer.alloc(DISCOVERY_LEN);
      req.writeUInt16BE(1, 0);
      req.writeUInt16BE(70, 2);
      req.writeUInt32BE(ssrc, 4);
      this.send(req);
      let counter = 0;
      this.keepalive = setInterval(() => {
        const k = Buffer.alloc(8);
        k.writeUInt32LE(counter++, 0);
        this.send(k);
      }, 5000);
      (this.keepalive as { unref?: () => void }).unref?.();
    });
  }

  send(buf: Buffer): void {
    this.socket.send(buf, this.port, this.ip);
  }

  close(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    try {
      this.socket.close();
    } catch {
      /* closed already */
    }
  }
}
