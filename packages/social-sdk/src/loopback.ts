import type { Server } from 'node:http';

/**
 * Node's Authorize: a one-shot HTTP server on 127.0.0.1 (ephemeral port) receives the authorization answer at
 * `/callback` (RFC 8252 loopback redirect), checks the state, and tells the browser it may close the page.
 */
export interface LoopbackAnswer {
  code: string;
  state: string | null;
}

export async function startLoopback(): Promise<{ redirectUri: string; answer: Promise<LoopbackAnswer>; close(): void }> {
  const http = await import('node:http');
  let server: Server;
  const answer = new Promise<LoopbackAnswer>((resolve, reject) => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Authorization</title><p>${error ? 'Authorization was not granted.' : 'You can close this window and return to the game.'}</p>`,
      );
      if (error || !code) reject(new Error(error ?? 'no code'));
      else resolve({ code, state: url.searchParams.get('state') });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server!.address() as { port: number }).port;
  return { redirectUri: `http://127.0.0.1:${port}/callback`, answer, close: () => server.close() };
}

/** Opens a URL in the system browser (Node), for Authorize without an `openUrl` option. */
export async function openInBrowser(url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
