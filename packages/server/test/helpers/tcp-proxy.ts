import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 between the server and a dependency (PostgreSQL, Redis), to take the dependency away the
 * way a network cut or a restart does: `cut()` resets every open connection and refuses new ones (accepted, then
 * reset at once, as a host that is down would), `restore()` lets them through again.
 */
export class TcpProxy {
  private readonly server: net.Server;
  private readonly open = new Set<net.Socket>();
  private down = false;
  /** Connections accepted and forwarded so far (tests check that the server reconnected). */
  connections = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  /** Starts a proxy to `host:port` on a random port. */
  static async start(host: string, port: number): Promise<TcpProxy> {
    const p = new TcpProxy({ host, port });
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    return p;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` (postgres://…, redis://…) with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Resets every open connection and refuses new ones until `restore()`. */
  cut(): void {
    this.down = true;
    for (const s of this.open) s.resetAndDestroy();
    this.open.clear();
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.down) return void client.resetAndDestroy();
    this.connections++;
    const upstream = net.connect(this.target.port, this.target.host);
    this.open.add(client);
    this.open.add(upstream);
    const drop = () => {
      this.open.delete(client);
      this.open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
