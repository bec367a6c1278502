/**
 * A real OAuth2 / OpenID Connect client library (openid-client) signs a person in through the consent page: the
 * authorization code flow with PKCE, a signed-out start (log in, then back to the consent), the ID token checked,
 * /users/@me read with the access token; `prompt=none` re-consent; a refusal; and the error pages of bad links.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import * as client from 'openid-client';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';

describe('OAuth2 with PKCE through the consent page, driven by openid-client', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let site: http.Server;
  let redirectUri = '';
  const hits: URL[] = [];

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    browser = await launch();
    // The client's own site: its callback page records what the browser brings back.
    site = http.createServer((req, res) => {
      hits.push(new URL(req.url ?? '/', redirectUri));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Weather Buddy</title><h1>Signing you in…</h1>');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    redirectUri = `http://127.0.0.1:${(site.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => site?.close(r));
    await t?.close();
  });

  /** The developer's app, made through the public API: a redirect URI and a fresh client secret. */
  async function makeClient(): Promise<{ appId: string; config: client.Configuration }> {
    const owner = t.world.users[0].token;
    const app = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'Weather Buddy' } });
    assert.equal(app.status, 200, app.text);
    const patched = await t.api(`/applications/${app.body.id}`, {
      method: 'PATCH',
      token: owner,
      body: { redirect_uris: [redirectUri], description: 'Forecasts for your servers.' },
    });
    assert.equal(patched.status, 200, patched.text);
    const secret = await t.api(`/applications/${app.body.id}/reset`, { method: 'POST', token: owner });
    const base = t.server.url;
    const config = new client.Configuration(
      {
        issuer: base,
        authorization_endpoint: `${base}/oauth2/authorize`,
        token_endpoint: `${base}/api/v10/oauth2/token`,
        userinfo_endpoint: `${base}/api/v10/oauth2/userinfo`,
        jwks_uri: `${base}/api/v10/oauth2/keys`,
      },
      app.body.id,
      secret.body.secret,
    );
    client.allowInsecureRequests(config); // the test server speaks plain http on loopback
    return { appId: app.body.id, config };
  }

  async function startFlow(config: client.Configuration, extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid identify email guilds',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    return { url, verifier, state, nonce };
  }

  const callbackWith = async (state: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const hit = hits.find((h) => h.searchParams.get('state') === state);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error('the browser never came back to the callback');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  test('sign in with PKCE from a signed-out browser, read /users/@me; then prompt=none comes straight back', async () => {
    const { config } = await makeClient();
    const bob = t.world.users[1];
    const { page } = await newPerson(browser);
    const errors = watchErrors(page);

    const first = await startFlow(config);
    await page.goto(first.url.href);
    // Not signed in: the consent page sends the person to log in, and back.
    await page.waitForURL(/\/login\?redirect_to=/);
    await page.getByLabel('Email or username').fill(bob.username);
    await page.getByLabel('Password').fill(bob.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { name: 'Weather Buddy' }).waitFor();
    for (const line of [
      'Access your username, avatar and banner',
      'Access your email address',
      'Know what servers you are in',
      'Sign you in with your Accord account',
    ]) {
      await page.getByText(line).waitFor();
    }
    await page.getByText(`Once you authorize, you will be sent to: ${new URL(redirectUri).origin}`).waitFor();
    await shot(page, 'oauth2-1-consent');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri));

    const back = await callbackWith(first.state);
    assert.ok(back.searchParams.get('code'));
    const tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      expectedNonce: first.nonce,
    });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.claims()?.sub, bob.id);
    const me = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${t.server.url}/api/v10/users/@me`), 'GET');
    assert.equal(me.status, 200);
    const user: any = await me.json();
    assert.equal(user.id, bob.id);
    assert.equal(user.username, bob.username);
    assert.match(user.email, /@/);
    const info = await client.fetchUserInfo(config, tokens.access_token, bob.id);
    assert.equal(info.sub, bob.id);
    // The code was single-use.
    await assert.rejects(
      client.authorizationCodeGrant(config, back, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce }),
    );

    // Re-consent with prompt=none: the person granted these scopes already, so the page sends them straight back.
    const again = await startFlow(config, { prompt: 'none' });
    await page.goto(again.url.href);
    await page.waitForURL((u) => u.href.startsWith(redirectUri) && u.searchParams.get('state') === again.state);
    const tokens2 = await client.authorizationCodeGrant(config, await callbackWith(again.state), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    assert.equal(tokens2.claims()?.sub, bob.id);
    assert.deepEqual(errors, []);
  });

  test('cancel returns access_denied to the client; bad redirect_uri and scope get clear error pages', async () => {
    const { appId, config } = await makeClient();
    const { page } = await newPerson(browser);
    const errors = watchErrors(page);
    await page.goto(`${t.server.url}/login`);
    await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(t.world.users[0].token)})`);

    const flow = await startFlow(config);
    await page.goto(flow.url.href);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.href.startsWith(redirectUri));
    const denied = await callbackWith(flow.state);
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    await assert.rejects(
      client.authorizationCodeGrant(config, denied, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }),
      (err: any) => err instanceof client.AuthorizationResponseError && err.error === 'access_denied',
    );

    await page.goto(
      `${t.server.url}/oauth2/authorize?client_id=${appId}&response_type=code&scope=identify&redirect_uri=${encodeURIComponent('https://elsewhere.test/steal')}`,
    );
    await page.getByRole('heading', { name: 'Invalid redirect URI' }).waitFor();
    await page.getByText('redirect_uri: Invalid "redirect_uri" in request.').waitFor();
    await shot(page, 'oauth2-2-bad-redirect');

    await page.goto(
      `${t.server.url}/oauth2/authorize?client_id=${appId}&response_type=code&scope=identify%20telepathy&redirect_uri=${encodeURIComponent(redirectUri)}`,
    );
    await page.getByRole('heading', { name: 'Invalid scope' }).waitFor();
    await page.getByText('scope: Invalid scope: telepathy').waitFor();
    await shot(page, 'oauth2-3-bad-scope');

    await page.goto(`${t.server.url}/oauth2/authorize?client_id=12345&scope=identify`);
    await page.getByRole('heading', { name: 'Unknown application' }).waitFor();
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
    );
  });
});
