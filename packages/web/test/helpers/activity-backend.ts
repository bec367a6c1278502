import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

/**
 * The test Activity's own backend, the way a developer runs one: it serves the page and the bundled Activity (real
 * Embedded App SDK, 2.5.0 or 2.1 through the `eas21` alias), exchanges the SDK's authorization code at the platform's
 * /oauth2/token without a redirect_uri, reads the proxy's signed user headers, and echoes over a WebSocket. The
 * platform reaches it only through the app's URL mappings.
 */

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'activity');

export interface Variant {
  sdk: '2.5' | '2.1';
  /** The page writes its own paths with the /.proxy prefix. */
  proxyPrefix: boolean;
}

export interface ActivityBackend {
  origin: string;
  variant: Variant;
  /** Token exchanges done (code → access token), and the proxy-signed requests seen. */
  exchanges: { code: string; ok: boolean }[];
  signed: { user_id: string; verified: boolean }[];
  close(): Promise<void>;
}

const bundles = new Map<string, Promise<string>>();

function bundle(sdk: Variant['sdk']): Promise<string> {
  let b = bundles.get(sdk);
  if (!b) {
    b = import('esbuild').then(async (esbuild) => {
      const out = await esbuild.build({
        entryPoints: [path.join(FIXTURE, 'main.ts')],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        target: 'es2020',
        // esbuild resolves an alias's target from the working directory, so pin it to this package (not the caller's cwd).
        absWorkingDir: path.join(FIXTURE, '..', '..', '..'),
        alias: sdk === '2.1' ? { '@discord/embedded-app-sdk': 'eas21' } : {},
        logLevel: 'silent',
      });
      return out.outputFiles![0].text;
    });
    bundles.set(sdk, b);
  }
  return b;
}

export async function startActivityBackend(opts: { platformUrl: string; clientId: string; clientSecret: string; verifyKey: string }): Promise<ActivityBackend> {
  const page = fs.readFileSync(path.join(FIXTURE, 'index.html'), 'utf8');
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(opts.verifyKey, 'hex')]);
  const publicKey = crypto.createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const backend: ActivityBackend = { origin: '', variant: { sdk: '2.5', proxyPrefix: false }, exchanges: [], signed: [], close: async () => {} };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://backend');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      if (url.pathname === '/' && req.method === 'GET') {
        const v = backend.variant;
        const script = v.proxyPrefix ? `/.proxy/app-${v.sdk}.js` : `/app-${v.sdk}.js`;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          page
            .replace('%CLIENT_ID%', opts.clientId)
            .replace('%PROXY_PREFIX%', v.proxyPrefix ? '1' : '0')
            .replace('%SCRIPT%', script),
        );
      }
      const js = /^\/app-(2\.5|2\.1)\.js$/.exec(url.pathname);
      if (js) {
        const code = await bundle(js[1] as Variant['sdk']);
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
        return res.end(code);
      }
      if (url.pathname === '/api/token' && req.method === 'POST') {
        const { code } = JSON.parse(body || '{}');
        // The official sample's exchange: no redirect_uri, since the SDK's code was minted without one.
        const form = new URLSearchParams({ client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', code: String(code) });
        const r = await fetch(`${opts.platformUrl}/api/v10/oauth2/token`, { method: 'POST', body: form });
        const token = (await r.json()) as { access_token?: string };
        backend.exchanges.push({ code: String(code), ok: r.ok });
        return json(res, r.ok ? 200 : 400, r.ok ? { access_token: token.access_token } : token);
      }
      if (url.pathname === '/api/whoami') {
        const payload = String(req.headers['x-discord-proxy-payload'] ?? '');
        const sig = String(req.headers['x-signature-ed25519'] ?? '');
        if (!payload || !sig) return json(res, 200, { user_id: null });
        const bytes = Buffer.from(payload, 'base64');
        const data = JSON.parse(bytes.toString('utf8'));
        const verified = crypto.verify(null, bytes, publicKey, Buffer.from(sig, 'hex')) && String(data.created_at) === req.headers['x-signature-timestamp'];
        backend.signed.push({ user_id: data.user_id, verified });
        return json(res, 200, { user_id: verified ? data.user_id : null });
      }
      json(res, 404, { error: 'not found' });
    } catch (err) {
      json(res, 500, { error: String(err) });
    }
  });
  const wss = new WebSocketServer({ server, path: '/api/ws' });
  wss.on('connection', (ws) => ws.on('message', (m) => ws.send(`pong:${m}`)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  backend.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend.close = () =>
    new Promise((r) => {
      wss.close();
      server.closeAllConnections();
      server.close(() => r());
    });
  return backend;
}
