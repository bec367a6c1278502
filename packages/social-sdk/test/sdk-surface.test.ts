/**
 * The SDK's surface beyond the two-players story: AuthorizationArgs as the spec has it, versions and default scopes,
 * statuses and GetCurrentUserV2, ClientResult errors, the HTTP timeout, the manual `runCallbacks()` mode, guild
 * channels sorted as the client sorts them, application profiles, AUTHORIZE_REQUEST kept across a reconnect, unmerge
 * and child tokens, and the builds (the browser bundle runs in Chromium).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ClientResult,
  DEFAULT_HTTP_TIMEOUT_MS,
  ErrorType,
  ExternalAuthType,
  Status,
  sortGuildChannels,
  type GuildChannel,
} from '../src/index.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { startOidcProvider, type OidcProvider } from '../../server/test/helpers/oidc-provider.js';
import { until } from '../../server/test/helpers/wait.js';
import { issueToken } from '../../server/src/services/identity/tokens.js';
import { startGameSite } from './helpers/game-site.js';

const T = { timeout: 90_000 };
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

describe('@accord/social-sdk surface', () => {
  let t: TestServer;
  let idp: OidcProvider;
  let appId = '';
  const owner = () => t.world.users[0];
  const api = (p: string, token: string, method = 'GET', body?: unknown) => t.api(p, { method, token, body });
  const idToken = (sub: string) => idp.idToken(sub, {}, { now: t.server.ctx.clock.now() });

  async function provisionalClient(sub: string, opts: { dispatch?: 'auto' | 'manual' } = {}): Promise<Client> {
    const c = new Client({ apiBase: t.server.url, webBase: t.server.url, ...opts });
    c.setApplicationId(appId);
    const run = <T>(p: Promise<T>) => (opts.dispatch === 'manual' ? pump(c, p) : p);
    const tok = await run(c.getProvisionalToken(appId, ExternalAuthType.OIDC, await idToken(sub)));
    await run(c.updateToken(AuthorizationTokenType.Bearer, tok.accessToken));
    return c;
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    idp = await startOidcProvider('surface-game');
    appId = t.world.applicationId;
    const app = await api(`/applications/${appId}`, owner().token);
    await api(`/applications/${appId}`, owner().token, 'PATCH', { flags: Number(app.body.flags) | (1 << 8) });
    const p = await api(`/applications/${appId}/external-auth-providers`, owner().token, 'POST', { type: 'OIDC', issuer: idp.issuer, client_id: idp.clientId });
    assert.equal(p.status, 201, p.text);
  });
  after(async () => {
    await idp?.close();
    await t?.close();
  });

  test('AuthorizationArgs: getters and setters, copy, validity, nullobj, redirect schemes', () => {
    const a = new AuthorizationArgs();
    assert.equal(a.isValid(), true);
    assert.equal(a.State(), undefined, 'unset: Authorize generates it');
    a.SetClientId('123');
    a.SetScopes(Client.getDefaultPresenceScopes());
    a.SetState('s1');
    a.SetNonce('n1');
    a.SetIntegrationType(1);
    assert.deepEqual([a.ClientId(), a.Scopes(), a.State(), a.Nonce(), a.IntegrationType()], ['123', 'openid sdk.social_layer_presence', 's1', 'n1', 1]);
    assert.equal(a.mobileRedirectUri('123'), 'discord-123:/authorize/callback', 'default scheme from the application id');
    a.SetCustomSchemeParam('mygame');
    assert.equal(a.CustomSchemeParam(), 'mygame');
    assert.equal(a.mobileRedirectUri('123'), 'mygame:/authorize/callback');
    assert.throws(() => a.SetCustomSchemeParam('not a scheme'), TypeError);
    const b = a.copy();
    b.SetScopes('openid');
    assert.equal(a.Scopes(), 'openid sdk.social_layer_presence', 'a copy is independent');
    assert.equal(b.CustomSchemeParam(), 'mygame');
    assert.equal(AuthorizationArgs.nullobj.isValid(), false);
    assert.ok(Object.isFrozen(AuthorizationArgs.nullobj));
  });

  test('versions, default scopes, and Authorize refusing bad arguments', async () => {
    assert.equal(Client.version, '1.10.18687');
    assert.deepEqual([Client.getVersionMajor(), Client.getVersionMinor(), Client.getVersionPatch()], [1, 10, 18687]);
    assert.equal(Client.getDefaultCommunicationScopes(), 'openid sdk.social_layer');
    assert.equal(Client.getDefaultPresenceScopes(), 'openid sdk.social_layer_presence');
    const c = new Client(t.server.url, t.server.url);
    c.setApplicationId(appId);
    await assert.rejects(c.authorize(AuthorizationArgs.nullobj), (e: ClientResult) => e.type === ErrorType.ValidationError);
    await assert.rejects(c.authorize(new AuthorizationArgs()), (e: ClientResult) => e.type === ErrorType.ValidationError);
    const verifier = await c.createAuthorizationCodeVerifier();
    assert.match(verifier.Verifier(), /^[A-Za-z0-9_-]{43}$/);
    assert.match(verifier.Challenge().Challenge(), /^[A-Za-z0-9_-]{43}$/);
  });

  test('ClientResult: HTTP errors with code and status; timeouts are retryable network errors (30 s by default)', async () => {
    const c = await provisionalClient('errors');
    assert.equal(c.getHttpRequestTimeout(), DEFAULT_HTTP_TIMEOUT_MS);
    assert.equal(DEFAULT_HTTP_TIMEOUT_MS, 30_000);
    await assert.rejects(
      c.leaveLobby('123456789012345678'),
      (e: ClientResult) =>
        e.type === ErrorType.HTTPError && e.status === 404 && e.code === 10031 && !e.Retryable() && JSON.parse(e.ResponseBody()).code === 10031,
    );
    const hang = http.createServer(() => {});
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    try {
      const slow = new Client(`http://127.0.0.1:${(hang.address() as any).port}`);
      slow.setHttpRequestTimeout(200);
      await assert.rejects(
        slow.getProvisionalToken(appId, ExternalAuthType.OIDC, 'x'),
        (e: ClientResult) => e.type === ErrorType.NetworkError && e.Retryable(),
      );
      assert.throws(() => slow.setHttpRequestTimeout(0), ClientResult);
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
    c.setEngineManagedAudioSession(true);
    c.setAecDump(true);
    assert.equal(c.getEngineManagedAudioSession(), true);
    assert.equal(c.getAecDump(), true);
  });

  test('manual dispatch: results and events wait for runCallbacks()', async () => {
    const c = await provisionalClient('manual', { dispatch: 'manual' });
    let settled = false;
    const connected = c.connect().then(() => {
      settled = true;
    });
    await until(() => c.getStatus() === Status.Ready, 10_000, 'Ready inside the client');
    assert.equal(settled, false, 'the promise waits for runCallbacks()');
    let statuses = 0;
    c.on('statusChanged', () => statuses++);
    assert.ok(c.runCallbacks() > 0);
    await connected;
    assert.equal(settled, true);
    assert.ok(statuses >= 1, 'queued status events were delivered');
    await pump(c, c.disconnect());
  });

  test('GetGuildChannels: sorted as the client sorts them, with linking facts', async () => {
    const g = t.world.guildId;
    const tok = owner().token;
    const mk = async (body: Record<string, unknown>) => (await api(`/guilds/${g}/channels`, tok, 'POST', body)).body.id as string;
    const catB = await mk({ name: 'b-cat', type: 4, position: 2 });
    const catA = await mk({ name: 'a-cat', type: 4, position: 1 });
    const voiceInA = await mk({ name: 'voice-a', type: 2, parent_id: catA, position: 0 });
    const textInA = await mk({ name: 'text-a', type: 0, parent_id: catA, position: 5 });
    const textInB = await mk({ name: 'text-b', type: 0, parent_id: catB, position: 0 });
    const c = new Client(t.server.url, t.server.url);
    c.setApplicationId(appId);
    // The guild's owner plays too: a Bearer token of the game with the guilds scope.
    const token = await issueToken(t.server.ctx, owner().id, 'bearer', {
      applicationId: appId,
      scopes: ['guilds', 'identify', 'gateway.connect'],
      expiresAt: t.server.ctx.clock.now() + 3600_000,
    });
    await c.updateToken(AuthorizationTokenType.Bearer, token);
    const channels = await c.getGuildChannels(g);
    const mine = new Set([catA, catB, voiceInA, textInA, textInB]);
    assert.deepEqual(
      channels.map((ch) => ch.id).filter((id) => mine.has(id)),
      [catA, textInA, voiceInA, catB, textInB],
      'categories by position, text before voice inside',
    );
    const firstCategory = channels.findIndex((ch) => ch.type === 4);
    assert.ok(
      channels.slice(firstCategory).every((ch) => ch.type === 4 || ch.parentId),
      'channels without a category come first',
    );
    const textA = channels.find((ch) => ch.id === textInA)!;
    assert.equal(textA.isLinkable, true, 'the owner can link a text channel');
    assert.equal(textA.isViewableAndWriteableByAllMembers, true);
    assert.equal(channels.find((ch) => ch.id === voiceInA)!.isLinkable, false);
    const sample: GuildChannel[] = [
      { id: '5', name: 'v', type: 2, position: 0, parentId: null, isLinkable: false, isViewableAndWriteableByAllMembers: false, linkedLobby: null },
      { id: '4', name: 't2', type: 0, position: 1, parentId: null, isLinkable: false, isViewableAndWriteableByAllMembers: false, linkedLobby: null },
      { id: '3', name: 't1', type: 0, position: 1, parentId: null, isLinkable: false, isViewableAndWriteableByAllMembers: false, linkedLobby: null },
    ];
    assert.deepEqual(
      sortGuildChannels(sample).map((ch) => ch.id),
      ['3', '4', '5'],
      'equal positions fall back to the id',
    );
  });

  test('statuses, GetCurrentUserV2, application profiles, and AUTHORIZE_REQUEST kept across a reconnect', async () => {
    const c = await provisionalClient('profiles');
    assert.equal(c.getCurrentUserV2(), undefined);
    assert.deepEqual(c.getUserApplicationProfilesNoLock(), []);
    await c.connect();
    const me = c.getCurrentUserV2()!;
    const profiles = await c.getUserApplicationProfiles();
    assert.deepEqual(
      profiles.map((p) => [p.providerType, p.providerIssuedUserId]),
      [['OIDC', 'profiles']],
    );
    assert.equal(c.getUserApplicationProfilesNoLock().length, 1);
    assert.equal(me.userApplicationProfiles()[0].providerId, idp.issuer);

    // The platform's own client asks the game to authorize; the request still arrives after the Gateway reconnects.
    let requests = 0;
    c.registerAuthorizeRequestCallback(() => requests++);
    const seen: Status[] = [];
    c.on('statusChanged', (e) => seen.push(e.status));
    for (const conn of t.server.gateway.connections) if (conn.session?.userId === me.id()) (conn as any).ws.terminate();
    await until(() => seen.includes(Status.Reconnecting) && c.getStatus() === Status.Ready, 15_000, 'reconnected');
    const userToken = await issueToken(t.server.ctx, me.id(), 'user'); // the platform's client, signed in as the same user
    assert.equal((await api(`/users/@me/applications/${appId}/authorize-request`, userToken, 'POST')).status, 204);
    await until(() => requests === 1, 10_000, 'AUTHORIZE_REQUEST after the reconnect');
    c.removeAuthorizeRequestCallback();
    await c.disconnect();
    assert.equal(c.getStatus(), Status.Disconnected);
  });

  test('unmerge and child tokens through the SDK', async () => {
    const c = new Client(t.server.url, t.server.url);
    c.setApplicationId(appId);
    await assert.rejects(
      c.unmergeIntoProvisionalAccount(appId, ExternalAuthType.OIDC, await idToken('never-merged')),
      (e: ClientResult) => e.code === 10013 || e.code === 50229,
    );
    const prov = await c.getProvisionalToken(appId, ExternalAuthType.OIDC, await idToken('publisher-fan'));
    const child = await api('/applications', owner().token, 'POST', { name: 'Sequel' });
    await fetch(`${t.server.url}/__dev/applications/${child.body.id}/parent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-accord-dev-token': t.server.ctx.config.devToken ?? '' },
      body: JSON.stringify({ parent_application_id: appId }),
    });
    const tok = await c.exchangeChildToken(prov.accessToken, child.body.id);
    assert.equal(tok.refreshToken, '');
    assert.ok(tok.expiresIn > 0);
    const auth = await api('/oauth2/@me', `Bearer ${tok.accessToken}`);
    assert.equal(auth.body.application.id, child.body.id);
  });

  test('ClientResult on a rate limit: retryable, with RetryAfter (an unapproved app: 100 messages per 2 hours)', T, async () => {
    const c = await provisionalClient('chatty');
    const lobbyId = await c.createOrJoinLobby('chatty-lobby');
    let limited: ClientResult | null = null;
    for (let i = 0; i < 120 && !limited; i++) {
      await c.sendLobbyMessage(lobbyId, `m${i}`).catch((e: ClientResult) => {
        limited = e;
      });
    }
    const e = limited as ClientResult | null;
    assert.ok(e, 'the 101st communication call is refused');
    assert.equal(e.type, ErrorType.HTTPError);
    assert.equal(e.status, 429);
    assert.equal(e.Retryable(), true);
    assert.ok(e.RetryAfter() > 0 && e.RetryAfter() <= 7200);
  });

  test('builds: a Node bundle with calls, a browser bundle with calls and without Node built-ins that runs in Chromium', async () => {
    const site = await startGameSite();
    const nodeBuild = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
    assert.equal(nodeBuild.Client.version, '1.10.18687');
    assert.equal(typeof nodeBuild.Call, 'function');
    // Node has no audio devices: the device calls say so; volumes and mute all are kept.
    const nodeClient = new nodeBuild.Client('http://127.0.0.1:9/api', 'http://127.0.0.1:9');
    await assert.rejects(nodeClient.getInputDevices(), (e: ClientResult) => e.type === ErrorType.Disabled);
    await assert.rejects(nodeClient.setOutputDevice('x'), (e: ClientResult) => e.type === ErrorType.Disabled);
    nodeClient.setInputVolume(150);
    nodeClient.setOutputVolume(150);
    nodeClient.setSelfMuteAll(true);
    assert.deepEqual([nodeClient.getInputVolume(), nodeClient.getOutputVolume(), nodeClient.getSelfMuteAll()], [100, 150, true]);
    assert.throws(
      () => nodeClient.setInputVolume(Number.NaN),
      (e: ClientResult) => e.type === ErrorType.ValidationError,
    );
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      // A page on localhost (a secure context: Web Crypto is there) that imports the browser bundle.
      const page = await browser.newPage();
      await page.goto(`${site.origin}/`);
      await page.waitForFunction(() => (window as any).__sdk);
      const out = await page.evaluate(async () => {
        const { Client, AuthorizationArgs, ErrorType, Call } = (window as any).__sdk;
        const c = new Client('http://127.0.0.1:9/api', 'http://127.0.0.1:9');
        const v = await c.createAuthorizationCodeVerifier();
        const args = new AuthorizationArgs();
        args.SetCustomSchemeParam('mygame');
        // This build has calls: starting one needs a Ready client.
        let notReady = false;
        try {
          c.startCall('1');
        } catch (e: any) {
          notReady = e.type === ErrorType.ClientNotReady;
        }
        return { version: Client.version, verifier: v.Verifier().length, redirect: args.mobileRedirectUri('42'), notReady, call: typeof Call };
      });
      assert.deepEqual(out, { version: '1.10.18687', verifier: 43, redirect: 'mygame:/authorize/callback', notReady: true, call: 'function' });
    } finally {
      await browser.close();
      await site.close();
    }
  });
});

/** Runs `runCallbacks()` until the promise settles (manual dispatch). */
async function pump<T>(c: Client, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  while (!done) {
    c.runCallbacks();
    await new Promise((r) => setTimeout(r, 5));
  }
  return p;
}
