/**
 * Social SDK accounts on the server: provisional accounts from OIDC ID tokens (verified with jose against a local
 * provider's JWKS), device ids and the game backend; external auth provider configuration (strict issuer rules, no
 * redirects, old integrations kept until edited); merge through /oauth2/token, unmerge, child tokens, the deprecated
 * refresh grant, bans (tokens gone, restricted provisional account, 530017 until the ban lifts) and
 * APPLICATION_DEAUTHORIZED; the SDK support window.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { startOidcProvider, type OidcProvider } from './helpers/oidc-provider.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import { checkProviderUrl } from '../src/services/identity/provisional/issuer.js';

const T = { timeout: 60_000 };

function expectError(res: { status: number; body: any; text: string }, status: number, code: number) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
}

describe('Social SDK accounts', () => {
  let t: TestServer;
  let idp: OidcProvider;
  let receiver: WebhookReceiver;
  let appId = '';
  let owner = '';
  let secret = '';
  const now = () => t.server.ctx.clock.now();
  const dev = (path: string, body?: unknown, method = 'POST') =>
    fetch(`${t.server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...devHeaders(t) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const partnerToken = (token: string, extra: Record<string, unknown> = {}) =>
    t.api('/partner-sdk/token', { method: 'POST', body: { client_id: appId, external_auth_type: 'OIDC', external_auth_token: token, ...extra } });
  const form = (path: string, body: Record<string, string>) =>
    t.api(path, { method: 'POST', body: new URLSearchParams(body).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  /** Consent as `userToken`, then the code grant with the provisional account's external auth: a merge. */
  async function merge(userToken: string, type: string, token: string) {
    const consent = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'openid sdk.social_layer' })}`, {
      method: 'POST',
      token: userToken,
      body: { authorize: true },
    });
    assert.equal(consent.status, 200, consent.text);
    const code = new URL(consent.body.location).searchParams.get('code')!;
    return form('/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      client_id: appId,
      client_secret: secret,
      external_auth_type: type,
      external_auth_token: token,
    });
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    idp = await startOidcProvider();
    owner = t.world.users[0].token;
    appId = t.world.applicationId;
    const app = await t.api(`/applications/${appId}`, { token: owner });
    await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner, body: { flags: Number(app.body.flags) | (1 << 8) } });
    secret = (await t.api(`/applications/${appId}/reset`, { method: 'POST', token: owner })).body.secret;
    receiver = await WebhookReceiver.start();
    receiver.publicKey = app.body.verify_key;
    const r = await t.api(`/applications/${appId}`, {
      method: 'PATCH',
      token: owner,
      body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: ['APPLICATION_DEAUTHORIZED'] },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await receiver?.close();
    await idp?.close();
    await t?.close();
  });

  test('issuer URLs: https, a public host name, no query, fragment, credentials or IP literal', T, () => {
    const strict = { allowLoopback: false };
    assert.equal(checkProviderUrl('https://login.example.com', strict), null);
    assert.equal(checkProviderUrl('https://login.example.com:8443/tenant', strict), null);
    for (const bad of [
      'http://login.example.com',
      'https://login.example.com/?a=1',
      'https://login.example.com/#x',
      'https://u:p@login.example.com',
      'https://10.0.0.1',
      'https://[::1]',
      'https://intranet',
      'https://idp.local',
      'https://x.internal',
      'https://a.localhost',
      'https://1.in-addr.arpa',
      'not a url',
    ]) {
      assert.notEqual(checkProviderUrl(bad, strict), null, bad);
    }
    // Only a dev server takes an issuer on a loopback address, over http or https.
    assert.notEqual(checkProviderUrl('http://127.0.0.1:9000', strict), null);
    assert.equal(checkProviderUrl('http://127.0.0.1:9000', { allowLoopback: true }), null);
  });

  test('external auth providers: created after discovery, refused on redirects and bad issuers', T, async () => {
    const bad = await t.api(`/applications/${appId}/external-auth-providers`, {
      method: 'POST',
      token: owner,
      body: { type: 'OIDC', issuer: 'https://10.1.2.3', client_id: 'x' },
    });
    expectError(bad, 400, 50035);
    idp.redirectJwks = true;
    const redirected = await t.api(`/applications/${appId}/external-auth-providers`, {
      method: 'POST',
      token: owner,
      body: { type: 'OIDC', issuer: idp.issuer, client_id: idp.clientId },
    });
    expectError(redirected, 400, 50035);
    assert.match(redirected.text, /redirect/);
    idp.redirectJwks = false;
    const created = await t.api(`/applications/${appId}/external-auth-providers`, {
      method: 'POST',
      token: owner,
      body: { type: 'OIDC', issuer: idp.issuer, client_id: idp.clientId },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.jwks_uri, `${idp.issuer}/jwks.json`);
    assert.deepEqual(created.body.algorithms, ['RS256'], 'HS256 is announced but never accepted');
    assert.equal(created.body.strict_validation, true);
    const other = await t.api(`/applications/${appId}/external-auth-providers`, { token: t.world.users[1].token });
    assert.equal(other.status, 403, 'only the owner sees the configuration');
  });

  let player1 = { id: '', token: '' };

  test('POST /partner-sdk/token: a provisional account from a verified ID token, the same one next time', T, async () => {
    const r = await partnerToken(await idp.idToken('player-1', { preferred_username: 'Nova' }, { now: now() }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(r.body.expires_in, 3600, 'a provisional token lives an hour, as the real GetProvisionalToken gives');
    assert.equal(r.body.scope, 'openid sdk.social_layer');
    assert.equal(typeof r.body.id_token, 'string');
    assert.equal(r.body.refresh_token, undefined, 'public clients get no refresh token');
    const me = await t.api('/users/@me', { token: `Bearer ${r.body.access_token}` });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.global_name, 'Nova');
    player1 = { id: me.body.id, token: r.body.access_token };
    const again = await partnerToken(await idp.idToken('player-1', {}, { now: now() }));
    assert.equal((await t.api('/users/@me', { token: `Bearer ${again.body.access_token}` })).body.id, player1.id);
    const profiles = await t.api('/users/@me/application-profiles', { token: `Bearer ${r.body.access_token}` });
    assert.deepEqual(
      profiles.body.map((p: any) => [p.provider_type, p.provider_issued_user_id, p.username]),
      [['OIDC', 'player-1', 'Nova']],
    );
  });

  test('ID tokens are checked: kid, issuer, audience, expiry, age, algorithm; the client secret when given', T, async () => {
    expectError(await partnerToken(await idp.idToken('p', {}, { kid: null, now: now() })), 400, 530027);
    expectError(await partnerToken(await idp.idToken('p', { aud: 'someone-else' }, { now: now() })), 400, 530003);
    expectError(await partnerToken(await idp.idToken('p', { iss: 'https://idp.example.com' }, { now: now() })), 400, 530002);
    expectError(await partnerToken(await idp.idToken('p', {}, { now: now() - 2 * 3600_000 })), 400, 530001);
    expectError(await partnerToken(await idp.idToken('p', { exp: Math.floor(now() / 1000) + 3600 }, { now: now() - 8 * 86400_000 })), 400, 530004);
    const [h, p] = (await idp.idToken('p', {}, { now: now() })).split('.');
    const forged = [Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'k1' })).toString('base64url'), p, 'c2ln'].join('.');
    expectError(await partnerToken(forged), 400, 530020);
    expectError(await partnerToken(`${h}.${p}.AAAA`), 400, 530020);
    expectError(await partnerToken('garbage'), 400, 530020);
    expectError(await partnerToken(await idp.idToken('p', {}, { now: now() }), { client_secret: 'wrong' }), 401, 530007);
    const confidential = await partnerToken(await idp.idToken('p2', {}, { now: now() }), { client_secret: secret });
    assert.equal(confidential.status, 200, confidential.text);
    assert.equal(typeof confidential.body.refresh_token, 'string', 'a confidential caller gets a refresh token');
    expectError(
      await t.api('/partner-sdk/token', { method: 'POST', body: { client_id: appId, external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: 'x' } }),
      403,
      530000,
    );
  });

  test('the deprecated refresh grant still answers for a provisional account', T, async () => {
    const r = await partnerToken(await idp.idToken('refresher', {}, { now: now() }), { client_secret: secret });
    const refreshed = await form('/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: r.body.refresh_token,
      client_id: appId,
      client_secret: secret,
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal(refreshed.body.expires_in, 3600, 'a refreshed provisional token lives an hour too');
    const auth = await t.api('/oauth2/@me', { token: `Bearer ${refreshed.body.access_token}` });
    const left = Date.parse(auth.body.expires) - now();
    assert.ok(left > 3500_000 && left <= 3600_000, `expires in ${left} ms`);
  });

  test('a JWKS that starts redirecting is not followed at verification (530009)', T, async () => {
    // A fresh key id forces a JWKS fetch past the cache.
    idp.redirectJwks = true;
    try {
      expectError(await partnerToken(await idp.idToken('p', {}, { kid: 'rotated', now: now() })), 400, 530009);
    } finally {
      idp.redirectJwks = false;
    }
  });

  test('an integration from before the strict rules keeps working until edited', T, async () => {
    const legacyIdp = await startOidcProvider('legacy-client');
    try {
      const ctx = t.server.ctx;
      await ctx.repos.store.db
        .insertInto('external_auth_providers')
        .values({
          id: ctx.ids.next(),
          application_id: appId,
          type: 'OIDC',
          issuer: legacyIdp.issuer,
          audience: legacyIdp.clientId,
          jwks_uri: null,
          algorithms: null,
          strict: 0,
          created_at: now(),
          updated_at: now(),
        })
        .execute();
      legacyIdp.redirectJwks = true; // it always redirected its JWKS, and that worked
      const r = await partnerToken(await legacyIdp.idToken('legacy-player', {}, { now: now() }));
      assert.equal(r.status, 200, r.text);
      const list = await t.api(`/applications/${appId}/external-auth-providers`, { token: owner });
      const legacy = list.body.find((p: any) => p.issuer === legacyIdp.issuer);
      assert.equal(legacy.strict_validation, false);
      const edited = await t.api(`/applications/${appId}/external-auth-providers/${legacy.id}`, {
        method: 'PATCH',
        token: owner,
        body: { client_id: legacyIdp.clientId },
      });
      expectError(edited, 400, 50035); // edited: the strict rules now apply, and its redirect is refused
      legacyIdp.redirectJwks = false;
      const fixed = await t.api(`/applications/${appId}/external-auth-providers/${legacy.id}`, {
        method: 'PATCH',
        token: owner,
        body: { client_id: legacyIdp.clientId },
      });
      assert.equal(fixed.status, 200, fixed.text);
      assert.equal(fixed.body.strict_validation, true);
      await t.api(`/applications/${appId}/external-auth-providers/${legacy.id}`, { method: 'DELETE', token: owner });
    } finally {
      await legacyIdp.close();
    }
  });

  test('device ids are opt-in per app', T, async () => {
    const body = { client_id: appId, external_auth_type: 'DEVICE_ID', external_auth_token: 'device-0123456789' };
    expectError(await t.api('/partner-sdk/token', { method: 'POST', body }), 403, 530000);
    const p = await t.api(`/applications/${appId}/external-auth-providers`, { method: 'POST', token: owner, body: { type: 'DEVICE_ID' } });
    assert.equal(p.status, 201, p.text);
    const a = await t.api('/partner-sdk/token', { method: 'POST', body });
    const b = await t.api('/partner-sdk/token', { method: 'POST', body });
    assert.equal(a.status, 200, a.text);
    const id = async (tok: string) => (await t.api('/users/@me', { token: `Bearer ${tok}` })).body.id;
    assert.equal(await id(a.body.access_token), await id(b.body.access_token));
    expectError(await t.api('/partner-sdk/token', { method: 'POST', body: { ...body, external_auth_token: 'short' } }), 400, 50035);
  });

  test('merge: the provisional account becomes part of the platform account (friends kept), then unmerge', T, async () => {
    const bob = t.world.users[1];
    const gw = await RawGateway.connect(t.server.url);
    await gw.identify(bob.token);
    const idToken = await idp.idToken('player-1', {}, { now: now() });
    // Player 1 has a game friend before the merge.
    const friendTok = (await partnerToken(await idp.idToken('friend-of-1', {}, { now: now() }))).body.access_token;
    const friend = (await t.api('/users/@me', { token: `Bearer ${friendTok}` })).body.id;
    assert.equal((await t.api(`/users/@me/game-relationships/${friend}`, { method: 'PUT', token: `Bearer ${player1.token}` })).status, 204);
    assert.equal((await t.api(`/users/@me/game-relationships/${player1.id}`, { method: 'PUT', token: `Bearer ${friendTok}` })).status, 204);

    const merged = await merge(bob.token, 'OIDC', idToken);
    assert.equal(merged.status, 200, merged.text);
    const done = await gw.dispatch('USER_MERGE_OPERATION_COMPLETED');
    assert.equal(done.source_user_id, player1.id);
    assert.equal(done.destination_user_id, bob.id);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${player1.token}` })).status, 401, 'the provisional account is gone');
    const rels = await t.api('/users/@me/game-relationships', { token: `Bearer ${merged.body.access_token}` });
    assert.deepEqual(
      rels.body.map((r: any) => [r.id, r.type]),
      [[friend, 1]],
      'the game friend moved over',
    );
    // Signing in with the identity now needs OAuth2.
    expectError(await partnerToken(await idp.idToken('player-1', {}, { now: now() })), 400, 530010);
    // A platform account is not a merge source; a provisional one is no destination.
    expectError(await merge(t.world.users[0].token, 'OIDC', await idp.idToken('player-1', {}, { now: now() })), 400, 530014);

    // Unmerge: a new provisional account (new id) with the game friend; bob's tokens for the app die.
    const unmerge = await t.api('/partner-sdk/provisional-accounts/unmerge', {
      method: 'POST',
      body: { client_id: appId, external_auth_type: 'OIDC', external_auth_token: await idp.idToken('player-1', {}, { now: now() }) },
    });
    assert.equal(unmerge.status, 204, unmerge.text);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${merged.body.access_token}` })).status, 401);
    const back = await partnerToken(await idp.idToken('player-1', {}, { now: now() }));
    const backMe = (await t.api('/users/@me', { token: `Bearer ${back.body.access_token}` })).body;
    assert.notEqual(backMe.id, player1.id);
    assert.notEqual(backMe.id, bob.id);
    const carried = await t.api('/users/@me/game-relationships', { token: `Bearer ${back.body.access_token}` });
    assert.deepEqual(
      carried.body.map((r: any) => r.id),
      [friend],
    );
    await until(
      () => receiver.events('APPLICATION_DEAUTHORIZED').some((e) => e.body.event.data.user.id === bob.id),
      10_000,
      'APPLICATION_DEAUTHORIZED for bob',
    );
    expectError(
      await t.api('/partner-sdk/provisional-accounts/unmerge', {
        method: 'POST',
        body: { client_id: appId, external_auth_type: 'OIDC', external_auth_token: await idp.idToken('player-1', {}, { now: now() }) },
      }),
      400,
      50229,
    );
    gw.close();
  });

  test('UpdateProvisionalAccountDisplayName: a provisional account renames itself; a platform account may not', T, async () => {
    const tok = (await partnerToken(await idp.idToken('renamer', {}, { now: now() }))).body.access_token;
    const rename = (token: string, body: unknown) => t.api('/partner-sdk/provisional-accounts/@me', { method: 'PATCH', token: `Bearer ${token}`, body });
    const r = await rename(tok, { display_name: '  Captain Nova ' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.global_name, 'Captain Nova', r.text);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${tok}` })).body.global_name, 'Captain Nova');
    expectError(await rename(tok, { display_name: 'x'.repeat(33) }), 400, 50035);
    expectError(await rename(tok, {}), 400, 50035);
    // A linked platform account's name is the platform's: 530010.
    const bob = t.world.users[1];
    const consent = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'openid sdk.social_layer' })}`, {
      method: 'POST',
      token: bob.token,
      body: { authorize: true },
    });
    const code = new URL(consent.body.location).searchParams.get('code')!;
    const linked = await form('/oauth2/token', { grant_type: 'authorization_code', code, client_id: appId, client_secret: secret });
    expectError(await rename(linked.body.access_token, { display_name: 'Bobby' }), 400, 530010);
    // A user's own session token is no bearer of the app: refused.
    assert.equal((await t.api('/partner-sdk/provisional-accounts/@me', { method: 'PATCH', token: bob.token, body: { display_name: 'Bobby' } })).status, 401);
  });

  test('GetTokenFromDeviceProvisionalMerge: the device grant with external auth merges the provisional account', T, async () => {
    const reg = await t.api('/auth/register', {
      method: 'POST',
      body: { username: 'carl_console', email: 'carl_console@accord.local', password: 'password-carl', date_of_birth: '1990-01-01' },
    });
    const carlId = (await t.api('/users/@me', { token: reg.body.token })).body.id;
    const idToken = await idp.idToken('console-player', {}, { now: now() });
    const provisional = (await partnerToken(idToken)).body.access_token;
    const provisionalId = (await t.api('/users/@me', { token: `Bearer ${provisional}` })).body.id;
    const start = await form('/oauth2/device/authorize', { client_id: appId, scope: 'openid sdk.social_layer' });
    assert.equal(start.status, 200, start.text);
    const finish = await t.api('/oauth2/device/finish', {
      method: 'POST',
      token: reg.body.token,
      body: { user_code: start.body.user_code, result: 'granted' },
    });
    assert.equal(finish.status, 204, finish.text);
    const tokens = await form('/oauth2/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: start.body.device_code,
      client_id: appId,
      external_auth_type: 'OIDC',
      external_auth_token: idToken,
    });
    assert.equal(tokens.status, 200, tokens.text);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${tokens.body.access_token}` })).body.id, carlId);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${provisional}` })).status, 401, `provisional ${provisionalId} merged away`);
    expectError(await partnerToken(await idp.idToken('console-player', {}, { now: now() })), 400, 530010);
  });

  test('the game backend: /token/bot, merge with the bot-issued access token, /unmerge/bot', T, async () => {
    const bot = (path: string, body: unknown) => t.api(path, { method: 'POST', token: t.world.botToken, bot: true, body });
    const a = await bot('/partner-sdk/token/bot', { external_user_id: 'backend-42', preferred_global_name: 'Backend Player' });
    assert.equal(a.status, 200, a.text);
    assert.equal(typeof a.body.refresh_token, 'string');
    const me = (await t.api('/users/@me', { token: `Bearer ${a.body.access_token}` })).body;
    assert.equal(me.global_name, 'Backend Player');
    const carol = await t.api('/auth/register', {
      method: 'POST',
      body: { username: 'carol_merge', email: 'carol_merge@accord.local', password: 'password-carol', date_of_birth: '1990-01-01' },
    });
    assert.equal(carol.status, 200, carol.text);
    const merged = await merge(carol.body.token, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', a.body.access_token);
    assert.equal(merged.status, 200, merged.text);
    expectError(await bot('/partner-sdk/token/bot', { external_user_id: 'backend-42' }), 400, 530010);
    assert.equal((await bot('/partner-sdk/provisional-accounts/unmerge/bot', { external_user_id: 'backend-42' })).status, 204);
    assert.equal((await bot('/partner-sdk/token/bot', { external_user_id: 'backend-42' })).status, 200);
  });

  test('a ban: tokens deleted, a restricted provisional account, 530017 until the ban lifts', T, async () => {
    const reg = await t.api('/auth/register', {
      method: 'POST',
      body: { username: 'dora_ban', email: 'dora_ban@accord.local', password: 'password-dora', date_of_birth: '1990-01-01' },
    });
    const dora = reg.body;
    const doraId = (await t.api('/users/@me', { token: dora.token })).body.id;
    const idToken = await idp.idToken('banned-player', {}, { now: now() });
    await partnerToken(idToken);
    const merged = await merge(dora.token, 'OIDC', idToken);
    assert.equal(merged.status, 200, merged.text);
    const gw = await RawGateway.connect(t.server.url);
    await gw.identify(dora.token);

    assert.equal((await dev(`/__dev/users/${doraId}/ban`, { reason: 'cheating' })).status, 204);
    assert.equal(await gw.closed, 4004, "the banned account's sessions end");
    assert.equal((await t.api('/users/@me', { token: dora.token })).status, 401);
    assert.equal((await t.api('/users/@me', { token: `Bearer ${merged.body.access_token}` })).status, 401);
    const refresh = await form('/oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: merged.body.refresh_token,
      client_id: appId,
      client_secret: secret,
    });
    assert.equal(refresh.status, 400);
    assert.equal(refresh.body.error, 'invalid_grant');
    const login = await t.api('/auth/login', { method: 'POST', body: { login: 'dora_ban', password: 'password-dora' } });
    assert.equal(login.status, 403, login.text);
    await until(
      () => receiver.events('APPLICATION_DEAUTHORIZED').some((e) => e.body.event.data.user.id === doraId),
      10_000,
      'APPLICATION_DEAUTHORIZED for dora',
    );

    // The identity plays on as a restricted provisional account, which cannot merge while the ban holds.
    const restricted = await partnerToken(await idp.idToken('banned-player', {}, { now: now() }));
    assert.equal(restricted.status, 200, restricted.text);
    const erin = await t.api('/auth/register', {
      method: 'POST',
      body: { username: 'erin_merge', email: 'erin_merge@accord.local', password: 'password-erin', date_of_birth: '1990-01-01' },
    });
    expectError(await merge(erin.body.token, 'OIDC', await idp.idToken('banned-player', {}, { now: now() })), 400, 530017);
    assert.equal((await dev(`/__dev/users/${doraId}/ban`, undefined, 'DELETE')).status, 204);
    const after = await merge(erin.body.token, 'OIDC', await idp.idToken('banned-player', {}, { now: now() }));
    assert.equal(after.status, 200, after.text);
  });

  test('revoking an SDK app is an unmerge (APPLICATION_DEAUTHORIZED, a new provisional account)', T, async () => {
    const reg = await t.api('/auth/register', {
      method: 'POST',
      body: { username: 'finn_revoke', email: 'finn_revoke@accord.local', password: 'password-finn', date_of_birth: '1990-01-01' },
    });
    const idToken = await idp.idToken('revoker', {}, { now: now() });
    const merged = await merge(reg.body.token, 'OIDC', idToken);
    const finnId = (await t.api('/users/@me', { token: reg.body.token })).body.id;
    const revoke = await form('/oauth2/token/revoke', { token: merged.body.access_token, client_id: appId, client_secret: secret });
    assert.equal(revoke.status, 200, revoke.text);
    const back = await partnerToken(await idp.idToken('revoker', {}, { now: now() }));
    assert.equal(back.status, 200, back.text);
    assert.notEqual((await t.api('/users/@me', { token: `Bearer ${back.body.access_token}` })).body.id, finnId);
    await until(
      () => receiver.events('APPLICATION_DEAUTHORIZED').some((e) => e.body.event.data.user.id === finnId),
      10_000,
      'APPLICATION_DEAUTHORIZED for finn',
    );
  });

  test('child tokens: a publisher token exchanged for a game of the publisher', T, async () => {
    const child = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'Child Game' } });
    assert.ok(child.status < 300, child.text);
    const parentTok = (await partnerToken(await idp.idToken('publisher-player', {}, { now: now() }))).body.access_token;
    const body = { parent_access_token: parentTok, child_application_id: child.body.id };
    expectError(await t.api('/partner-sdk/child-token', { method: 'POST', body }), 403, 50001);
    assert.equal((await dev(`/__dev/applications/${child.body.id}/parent`, { parent_application_id: appId })).status, 200);
    const r = await t.api('/partner-sdk/child-token', { method: 'POST', body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.token_type, 'Bearer');
    assert.equal(r.body.refresh_token, undefined);
    assert.ok(r.body.expires_in > 0 && r.body.expires_in <= 604800);
    const auth = await t.api('/oauth2/@me', { token: `Bearer ${r.body.access_token}` });
    assert.equal(auth.body.application.id, child.body.id);
    expectError(await t.api('/partner-sdk/child-token', { method: 'POST', body: { ...body, parent_client_secret: 'nope' } }), 401, 530007);
    expectError(await t.api('/partner-sdk/child-token', { method: 'POST', body: { ...body, parent_access_token: 'unknown' } }), 403, 50025);
  });

  test('end-of-life SDK releases are refused with a clear error; supported ones pass', T, async () => {
    const old = await t.api('/users/@me', { token: owner, headers: { 'x-social-sdk-version': '1.5.12345' } });
    expectError(old, 400, 50041);
    assert.match(old.body.message, /1\.5\.12345 is end-of-life.*1\.6 to 1\.10/);
    assert.equal((await t.api('/users/@me', { token: owner, headers: { 'x-social-sdk-version': '1.6.0' } })).status, 200);
    assert.equal((await t.api('/users/@me', { token: owner, headers: { 'x-social-sdk-version': '1.10.18687' } })).status, 200);
    const gw = await RawGateway.connect(t.server.url);
    await gw.wait((f) => f.op === 10);
    gw.send(2, { token: owner, properties: { os: 'linux', browser: 'Discord Social SDK', sdk_version: '1.4.9000' } });
    assert.equal(await gw.closed, 4012);
  });
});
