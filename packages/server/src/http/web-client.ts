import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../services/context.js';
import { proxyOriginPattern } from '../services/activities/origins.js';
import { isLocalRequest, isLoopbackHost } from '../dev/guard.js';
import { compressed, isCompressible, pickEncoding } from './static-compression.js';

/**
 * The web client (packages/web, built by Vite) on the official client's paths. Every page path answers with the
 * same index.html and the client routes itself; hashed assets live under /assets/, which no API or CDN path uses.
 * The client talks to the public API and the Gateway only, exactly like a third-party client could.
 */

/** Page paths of the official client (fastify syntax). */
const PAGES = [
  '/app',
  '/login',
  '/register',
  '/channels/@me',
  '/channels/@me/:channel',
  '/channels/:guild',
  '/channels/:guild/:channel',
  '/channels/:guild/:channel/:message',
  '/invite/:code',
  '/oauth2/authorize',
  '/oauth2/authorized',
  '/activate',
  '/developers',
  '/developers/*',
  '/application-directory/*',
  '/store/*',
  '/settings/*',
  '/activities/*',
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
};

/**
 * Pages may not be framed (the consent page above all); scripts and styles come from this origin only. Besides this
 * origin and WebSockets, a page may reach the local client on loopback (the desktop link's discovery, 6463–6472).
 * 'wasm-unsafe-eval' lets the page compile WebAssembly (DAVE for voice), and nothing else: no eval of script.
 */
const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob: http: https:; media-src 'self' blob: http: https:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss: http://127.0.0.1:*; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** packages/web/dist next to this package, found from this file whether it runs from src/ (tsx) or the dist/ bundle. */
export function defaultWebDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.resolve(dir, '..', 'web', 'dist');
}

export function registerWebClient(app: FastifyInstance, ctx: Ctx): void {
  const root = path.resolve(ctx.config.webDir || defaultWebDir());
  const assets = path.join(root, 'assets');
  let index: Buffer | null = null; // read once; a rebuilt client is picked up at the next start

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    index ??= fs.existsSync(path.join(root, 'index.html')) ? fs.readFileSync(path.join(root, 'index.html')) : null;
    // Activities run in frames of their own origins on the proxy host (services/activities/origins.ts).
    reply
      .header('content-security-policy', `${PAGE_CSP}; frame-src 'self' ${proxyOriginPattern(ctx)}`)
      .header('x-frame-options', 'DENY')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin');
    if (!index) return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT(root));
    const token = devTokenFor(ctx, req);
    if (token) return reply.code(200).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(withDevToken(index, token));
    return reply.code(200).type('text/html; charset=utf-8').send(index);
  };
  for (const p of PAGES) app.get(p, page);
  app.get('/', (_req, reply) => reply.redirect('/app'));

  app.get('/assets/*', async (req, reply) => {
    const name = (req.params as Record<string, string>)['*'] ?? '';
    // Flat, hashed file names, or a Twemoji image in twemoji/: nothing can climb out of the assets folder.
    const file = /^(twemoji\/)?[\w-][\w.-]*$/.test(name) ? path.join(assets, name) : null;
    const stat = file ? await fs.promises.stat(file).catch(() => null) : null;
    if (!file || !stat?.isFile()) {
      return reply
        .code(404)
        .type('application/json')
        .send(JSON.stringify({ message: '404: Not Found', code: 0 }));
    }
    const ext = path.extname(name);
    reply
      .code(200)
      .header('content-type', TYPES[ext] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff');
    if (!isCompressible(ext)) return reply.header('content-length', String(stat.size)).send(fs.createReadStream(file));
    reply.header('vary', 'accept-encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.header('content-length', String(stat.size)).send(fs.createReadStream(file));
    const body = await compressed(file, stat.mtimeMs, encoding, () => fs.promises.readFile(file));
    return reply.header('content-encoding', encoding).header('content-length', String(body.length)).send(body);
  });
}

/**
 * With --dev, a page loaded on this machine through a loopback Host carries the dev token for the client's dev tools
 * (act as user, clock, inspector). Other origins cannot read the page (no CORS on it), and a rebound DNS name fails
 * the Host check, so only the local developer's own tab sees it.
 */
function devTokenFor(ctx: Ctx, req: FastifyRequest): string | null {
  return ctx.config.dev && ctx.config.devToken && isLocalRequest(req) && isLoopbackHost(req) ? ctx.config.devToken : null;
}

function withDevToken(index: Buffer, token: string): string {
  const meta = `<meta name="accord-dev-token" content="${token.replace(/[^\w-]/g, '')}">`;
  const html = index.toString('utf8');
  return html.includes('</head>') ? html.replace('</head>', `${meta}</head>`) : meta + html;
}

const NOT_BUILT = (dir: string) => `<!doctype html><meta charset="utf-8"><title>Accord</title>
<body style="font:16px system-ui;background:#1e1f22;color:#dbdee1;display:grid;place-items:center;height:100vh;margin:0">
<div><h1 style="font-size:20px">The web client is not built</h1><p>No build was found in <code>${dir.replace(/[<>&]/g, '')}</code>.</p>
<p>Run <code>npm run build -w @accord/web</code> (or <code>npm install</code>) and restart the server.</p></div></body>`;
