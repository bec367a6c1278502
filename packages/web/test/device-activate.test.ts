/**
 * /activate, the person's side of a console sign-in (the OAuth2 device flow the Social SDK's GetTokenFromDevice
 * runs): the device asks for a code pair, the person follows the verification link (the code filled in) or types the
 * code, sees which app asks for what, and authorizes; the device's next poll gets tokens for that person. A wrong code
 * is refused on the page; Cancel gives the device access_denied.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';

describe('device sign-in on /activate', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let secret = '';
  const form = (path: string, body: Record<string, string>) =>
    t.api(path, { method: 'POST', body: new URLSearchParams(body).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  /** The device: a code pair for the world's app. */
  const startDevice = async () => {
    const r = await form('/oauth2/device/authorize', { client_id: t.world.applicationId, scope: 'openid identify' });
    assert.equal(r.status, 200, r.text);
    return r.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string };
  };
  const poll = (deviceCode: string) =>
    form('/oauth2/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: deviceCode,
      client_id: t.world.applicationId,
      client_secret: secret,
    });

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    secret = (await t.api(`/applications/${t.world.applicationId}/reset`, { method: 'POST', token: t.world.users[0].token })).body.secret;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the verification link: the code filled in, the app and its scopes, Authorize; the device gets its tokens', async () => {
    const bob = t.world.users[1];
    const device = await startDevice();
    assert.equal(device.verification_uri, `${t.server.url}/activate`);
    const { context, page } = await newPerson(browser);
    const errors = watchErrors(page);
    await signInAs(page, t.server.url, bob.token, new URL(device.verification_uri_complete).pathname + new URL(device.verification_uri_complete).search);
    assert.equal(await page.getByLabel('Code').inputValue(), device.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    const app = (await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token })).body;
    await page.getByRole('heading', { name: app.name }).waitFor();
    await page.getByText('Access your username, avatar and banner').waitFor();
    await shot(page, 'activate-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'activate-phone');
    assert.equal((await poll(device.device_code)).body.error, 'authorization_pending', 'no answer yet');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByRole('heading', { name: 'Your device is signed in' }).waitFor();
    await shot(page, 'activate-done-phone');
    const tokens = await poll(device.device_code);
    assert.equal(tokens.status, 200, tokens.text);
    const me = await t.api('/users/@me', { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    assert.equal(me.body.id, bob.id);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a typed code: a wrong one is refused on the page; Cancel answers the device with access_denied', async () => {
    const device = await startDevice();
    const { context, page } = await newPerson(browser);
    await signInAs(page, t.server.url, t.world.users[0].token, '/activate');
    await page.getByLabel('Code').fill('bcdf-ghjk');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Invalid or expired user code.').waitFor();
    await shot(page, 'activate-wrong-code-desktop');
    await page.getByLabel('Code').fill(device.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Cancelled' }).waitFor();
    assert.equal((await poll(device.device_code)).body.error, 'access_denied');
    await context.close();
  });
});
