/**
 * AUTHORIZE consent in the open web client: the local client (packages/desktop) logged in as alice, a game on
 * discord-rpc over IPC, and alice's web client in Chromium. With no page linked the terminal asks; once alice's page
 * is open it links (same origin as the server, same account) and shows the request; Authorize gives the game a real
 * code (exchanged and authenticated), Cancel refuses it (5000). Another account's page, a foreign origin and a wrong
 * token never link. When the page goes away, the terminal asks again.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import WebSocket from 'ws';
import type { Browser, Page } from 'playwright-core';
// @ts-expect-error discord-rpc ships no types
import DiscordRpc from 'discord-rpc';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { until } from '../../server/test/helpers/wait.ts';
import { DesktopClient } from '../../desktop/src/client.ts';
import { TerminalPrompter } from '../../desktop/src/consent.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';

describe('consent from the local client in the open web client', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let desktop: DesktopClient;
  let ipcDir = '';
  let secret = '';
  const terminalIn = new PassThrough();
  const terminalOut = new PassThrough();
  let terminalText = '';
  const previous = process.env.XDG_RUNTIME_DIR;
  const games: any[] = [];

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    const alice = t.world.users[0];
    secret = (await t.api(`/applications/${t.world.applicationId}/reset`, { method: 'POST', token: alice.token })).body.secret;
    ipcDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-ipc-'));
    process.env.XDG_RUNTIME_DIR = ipcDir;
    terminalOut.on('data', (c: Buffer) => {
      terminalText += c.toString();
    });
    desktop = await new DesktopClient({ server: t.server.url, token: alice.token, prompter: new TerminalPrompter(terminalIn, terminalOut) }).start();
    assert.ok(desktop.link && desktop.ws?.port);
    browser = await launch();
  });
  after(async () => {
    for (const g of games) await Promise.race([g.destroy(), new Promise((r) => setTimeout(r, 1000))]).catch(() => {});
    await browser?.close();
    await desktop?.stop();
    await t?.close();
    fs.rmSync(ipcDir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = previous;
  });

  /** A game on discord-rpc that logs in with AUTHORIZE (then the token exchange and AUTHENTICATE) against Accord. */
  function game() {
    const client = new DiscordRpc.Client({ transport: 'ipc' });
    client.fetch.endpoint = `${t.server.url}/api`;
    games.push(client);
    return client
      .login({ clientId: t.world.applicationId, clientSecret: secret, scopes: ['rpc', 'identify'], redirectUri: 'http://127.0.0.1/callback' })
      .then(() => client);
  }

  async function openAs(token: string): Promise<Page> {
    const { page } = await newPerson(browser);
    await page.goto(`${t.server.url}/login`);
    await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(token)})`);
    await page.goto(`${t.server.url}/channels/@me`);
    await page.getByRole('navigation', { name: 'Servers' }).waitFor();
    return page;
  }

  test('no page linked: the terminal asks', async () => {
    const login = game();
    await until(() => terminalText.includes('Authorize? [y/N]'));
    assert.match(terminalText, /"Dev Bot" \(application \d+\) asks to connect to your Accord account/);
    terminalIn.write('y\n');
    const client = await login;
    assert.equal(client.user.id, t.world.users[0].id);
    await client.destroy().catch(() => {});
  });

  test("alice's page links and shows the request: Authorize, then Cancel", async () => {
    const page = await openAs(t.world.users[0].token);
    const errors = watchErrors(page);
    await until(() => desktop.link!.linkedPages === 1, 15_000, 'the page links');
    terminalText = '';

    const login = game();
    const dialog = page.getByRole('dialog', { name: 'Authorize an app on this computer' });
    await dialog.waitFor();
    await dialog.getByText('wants to connect to your account').waitFor();
    await page.waitForTimeout(200);
    await shot(page, 'desktop-consent-1-web-dialog');
    await dialog.getByRole('button', { name: 'Authorize' }).click();
    const client = await login;
    // The code was real: exchanged for a token that AUTHENTICATE accepted.
    assert.equal(client.user.id, t.world.users[0].id);
    assert.equal(client.application?.id, t.world.applicationId, 'AUTHENTICATE accepted the exchanged token');
    const me = await fetch(`${t.server.url}/api/v10/oauth2/@me`, { headers: { authorization: `Bearer ${client.accessToken}` } });
    assert.deepEqual(((await me.json()) as { scopes: string[] }).scopes.sort(), ['identify', 'rpc']);
    await dialog.waitFor({ state: 'detached' });
    assert.equal(terminalText, '', 'the terminal was not asked');

    const refused = game().then(
      () => null,
      (e: any) => e,
    ); // settled as soon as it fails (no unhandled rejection)
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const e = await refused;
    assert.equal(e?.code, 5000);
    assert.match(e.message, /access_denied/);
    assert.deepEqual(errors, []);
    await page.context().close();
    await until(() => desktop.link!.linkedPages === 0, 10_000, 'the link closes with the page');
  });

  test('other accounts, other origins and bad tokens never link; without a page the terminal asks again', async () => {
    const port = desktop.ws!.port!;
    const url = `ws://127.0.0.1:${port}/accord-link`;
    // Bob's page finds alice's local client but does not link (and never sends his token to it).
    const bobPage = await openAs(t.world.users[1].token);
    await bobPage.waitForTimeout(1500);
    assert.equal(desktop.link!.linkedPages, 0);
    await bobPage.context().close();
    // A foreign origin cannot even open the socket; the discovery answer names nobody to it.
    const foreign = new WebSocket(url, { origin: 'http://evil.example' });
    const status = await new Promise<number>((resolve) => foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    assert.equal(status, 403);
    const probe = await fetch(`http://127.0.0.1:${port}/accord-link`, { headers: { origin: 'http://evil.example' } });
    assert.deepEqual(await probe.json(), { service: 'accord-desktop-link' });
    const mine = await fetch(`http://127.0.0.1:${port}/accord-link`, { headers: { origin: new URL(t.server.url).origin } });
    assert.deepEqual(await mine.json(), { service: 'accord-desktop-link', user_id: t.world.users[0].id });
    // The right origin with another account's token is closed 4003; a Bearer token is not a person's token.
    for (const token of [t.world.users[1].token, `Bearer ${t.world.users[0].token}`]) {
      const ws = new WebSocket(url, { origin: new URL(t.server.url).origin });
      ws.on('message', (d) => {
        if (JSON.parse(String(d)).op === 'hello') ws.send(JSON.stringify({ op: 'auth', token }));
      });
      assert.equal(await new Promise((resolve) => ws.on('close', (code) => resolve(code))), 4003);
    }
    assert.equal(desktop.link!.linkedPages, 0);

    terminalText = '';
    const login = game().then(
      () => null,
      (e: any) => e,
    );
    await until(() => terminalText.includes('Authorize? [y/N]'));
    terminalIn.write('n\n');
    assert.equal((await login)?.code, 5000);
  });
});
