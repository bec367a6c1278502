/**
 * The web game's own server: it serves the page, the Social SDK's browser build (`/sdk/`, from
 * packages/social-sdk/dist: run `npm run build -w @accord/social-sdk` first), and plays the game's identity provider:
 * an OpenID Connect issuer (discovery document and JWKS) that signs a guest's ID token, which the page trades for a
 * provisional Accord account, and `/authorize/callback` for linking it to an Accord account. `node server.mjs` with ACCORD_URL (http://127.0.0.1:8080), APPLICATION_ID and PORT (8090).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const SDK_DIST = path.join(here, '..', '..', 'packages', 'social-sdk', 'dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.map': 'application/json' };
/** The client id Accord knows this identity provider's tokens by (the app's external auth provider). */
export const CLIENT_ID = 'web-game';

const b64url = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** Starts the game's server; resolves with its origin, its issuer URL and a close function. */
export async function startWebGame({ accordUrl, applicationId, port = 0, host = '127.0.0.1' }) {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'game-1', alg: 'RS256', use: 'sig' };
  let issuer = '';

  /** A guest's ID token: a stable subject per name, valid for an hour. */
  const idToken = (name) => {
    const now = Math.floor(Date.now() / 1000);
    const sub = `guest-${crypto.createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
    const body = `${b64url({ alg: 'RS256', kid: 'game-1', typ: 'JWT' })}.${b64url({ iss: issuer, sub, aud: CLIENT_ID, iat: now, exp: now + 3600, name, preferred_username: name })}`;
    return `${body}.${crypto.sign('sha256', Buffer.from(body), privateKey).toString('base64url')}`;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const file = (p) =>
      fs.existsSync(p) && fs.statSync(p).isFile()
        ? res.writeHead(200, { 'content-type': TYPES[path.extname(p)] ?? 'application/octet-stream' }).end(fs.readFileSync(p))
        : json(404, { error: 'not found' });
    if (url.pathname === '/.well-known/openid-configuration')
      return json(200, { issuer, jwks_uri: `${issuer}/jwks.json`, id_token_signing_alg_values_supported: ['RS256'] });
    if (url.pathname === '/jwks.json') return json(200, { keys: [jwk] });
    if (url.pathname === '/config.json') return json(200, { accordUrl, applicationId });
    if (url.pathname === '/guest' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const name = String(JSON.parse(raw || '{}').name ?? '').trim();
        if (!name || name.length > 32) return json(400, { error: 'a name has 1 to 32 characters' });
        json(200, { idToken: idToken(name) });
      });
      return;
    }
    if (url.pathname.startsWith('/sdk/')) return file(path.join(SDK_DIST, path.basename(url.pathname)));
    if (url.pathname === '/authorize/callback') return file(path.join(here, 'public', 'callback.html'));
    file(path.join(here, 'public', url.pathname === '/' ? 'index.html' : path.basename(url.pathname)));
  });
  await new Promise((r) => server.listen(port, host, r));
  // The page on localhost, the issuer on the address Accord fetches it from.
  const port_ = server.address().port;
  const origin = `http://${host === '127.0.0.1' ? 'localhost' : host}:${port_}`;
  issuer = `http://${host}:${port_}`;
  return { origin, issuer, close: () => new Promise((r) => server.close(() => r())) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const game = await startWebGame({
    accordUrl: process.env.ACCORD_URL ?? 'http://127.0.0.1:8080',
    applicationId: process.env.APPLICATION_ID ?? '',
    port: Number(process.env.PORT ?? 8090),
  });
  console.log(`web game on ${game.origin} (identity provider ${game.issuer}, client id ${CLIENT_ID})`);
}
