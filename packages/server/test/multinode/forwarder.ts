import net from 'node:net';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * PostgreSQL and Redis listen on loopback in the root namespace, which the nodes' namespaces cannot reach: a TCP
 * forwarder on the bridge address carries their connections. It runs in a process of its own, so the harness's
 * thousands of client sockets never delay the nodes' queries.
 */
export interface Route {
  /** Port to listen on, on the forwarder's host. */
  listen: number;
  /** Where connections go: host:port in the root namespace. */
  to: string;
}

export interface Forwarder {
  close(): void;
}

/** Starts the forwarder process listening on `host` and resolves once every route listens. */
export async function startForwarder(host: string, routes: Route[]): Promise<Forwarder> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [host, JSON.stringify(routes)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m) => (m === 'listening' ? resolve() : reject(new Error(String(m)))));
    child.once('exit', (code) => reject(new Error(`forwarder exited (${code})`)));
  });
  // The harness's exit must not wait for the forwarder; the forwarder exits with the harness (its channel closes).
  child.unref();
  (child.channel as unknown as { unref(): void } | undefined)?.unref();
  return { close: () => void child.kill('SIGKILL') };
}

function serve(host: string, route: Route): Promise<void> {
  const [toHost, toPort] = [route.to.slice(0, route.to.lastIndexOf(':')), Number(route.to.slice(route.to.lastIndexOf(':') + 1))];
  const server = net.createServer((inbound) => {
    const outbound = net.connect(toPort, toHost);
    inbound.setNoDelay(true);
    outbound.setNoDelay(true);
    inbound.pipe(outbound).pipe(inbound);
    const end = () => (inbound.destroy(), outbound.destroy());
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(route.listen, host, () => resolve());
  });
}

// As the forked process: listen on every route, say so, and live until killed.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  const [host, routes] = [process.argv[2], JSON.parse(process.argv[3]) as Route[]];
  Promise.all(routes.map((r) => serve(host, r))).then(
    () => {
      process.send!('listening');
      process.on('disconnect', () => process.exit(0));
    },
    (err) => {
      process.send!(`forwarder: ${err instanceof Error ? err.message : err}`);
      process.exit(1);
    },
  );
}
