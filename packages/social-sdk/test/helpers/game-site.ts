import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '../../../server/test/helpers/server.js';

/** packages/social-sdk */
export const SDK_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.map': 'application/json' };

/**
 * A browser game's own site: the SDK's browser build (built here) served from /sdk/ (browser.js, its chunks and
 * davey.wasm), and a page at / that imports it as `window.__sdk`. Listens on localhost, another origin than the
 * API's 127.0.0.1 (both secure contexts, so getUserMedia is allowed).
 */
export async function startGameSite(): Promise<{ origin: string; close(): Promise<void> }> {
  execFileSync(process.execPath, [path.join(SDK_ROOT, 'scripts/build.mjs')], { stdio: 'pipe' });
  const dist = path.join(SDK_ROOT, 'dist');
  const site = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/sdk/')) {
      const file = path.join(dist, path.basename(url.pathname));
      if (!fs.existsSync(file)) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>A browser game</title><script type="module">import * as sdk from "/sdk/browser.js"; window.__sdk = sdk;</script>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  return {
    origin: `http://localhost:${(site.address() as { port: number }).port}`,
    close: () => new Promise((r) => site.close(() => r())),
  };
}

/** The seed world's application as a browser game's: a public client (no secret to keep) trusting `idp`'s ID tokens. */
export async function makeBrowserGameApp(t: TestServer, idp: { issuer: string; clientId: string }): Promise<string> {
  const appId = t.world.applicationId;
  const owner = t.world.users[0].token;
  const app = await t.api(`/applications/${appId}`, { token: owner });
  await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner, body: { flags: Number(app.body.flags) | (1 << 8) } });
  const p = await t.api(`/applications/${appId}/external-auth-providers`, {
    method: 'POST',
    token: owner,
    body: { type: 'OIDC', issuer: idp.issuer, client_id: idp.clientId },
  });
  if (p.status !== 201) throw new Error(`external auth provider: ${p.status} ${p.text}`);
  return appId;
}

/** The strongest frequency of mono samples at 48 kHz, by FFT (Hann window, the largest power of two that fits). */
export function peakHz(samples: ArrayLike<number>, rate = 48_000): { hz: number; binHz: number } {
  let n = 1;
  while (n * 2 <= samples.length) n *= 2;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  const off = samples.length - n;
  for (let i = 0; i < n; i++) re[i] = samples[off + i] * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const a = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len)
      for (let k = 0; k < len / 2; k++) {
        const [wr, wi] = [Math.cos(a * k), Math.sin(a * k)];
        const [xr, xi] = [re[i + k + len / 2], im[i + k + len / 2]];
        const [tr, ti] = [xr * wr - xi * wi, xr * wi + xi * wr];
        re[i + k + len / 2] = re[i + k] - tr;
        im[i + k + len / 2] = im[i + k] - ti;
        re[i + k] += tr;
        im[i + k] += ti;
      }
  }
  let best = 1;
  for (let i = 2; i < n / 2; i++) if (re[i] ** 2 + im[i] ** 2 > re[best] ** 2 + im[best] ** 2) best = i;
  return { hz: (best * rate) / n, binHz: rate / n };
}

/** Root mean square of samples. */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / Math.max(1, samples.length));
}
