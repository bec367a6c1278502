/**
 * The web game (examples/web-game) driven by two players in two browsers against a real Accord server, with DAVE
 * required in calls: each signs in as a guest (a provisional account from the game's identity provider), they become
 * friends and see each other's presence, one invites the other into a lobby (an activity invite, accepted), they chat
 * there, and join the lobby's call: each page hears the other's fake microphone (660 Hz and 880 Hz), found by FFT.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../../packages/server/test/helpers/server.js';
import { launchWithTone, peakOf } from '../../../packages/web/test/helpers/voice.ts';
import { makeBrowserGameApp } from '../../../packages/social-sdk/test/helpers/game-site.js';
// @ts-expect-error a plain .mjs module without type declarations
import { CLIENT_ID, startWebGame } from '../server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Records the remote streams the page plays through Web Audio (tracks getUserMedia did not open). */
const TAP_REMOTE = `(() => {
  window.__remote = [];
  const captured = new Set();
  const md = navigator.mediaDevices;
  const gum = md.getUserMedia.bind(md);
  md.getUserMedia = async (c) => {
    const s = await gum(c);
    for (const t of s.getTracks()) captured.add(t.id);
    return s;
  };
  const real = AudioContext.prototype.createMediaStreamSource;
  AudioContext.prototype.createMediaStreamSource = function (stream) {
    if (stream.getAudioTracks().every((t) => !captured.has(t.id))) window.__remote.push(stream);
    return real.call(this, stream);
  };
})()`;

describe('the web game: two players', { timeout: 240_000 }, () => {
  let t: TestServer;
  let game: { origin: string; issuer: string; close(): Promise<void> };
  const browsers: Browser[] = [];

  before(async () => {
    // dev: the game's identity provider is on plain http://127.0.0.1 (production issuers must use https).
    t = await startTestServer({ voiceDave: 'required', overrides: { dev: true } });
    execFileSync(process.execPath, [path.join(here, '../../../packages/social-sdk/scripts/build.mjs')], { stdio: 'pipe' });
    // The developer's setup: a public client (a web page keeps no secret) trusting the game's identity provider.
    game = await startWebGame({ accordUrl: t.server.url, applicationId: t.world.applicationId });
    await makeBrowserGameApp(t, { issuer: game.issuer, clientId: CLIENT_ID });
    const linked = await t.api(`/applications/${t.world.applicationId}`, {
      method: 'PATCH',
      token: t.world.users[0].token,
      body: { redirect_uris: [`${game.origin}/authorize/callback`] },
    });
    assert.equal(linked.status, 200, linked.text);
  });

  after(async () => {
    for (const b of browsers) await b.close();
    await game?.close();
    await t?.close();
  });

  async function player(name: string, hz: number): Promise<{ page: Page; id: string }> {
    const browser = await launchWithTone(hz);
    browsers.push(browser);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(TAP_REMOTE);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => assert.fail(`${name}'s page: ${e.stack ?? e}`));
    await page.goto(`${game.origin}/`);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByText(`Playing as ${name}`).waitFor();
    return { page, id: (await page.locator('#me').getAttribute('data-id'))! };
  }

  test('a guest signs in and links, friends with presence, an invite accepted into a lobby, chat, and a call heard both ways', async () => {
    const ann = await player('Ann', 660);
    const ben = await player('Ben', 880);

    // Ann links her Accord account: the consent screen in a popup (she signs in there), then her guest account merges.
    const account = t.world.users[1];
    const [popup] = await Promise.all([ann.page.waitForEvent('popup'), ann.page.getByRole('button', { name: 'Link your Accord account' }).click()]);
    await popup.waitForURL(/\/login\?redirect_to=/);
    await popup.getByLabel('Email or username').fill(account.username);
    await popup.getByLabel('Password').fill(account.password);
    await popup.getByRole('button', { name: 'Log In' }).click();
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Authorize' }).click();
    await closed; // the game's callback page closes the popup, possibly before the click's own wait ends
    await ann.page.getByText(`(player id ${account.id}, linked)`).waitFor();
    ann.id = account.id;
    // From now on Ann plays under her Accord account's name.
    const annName = (await t.api('/users/@me', { token: account.token })).body.global_name as string;

    // Friends: Ann asks, Ben accepts; each sees the other online.
    await ann.page.getByLabel('Player id').fill(ben.id);
    await ann.page.getByRole('button', { name: 'Add friend' }).click();
    await ben.page.locator(`#friends li[data-user="${ann.id}"]`).getByRole('button', { name: 'Accept' }).click();
    await ann.page.locator(`#friends li[data-user="${ben.id}"][data-status="online"]`).waitFor();
    await ben.page.locator(`#friends li[data-user="${ann.id}"][data-status="online"]`).waitFor();

    // Ann opens a lobby: Ben sees it in her presence; she invites him and he accepts into the same lobby.
    await ann.page.getByLabel('Lobby name').fill('harbor-1');
    await ann.page.getByRole('button', { name: 'Join lobby' }).click();
    await ben.page.locator(`#friends li[data-user="${ann.id}"]`, { hasText: 'In a lobby' }).waitFor();
    await ann.page.locator(`#friends li[data-user="${ben.id}"]`).getByRole('button', { name: 'Invite' }).click();
    await ben.page
      .locator('#invites li', { hasText: `${annName} invites you` })
      .getByRole('button', { name: 'Accept' })
      .click();
    const lobbyId = await ann.page.locator('#lobby').getAttribute('data-id');
    await ben.page.locator(`#lobby[data-id="${lobbyId}"]`).waitFor();
    await ann.page.locator('#lobby-members', { hasText: 'Ben' }).waitFor();

    // Chat in the lobby.
    await ann.page.getByLabel('Message').fill('meet at the docks');
    await ann.page.getByRole('button', { name: 'Send' }).click();
    await ben.page.locator('#chat li', { hasText: `${annName}: meet at the docks` }).waitFor();

    // The lobby's call: both connected (DAVE is required), and each hears the other's microphone.
    await ann.page.getByRole('button', { name: 'Join voice' }).click();
    await ben.page.getByRole('button', { name: 'Join voice' }).click();
    await ann.page.locator('#voice-status[data-status="4"]', { hasText: 'with Ben' }).waitFor({ timeout: 30_000 });
    await ben.page.locator('#voice-status[data-status="4"]', { hasText: `with ${annName}` }).waitFor({ timeout: 30_000 });
    // What each page plays: the last remote stream it took into Web Audio.
    const last = 'window.__remote[window.__remote.length - 1]';
    const [atAnn, atBen] = await Promise.all([peakOf(ann.page, last), peakOf(ben.page, last)]);
    assert.ok(atAnn && atBen, 'both heard the other');
    assert.ok(Math.abs(atAnn.hz - 880) <= 2 * atAnn.binHz, `Ann heard ${atAnn.hz.toFixed(1)} Hz, not Ben's 880 Hz`);
    assert.ok(Math.abs(atBen.hz - 660) <= 2 * atBen.binHz, `Ben heard ${atBen.hz.toFixed(1)} Hz, not Ann's 660 Hz`);
    await ann.page.getByRole('button', { name: 'Leave voice' }).click();
  });
});
