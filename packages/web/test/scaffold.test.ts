/**
 * The web client is served on the official paths, and a person can register and reach the client in Chromium.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { webSuite } from './helpers/suite.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';

/** A GET with the given Accept-Encoding, the body as received (fetch would decode it). */
function get(url: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res
          .on('data', (c) => chunks.push(c))
          .on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
          .on('error', reject);
      })
      .on('error', reject);
  });
}

describe('web client: served and signed in', { timeout: 120_000 }, () => {
  const env = webSuite();

  test('every official page path answers with the client; assets are cached; traversal is refused', async () => {
    for (const p of [
      '/app',
      '/login',
      '/register',
      '/channels/@me',
      `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`,
      '/invite/abc',
      '/oauth2/authorize?client_id=1',
      '/developers/applications',
    ]) {
      const r = await fetch(env.t.server.url + p);
      assert.equal(r.status, 200, p);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(r.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.match(await r.text(), /<div id="root">/);
    }
    const html = await (await fetch(`${env.t.server.url}/app`)).text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(js, 'index.html references a script under /assets/');
    const asset = await fetch(env.t.server.url + js);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    // Compressed in the encoding asked for, the same bytes once decoded; sent as they are when none is accepted.
    const raw = await get(env.t.server.url + js, 'identity');
    assert.equal(raw.headers['content-encoding'], undefined);
    for (const [asked, expect, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['br;q=0, gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      const r = await get(env.t.server.url + js, asked);
      assert.equal(r.headers['content-encoding'], expect, asked);
      assert.equal(r.headers.vary, 'accept-encoding');
      assert.ok(r.body.length < raw.body.length / 2, `${expect}: ${r.body.length} of ${raw.body.length} bytes`);
      assert.ok(decode(r.body).equals(raw.body));
    }
    assert.equal((await fetch(`${env.t.server.url}/assets/..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${env.t.server.url}/assets/missing.js`)).status, 404);
    // The API is untouched: an unknown API path keeps the JSON envelope.
    const api = await fetch(`${env.t.server.url}/api/v10/nope`);
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { code: number }).code, 0);
  });

  test('a person registers and lands in the client with a live Gateway session', async () => {
    const { context, page } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await page.goto(`${env.t.server.url}/app`);
    await page.waitForURL(/\/login/);
    await shot(page, 'scaffold-login');
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('Username').fill('dana_web');
    await page.getByLabel('Display name').fill('Dana');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Continue' }).click();
    // The server's 50035 field error is shown next to the field.
    await page
      .getByText(/Password.*(8|length)/i)
      .first()
      .waitFor();
    await shot(page, 'scaffold-register-error');
    await page.getByLabel('Password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/channels\/@me/);
    await page.getByRole('navigation', { name: 'Servers' }).waitFor();
    await shot(page, 'scaffold-home');
    const token = await page.evaluate<string | null>("localStorage.getItem('accord.token')");
    assert.ok(token);
    const me = await env.t.api('/users/@me', { token: token! });
    assert.equal(me.body.username, 'dana_web');

    // Log out, then back in through the login form (a wrong password first).
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email or username').fill('dana_web');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Login or password is invalid.').waitFor();
    await shot(page, 'scaffold-login-error');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/channels\/@me/);
    await page.getByRole('navigation', { name: 'Servers' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
