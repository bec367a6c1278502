/**
 * A browser game on another origin calls the API through the Social SDK's browser bundle: the server answers CORS as
 * the platform does for token-authenticated calls (any origin, no credentials, cached preflights, rate-limit headers
 * exposed). Chromium sends real preflights (JSON bodies, the Authorization and SDK version headers).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { startOidcProvider, type OidcProvider } from '../../server/test/helpers/oidc-provider.js';
import { makeBrowserGameApp, startGameSite } from './helpers/game-site.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('CORS: the Social SDK in a browser page on another origin', { timeout: 120_000 }, () => {
  let t: TestServer;
  let idp: OidcProvider;
  let site: Awaited<ReturnType<typeof startGameSite>>;
  let browser: Browser;
  let appId = '';
  let gameOrigin = '';

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    idp = await startOidcProvider('browser-game');
    appId = await makeBrowserGameApp(t, idp);
    // The game's own site, on localhost (the API is on 127.0.0.1: another origin, both secure contexts).
    site = await startGameSite();
    gameOrigin = site.origin;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await idp?.close();
    await t?.close();
  });

  test('a preflight: 204 for any origin, methods and headers listed, cached, never with credentials', async () => {
    for (const p of ['/api/v10/partner-sdk/token', '/api/v10/users/@me', '/api/v9/channels/1/messages']) {
      const res = await fetch(`${t.server.url}${p}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://game.example',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'authorization,content-type,x-social-sdk-version',
        },
      });
      assert.equal(res.status, 204, p);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(res.headers.get('access-control-allow-methods')!.split(', '), ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
      for (const h of ['authorization', 'content-type', 'x-social-sdk-version', 'x-audit-log-reason', 'x-ratelimit-precision'])
        assert.ok(allowed.includes(h), h);
      assert.equal(res.headers.get('access-control-max-age'), '86400');
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
      assert.equal(await res.text(), '');
    }
    // Answers (errors included) carry the origin and expose the rate-limit headers; pages outside /api get no CORS.
    const me = await fetch(`${t.server.url}/api/v10/users/@me`, { headers: { origin: 'https://game.example', authorization: t.world.users[1].token } });
    assert.equal(me.status, 200);
    assert.equal(me.headers.get('access-control-allow-origin'), '*');
    assert.match(me.headers.get('access-control-expose-headers')!, /X-RateLimit-Reset-After/);
    assert.equal(me.headers.get('access-control-allow-credentials'), null);
    const denied = await fetch(`${t.server.url}/api/v10/users/@me`, { headers: { origin: 'https://game.example' } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), '*');
    const page = await fetch(`${t.server.url}/login`, {
      method: 'OPTIONS',
      headers: { origin: 'https://game.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(page.headers.get('access-control-allow-origin'), null);
  });

  test('from a page on another origin: provisional token, Gateway, rich presence, reads; cookies are never sent', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    // The DevTools protocol shows Chromium's own preflights (Playwright's request events do not).
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Network.enable');
    const preflights: { url: string; status?: number }[] = [];
    const byId = new Map<string, { url: string; status?: number }>();
    cdp.on('Network.requestWillBeSent', (e: any) => {
      if (e.type === 'Preflight' || e.request.method === 'OPTIONS') {
        const p = { url: e.request.url };
        preflights.push(p);
        byId.set(e.requestId, p);
      }
    });
    cdp.on('Network.responseReceived', (e: any) => {
      const p = byId.get(e.requestId);
      if (p) p.status = e.response.status;
    });
    await page.goto(`${gameOrigin}/`);
    await page.waitForFunction(() => (window as any).__sdk);
    const idToken = await idp.idToken('browser-player', { name: 'Browser Player' }, { now: t.server.ctx.clock.now() });

    const out = await page.evaluate(
      async ({ api, appId, idToken }) => {
        const { Client, ExternalAuthType, AuthorizationTokenType, Status } = (window as any).__sdk;
        const c = new Client(`${api}/api`, api);
        c.setApplicationId(appId);
        const tok = await c.getProvisionalToken(appId, ExternalAuthType.OIDC, idToken);
        await c.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
        const ready = new Promise<void>((resolve) => c.on('statusChanged', ({ status }: any) => status === Status.Ready && resolve()));
        await c.connect();
        await ready;
        await c.updateRichPresence({ state: 'In the lobby', details: 'Browser edition' });
        const me = c.getCurrentUserV2();
        // A credentialed request is refused by the browser: the API never allows credentials.
        let credentialed = 'allowed';
        try {
          await fetch(`${api}/api/v10/users/@me`, { credentials: 'include', headers: { authorization: `Bearer ${tok.accessToken}` } });
        } catch (e: any) {
          credentialed = e.name;
        }
        // A direct call with the token, as any browser code would make it.
        const res = await fetch(`${api}/api/v10/users/@me`, { headers: { authorization: `Bearer ${tok.accessToken}` } });
        const body = await res.json();
        const result = { id: me?.id(), provisional: me?.isProvisional(), direct: body.id, via: res.headers.get('via'), credentialed };
        await c.disconnect();
        return result;
      },
      { api: t.server.url, appId, idToken },
    );

    assert.match(out.id ?? '', /^\d+$/);
    assert.equal(out.provisional, true);
    assert.equal(out.direct, out.id);
    assert.equal(out.credentialed, 'TypeError', 'credentials: include fails CORS');
    assert.equal(out.via, '1.1 google', 'exposed headers are readable from the page');
    const seen = preflights.filter((p) => p.url.startsWith(`${t.server.url}/api/`));
    assert.ok(
      seen.some((p) => p.url.includes('/partner-sdk/token')),
      `a preflight for the token exchange: ${JSON.stringify(preflights)}`,
    );
    assert.ok(seen.length > 0 && seen.every((p) => p.status === undefined || p.status === 204), JSON.stringify(seen));
    await ctx.close();
  });
});
