import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import type { BusEvent } from '../src/bus/bus.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

let t: TestServer;
let appId: string;
let secret: string;
const REDIRECT = 'http://localhost:5173/callback';
const events: BusEvent[] = [];

const owner = () => t.world.users[0];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (id: string, s: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${s}`).toString('base64')}` });

/** POST a form-encoded body, the way OAuth2 clients do. */
function form(path: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(Object.entries(fields).filter(([, v]) => v !== undefined) as [string, string][]).toString();
  return t.api(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}
const token = (fields: Record<string, string | undefined>, headers?: Record<string, string>) => form('/oauth2/token', fields, headers);

const pkce = () => {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
};

/** The user consents; returns the parsed redirect location. */
async function consent(userToken: string, query: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, ...query })}`, {
    method: 'POST',
    token: userToken,
    body: { authorize: true, ...body },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.location, res.body.url);
  return new URL(res.body.location);
}

async function codeFor(userToken: string, scope: string, extra: Record<string, string> = {}) {
  const loc = await consent(userToken, { response_type: 'code', scope, redirect_uri: REDIRECT, state: 'st4te', ...extra });
  assert.equal(loc.origin + loc.pathname, REDIRECT);
  assert.equal(loc.searchParams.get('state'), 'st4te');
  return loc.searchParams.get('code')!;
}

async function fullTokens(userToken: string, scope: string) {
  const code = await codeFor(userToken, scope);
  const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, basic(appId, secret));
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; id_token?: string; guild?: any };
}

async function newUser(name: string) {
  const reg = await t.api('/auth/register', {
    method: 'POST',
    body: { username: `${name}_${crypto.randomBytes(2).toString('hex')}`, password: 'hunter2hunter2', email: `${name}@example.test` },
  });
  assert.equal(reg.status, 200, reg.text);
  const me = await t.api('/users/@me', { token: reg.body.token });
  return { id: me.body.id as string, token: reg.body.token as string };
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  appId = t.world.applicationId;
  t.server.ctx.bus.subscribe((e) => {
    if (e.t.startsWith('__APPLICATION_')) events.push(e);
  });
  const patch = await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner().token, body: { redirect_uris: [REDIRECT] } });
  assert.equal(patch.status, 200, patch.text);
  const reset = await t.api(`/applications/${appId}/reset`, { method: 'POST', token: owner().token });
  assert.equal(reset.status, 200);
  secret = reset.body.secret;
});
after(async () => t.close());

test('application fields: editable by the owner, validated, and the client secret is shown once and stored hashed', async () => {
  // The event webhooks URL is verified with a signed PING when set: point it at an endpoint that answers it.
  const events = await WebhookReceiver.start();
  after(() => events.close());
  events.publicKey = (await t.api(`/applications/${appId}`, { token: owner().token })).body.verify_key;
  const body = {
    description: 'A test app',
    tags: ['fun', 'tools'],
    install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
    integration_types_config: {
      '0': { oauth2_install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' } },
      '1': { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
    },
    role_connections_verification_url: 'https://example.test/verify',
    custom_install_url: 'https://example.test/install',
    event_webhooks_url: events.url,
    event_webhooks_status: 2,
    event_webhooks_types: ['APPLICATION_AUTHORIZED', 'ENTITLEMENT_CREATE'],
  };
  const res = await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner().token, body });
  assert.equal(res.status, 200, res.text);
  for (const [k, v] of Object.entries(body)) assert.deepEqual(res.body[k], v, k);
  assert.equal(typeof res.body.flags, 'number');
  assert.equal(typeof res.body.flags_new, 'string');
  assert.equal(res.body.approximate_guild_count, 1);

  const viaBot = await t.api('/applications/@me', { token: t.world.botToken, bot: true });
  assert.equal(viaBot.status, 200);
  assert.deepEqual(viaBot.body.integration_types_config, body.integration_types_config);
  const botPatch = await t.api('/applications/@me', { method: 'PATCH', token: t.world.botToken, bot: true, body: { tags: ['bot-set'] } });
  assert.deepEqual(botPatch.body.tags, ['bot-set']);

  const bad = async (b: Record<string, unknown>, path: string[]) => {
    const r = await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner().token, body: b });
    assert.equal(r.status, 400, JSON.stringify(b));
    assert.equal(r.body.code, 50035);
    let node = r.body.errors;
    for (const k of path) node = node?.[k];
    assert.ok(node?._errors?.length, `${JSON.stringify(b)} → ${r.text}`);
  };
  await bad({ integration_types_config: { '2': {} } }, ['integration_types_config']);
  await bad({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, ['tags']);
  await bad({ tags: ['x'.repeat(21)] }, ['tags', '0']);
  await bad({ event_webhooks_status: 3 }, ['event_webhooks_status']);
  await bad({ event_webhooks_types: ['NOPE'] }, ['event_webhooks_types', '0']);
  await bad({ install_params: { scopes: ['bot', 'nope'], permissions: '0' } }, ['install_params', 'scopes', '1']);
  await bad({ integration_types_config: { '1': { oauth2_install_params: { scopes: ['bot'], permissions: '8' } } } }, [
    'integration_types_config',
    '1',
    'oauth2_install_params',
    'scopes',
  ]);
  await bad({ role_connections_verification_url: 'not a url' }, ['role_connections_verification_url']);

  // Another user cannot read, edit or reset the app.
  const stranger = t.world.users[1].token;
  assert.equal((await t.api(`/applications/${appId}`, { token: stranger })).status, 403);
  assert.equal((await t.api(`/applications/${appId}/reset`, { method: 'POST', token: stranger })).body.code, 20012);

  // Secret reset: the old secret stops working, only a hash is stored, and the app object never shows it.
  const old = secret;
  const reset = await t.api(`/applications/${appId}/reset`, { method: 'POST', token: owner().token });
  assert.match(reset.body.secret, /^[A-Za-z0-9_-]{32}$/);
  secret = reset.body.secret;
  const row = await t.server.ctx.repos.store.db.selectFrom('applications').select('client_secret_hash').where('id', '=', appId).executeTakeFirstOrThrow();
  assert.notEqual(row.client_secret_hash, secret);
  const refused = await token({ grant_type: 'client_credentials', scope: 'identify' }, basic(appId, old));
  assert.equal(refused.status, 401);
  assert.equal(refused.body.error, 'invalid_client');
  assert.match(refused.headers.get('www-authenticate') ?? '', /^Basic/);
  assert.equal((await token({ grant_type: 'client_credentials', scope: 'identify' }, basic(appId, secret))).status, 200);
  assert.equal(JSON.stringify((await t.api(`/applications/${appId}`, { token: owner().token })).body).includes(secret), false);
});

test('authorization code with PKCE S256, end to end: token, /users/@me, refresh rotation, revoke, invalid_grant', async () => {
  const { verifier, challenge } = pkce();
  const user = owner();
  const code = await codeFor(user.token, 'identify email', { code_challenge: challenge, code_challenge_method: 'S256' });
  // A PKCE exchange needs no client secret.
  const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: appId });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.body.token_type, 'Bearer');
  assert.equal(res.body.expires_in, 604800);
  assert.equal(res.body.scope, 'identify email');
  assert.equal(typeof res.body.refresh_token, 'string');
  assert.equal(res.body.id_token, undefined);

  const me = await t.api('/users/@me', { headers: bearer(res.body.access_token) });
  assert.equal(me.status, 200);
  assert.equal(me.body.id, user.id);
  assert.equal(me.body.email, `${user.username}@accord.local`);

  const info = await t.api('/oauth2/@me', { headers: bearer(res.body.access_token) });
  assert.equal(info.status, 200);
  assert.deepEqual(info.body.scopes, ['identify', 'email']);
  assert.equal(info.body.application.id, appId);
  assert.equal(info.body.user.id, user.id);
  assert.ok(Date.parse(info.body.expires) > Date.now() + 6 * 86400_000);

  const refreshed = await token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token }, basic(appId, secret));
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.notEqual(refreshed.body.refresh_token, res.body.refresh_token);
  assert.equal(refreshed.body.scope, 'identify email');
  assert.equal((await t.api('/users/@me', { headers: bearer(refreshed.body.access_token) })).status, 200);

  // Rotation: the spent refresh token is invalid_grant.
  const stale = await token({ grant_type: 'refresh_token', refresh_token: res.body.refresh_token }, basic(appId, secret));
  assert.equal(stale.status, 400);
  assert.deepEqual(stale.body, { error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });

  const before = events.length;
  const revoke = await form('/oauth2/token/revoke', { token: refreshed.body.access_token, token_type_hint: 'access_token' }, basic(appId, secret));
  assert.equal(revoke.status, 200);
  assert.deepEqual(revoke.body, {});
  const deauth = events.slice(before).find((e) => e.t === '__APPLICATION_DEAUTHORIZED');
  assert.ok(deauth);
  assert.equal(deauth.d.application_id, appId);
  assert.equal(deauth.d.user.id, user.id);
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(deauth.d)));

  const afterRevoke = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, basic(appId, secret));
  assert.equal(afterRevoke.status, 400);
  assert.equal(afterRevoke.body.error, 'invalid_grant');
  // Every token of the app for that user is gone, not just the one presented.
  for (const tok of [res.body.access_token, refreshed.body.access_token]) {
    const r = await t.api('/users/@me', { headers: bearer(tok) });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { message: '401: Unauthorized', code: 0 });
  }
  // Revoking an unknown token is still 200 (RFC 7009).
  assert.equal((await form('/oauth2/token/revoke', { token: 'nope' }, basic(appId, secret))).status, 200);
  // The code is single use (a replay also revokes what it issued: security-round3.test.ts).
  const again = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: appId });
  assert.equal(again.status, 400);
  assert.equal(again.body.error, 'invalid_grant');
});

test('PKCE plain; a wrong verifier, a missing secret and a redirect_uri mismatch are refused', async () => {
  const user = owner();
  const verifier = crypto.randomBytes(40).toString('base64url');
  const plainCode = await codeFor(user.token, 'identify', { code_challenge: verifier, code_challenge_method: 'plain' });
  const plain = await token({ grant_type: 'authorization_code', code: plainCode, redirect_uri: REDIRECT, code_verifier: verifier, client_id: appId });
  assert.equal(plain.status, 200, plain.text);

  const { challenge } = pkce();
  const wrongCode = await codeFor(user.token, 'identify', { code_challenge: challenge, code_challenge_method: 'S256' });
  const wrong = await token({ grant_type: 'authorization_code', code: wrongCode, redirect_uri: REDIRECT, code_verifier: pkce().verifier, client_id: appId });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, 'invalid_grant');

  // Without PKCE a confidential client must authenticate.
  const noPkce = await codeFor(user.token, 'identify');
  const noSecret = await token({ grant_type: 'authorization_code', code: noPkce, redirect_uri: REDIRECT, client_id: appId });
  assert.equal(noSecret.status, 401);
  assert.equal(noSecret.body.error, 'invalid_client');

  // The token request must repeat the authorize redirect_uri.
  const mismatch = await codeFor(user.token, 'identify');
  const bad = await token({ grant_type: 'authorization_code', code: mismatch, redirect_uri: 'http://localhost:5173/other' }, basic(appId, secret));
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' });

  // A redirect_uri the app did not register is refused at authorize time.
  const unregistered = await t.api(
    `/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'identify', redirect_uri: 'https://evil.test/cb' })}`,
    { token: user.token },
  );
  assert.equal(unregistered.status, 400);
  assert.equal(unregistered.body.errors.redirect_uri._errors[0].code, 'REDIRECT_URI_INVALID');
  // Unknown scopes are 50035 SCOPE_INVALID on the consent API, and invalid_scope at the token endpoint.
  const unknown = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'identify made.up' })}`, {
    token: user.token,
  });
  assert.equal(unknown.body.errors.scope._errors[0].code, 'SCOPE_INVALID');
  assert.equal((await t.api(`/oauth2/authorize?client_id=1&scope=identify&response_type=code`, { token: user.token })).body.code, 10002);
  // Codes minted without a redirect_uri (Embedded App SDK, RPC) accept any or none at exchange.
  const loc = await consent(user.token, { response_type: 'code', scope: 'identify' });
  const bare = await token({ grant_type: 'authorization_code', code: loc.searchParams.get('code')!, redirect_uri: 'undefined' }, basic(appId, secret));
  assert.equal(bare.status, 200, bare.text);

  assert.equal((await token({ grant_type: 'password' }, basic(appId, secret))).body.error, 'unsupported_grant_type');
  assert.equal((await token({}, basic(appId, secret))).body.error, 'invalid_request');
  // Client auth in the form works like Basic.
  const formAuth = await token({ grant_type: 'client_credentials', client_id: appId, client_secret: secret });
  assert.equal(formAuth.status, 200);
  // JSON bodies are accepted too.
  const json = await t.api('/oauth2/token', { method: 'POST', body: { grant_type: 'client_credentials', client_id: appId, client_secret: secret } });
  assert.equal(json.status, 200, json.text);
});

test('consent preview, a denied consent, and the implicit grant', async () => {
  const user = owner();
  const preview = await t.api(
    `/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'bot identify', redirect_uri: REDIRECT, permissions: '2048' })}`,
    { token: user.token },
  );
  assert.equal(preview.status, 200, preview.text);
  assert.equal(preview.body.application.id, appId);
  assert.equal(preview.body.user.id, user.id);
  assert.equal(preview.body.bot.id, t.world.botUserId);
  assert.equal(preview.body.integration_type, 0);
  assert.equal(preview.body.redirect_uri, REDIRECT);
  assert.equal(typeof preview.body.authorized, 'boolean');
  assert.deepEqual(Object.keys(preview.body.guilds[0]).sort(), ['icon', 'id', 'mfa_level', 'name', 'permissions']);
  assert.ok(preview.body.guilds.some((g: any) => g.id === t.world.guildId));
  // The second user is not a manager of the seeded guild: no guild to pick.
  const other = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'bot' })}`, { token: t.world.users[1].token });
  assert.deepEqual(other.body.guilds, []);

  const denied = await t.api(
    `/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'identify', redirect_uri: REDIRECT, state: 'x' })}`,
    { method: 'POST', token: user.token, body: { authorize: false } },
  );
  const loc = new URL(denied.body.location);
  assert.equal(loc.searchParams.get('error'), 'access_denied');
  assert.equal(loc.searchParams.get('state'), 'x');

  const implicit = await consent(user.token, { response_type: 'token', scope: 'identify', redirect_uri: REDIRECT, state: 'imp' });
  const frag = new URLSearchParams(implicit.hash.slice(1));
  assert.equal(frag.get('token_type'), 'Bearer');
  assert.equal(frag.get('state'), 'imp');
  assert.equal((await t.api('/users/@me', { headers: bearer(frag.get('access_token')!) })).body.id, user.id);
});

test('bot scope through the code flow installs the bot and returns the guild with the token', async () => {
  const user = owner();
  const guild = await t.api('/guilds', { method: 'POST', token: user.token, body: { name: 'Second Guild' } });
  assert.equal(guild.status, 201, guild.text);
  const loc = await consent(
    user.token,
    { response_type: 'code', scope: 'bot identify', redirect_uri: REDIRECT, state: 's' },
    { guild_id: guild.body.id, permissions: '3072' },
  );
  assert.equal(loc.searchParams.get('guild_id'), guild.body.id);
  assert.equal(loc.searchParams.get('permissions'), '3072');
  const res = await token({ grant_type: 'authorization_code', code: loc.searchParams.get('code')!, redirect_uri: REDIRECT }, basic(appId, secret));
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.guild.id, guild.body.id);
  assert.equal(res.body.scope, 'bot identify');
  const member = await t.api(`/guilds/${guild.body.id}/members/${t.world.botUserId}`, { token: user.token });
  assert.equal(member.status, 200);
  const app = await t.api(`/applications/${appId}`, { token: user.token });
  assert.equal(app.body.approximate_guild_count, 2);
  const ev = events.filter((e) => e.t === '__APPLICATION_AUTHORIZED').at(-1)!;
  assert.equal(ev.d.integration_type, 0);
  assert.equal(ev.d.guild.id, guild.body.id);
  // The plain bot flow (no response_type) still works as before.
  const plain = await t.api(`/oauth2/authorize?client_id=${appId}&scope=bot`, {
    method: 'POST',
    token: user.token,
    body: { authorize: true, guild_id: guild.body.id },
  });
  assert.equal(plain.status, 200);
  assert.match(plain.body.location, /\/oauth2\/authorized$/);
});

test('user install (integration_type 1) and a commands-only guild install are recorded', async () => {
  const carol = await newUser('carol');
  const before = events.length;
  const loc = await consent(carol.token, { scope: 'applications.commands', integration_type: '1' });
  assert.match(loc.pathname, /\/oauth2\/authorized$/);
  const grant = await t.server.ctx.repos.store.db
    .selectFrom('oauth_grants')
    .selectAll()
    .where('application_id', '=', appId)
    .where('user_id', '=', carol.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(grant.integration_type), 1);
  const ev = events.slice(before).find((e) => e.t === '__APPLICATION_AUTHORIZED')!;
  assert.deepEqual({ ...ev.d, user: ev.d.user.id }, { application_id: appId, user: carol.id, scopes: ['applications.commands'], integration_type: 1 });
  const app = await t.api(`/applications/${appId}`, { token: owner().token });
  assert.ok(app.body.approximate_user_install_count >= 1);
  // The user lists it among their authorized apps, and can remove it.
  const list = await t.api('/oauth2/tokens', { token: carol.token });
  assert.deepEqual(
    list.body.map((a: any) => a.id),
    [appId],
  );
  // A bot cannot be user-installed.
  const botUser = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'bot', integration_type: '1' })}`, {
    method: 'POST',
    token: carol.token,
    body: { authorize: true },
  });
  assert.equal(botUser.body.errors.scope._errors[0].code, 'SCOPE_INVALID');

  // Commands without a bot, in a guild carol manages.
  const g = await t.api('/guilds', { method: 'POST', token: carol.token, body: { name: 'Carol Guild' } });
  await consent(carol.token, { scope: 'applications.commands', integration_type: '0' }, { guild_id: g.body.id });
  const install = await t.server.ctx.repos.store.db
    .selectFrom('application_guild_installs')
    .selectAll()
    .where('guild_id', '=', g.body.id)
    .executeTakeFirstOrThrow();
  assert.equal(install.scopes, 'applications.commands');
  // Installing into a guild one does not manage is refused.
  const noPerm = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'applications.commands' })}`, {
    method: 'POST',
    token: carol.token,
    body: { authorize: true, guild_id: t.world.guildId },
  });
  assert.equal(noPerm.status, 400);
  assert.equal(noPerm.body.errors.guild_id._errors[0].code, 'GUILD_INVALID');

  const del = await t.api(`/oauth2/tokens/${appId}`, { method: 'DELETE', token: carol.token });
  assert.equal(del.status, 204);
  assert.deepEqual((await t.api('/oauth2/tokens', { token: carol.token })).body, []);
  assert.equal((await t.api(`/oauth2/tokens/${appId}`, { method: 'DELETE', token: carol.token })).status, 404);
});

test('a user unlinking the app makes the next refresh invalid_grant', async () => {
  const dave = await newUser('dave');
  const tokens = await fullTokens(dave.token, 'identify');
  assert.equal((await t.api(`/oauth2/tokens/${appId}`, { method: 'DELETE', token: dave.token })).status, 204);
  const r = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basic(appId, secret));
  assert.equal(r.body.error, 'invalid_grant');
  assert.equal((await t.api('/users/@me', { headers: bearer(tokens.access_token) })).status, 401);
  // A deleted user: the grant survives in the table but the refresh still fails.
  const erin = await newUser('erin');
  const et = await fullTokens(erin.token, 'identify');
  await t.server.ctx.repos.store.db.deleteFrom('users').where('id', '=', erin.id).execute();
  assert.equal((await token({ grant_type: 'refresh_token', refresh_token: et.refresh_token }, basic(appId, secret))).body.error, 'invalid_grant');
});

test('client_credentials: a token for the owner, limited scopes, confidential clients only', async () => {
  const res = await token({ grant_type: 'client_credentials', scope: 'identify applications.commands.update' }, basic(appId, secret));
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.refresh_token, undefined);
  assert.equal(res.body.scope, 'identify applications.commands.update');
  const me = await t.api('/users/@me', { headers: bearer(res.body.access_token) });
  assert.equal(me.body.id, owner().id);
  // applications.commands.update opens the app's command routes to the token, and nothing else does.
  assert.equal((await t.api(`/applications/${appId}/commands`, { headers: bearer(res.body.access_token) })).status, 200);
  const identifyOnly = await token({ grant_type: 'client_credentials', scope: 'identify' }, basic(appId, secret));
  assert.equal((await t.api(`/applications/${appId}/commands`, { headers: bearer(identifyOnly.body.access_token) })).body.code, 50026);
  assert.equal((await token({ grant_type: 'client_credentials', scope: 'bot' }, basic(appId, secret))).body.error, 'invalid_scope');
  assert.equal((await token({ grant_type: 'client_credentials', scope: 'made.up' }, basic(appId, secret))).body.error, 'invalid_scope');
  assert.equal((await token({ grant_type: 'client_credentials', client_id: appId })).status, 401);
  assert.equal((await token({ grant_type: 'client_credentials' }, basic('123', 'x'))).body.error, 'invalid_client');
});

test('device flow: pending, then granted, then a token; denied and unknown codes', async () => {
  const start = await form('/oauth2/device/authorize', { client_id: appId, scope: 'identify openid' });
  assert.equal(start.status, 200, start.text);
  assert.equal(start.body.expires_in, 300);
  assert.equal(start.body.interval, 5);
  assert.match(start.body.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
  assert.ok(start.body.verification_uri_complete.startsWith(start.body.verification_uri));

  const grant = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: start.body.device_code };
  const pending = await token(grant, basic(appId, secret));
  assert.equal(pending.status, 400);
  assert.equal(pending.body.error, 'authorization_pending');
  const tooFast = await token(grant, basic(appId, secret));
  assert.equal(tooFast.body.error, 'slow_down');

  const user = t.world.users[1];
  const verify = await t.api('/oauth2/device/verify', { method: 'POST', token: user.token, body: { user_code: start.body.user_code.toLowerCase() } });
  const app = (await t.api(`/applications/${appId}`, { token: t.world.users[0].token })).body;
  assert.deepEqual(verify.body, {
    scopes: ['identify', 'openid'],
    client_id: appId,
    type: 'pending',
    application: { id: appId, name: app.name, icon: app.icon },
  });
  const finish = await t.api('/oauth2/device/finish', { method: 'POST', token: user.token, body: { user_code: start.body.user_code, result: 'granted' } });
  assert.equal(finish.status, 204);
  const done = await token(grant, basic(appId, secret));
  assert.equal(done.status, 200, done.text);
  assert.equal(typeof done.body.id_token, 'string');
  assert.equal((await t.api('/users/@me', { headers: bearer(done.body.access_token) })).body.id, user.id);
  // The device code is spent.
  assert.equal((await token(grant, basic(appId, secret))).body.error, 'invalid_grant');

  const second = await form('/oauth2/device/authorize', { client_id: appId, scope: 'identify' });
  await t.api('/oauth2/device/finish', { method: 'POST', token: user.token, body: { user_code: second.body.user_code, result: 'denied' } });
  assert.equal((await token({ ...grant, device_code: second.body.device_code }, basic(appId, secret))).body.error, 'access_denied');

  const bad = await t.api('/oauth2/device/verify', { method: 'POST', token: user.token, body: { user_code: 'BCDF-GHJK' } });
  assert.equal(bad.status, 400);
  assert.equal((await form('/oauth2/device/authorize', { client_id: appId, scope: 'nope' })).body.error, 'invalid_scope');
  assert.equal((await form('/oauth2/device/authorize', { client_id: '42', scope: 'identify' })).body.error, 'invalid_client');
});

test('openid: the ID token verifies against /oauth2/keys; userinfo needs openid', async () => {
  const tokens = await fullTokens(owner().token, 'openid identify email');
  assert.ok(tokens.id_token);
  const [h, p, s] = tokens.id_token.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString());
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  assert.equal(header.alg, 'RS256');
  assert.equal(claims.sub, owner().id);
  assert.equal(claims.aud, appId);
  assert.equal(claims.iss, t.server.url);
  assert.equal(claims.email, `${owner().username}@accord.local`);
  const keys = await t.api('/oauth2/keys');
  const jwk = keys.body.keys.find((k: any) => k.kid === header.kid);
  assert.ok(jwk);
  const key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
  assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url')));

  const info = await t.api('/oauth2/userinfo', { headers: bearer(tokens.access_token) });
  assert.equal(info.body.sub, owner().id);
  assert.equal(info.body.email, `${owner().username}@accord.local`);
  const noOpenid = await fullTokens(owner().token, 'identify');
  const refused = await t.api('/oauth2/userinfo', { headers: bearer(noOpenid.access_token) });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 50026);
});

test('scopes gate the routes a bearer token reaches, and the fields it sees', async () => {
  const user = owner();
  // Without identify, /users/@me is refused; without email, the email is null.
  const guildsOnly = await fullTokens(user.token, 'guilds');
  const noIdentify = await t.api('/users/@me', { headers: bearer(guildsOnly.access_token) });
  assert.equal(noIdentify.status, 403);
  assert.deepEqual(noIdentify.body, { message: 'Missing required OAuth2 scope', code: 50026 });
  const identify = await fullTokens(user.token, 'identify');
  assert.equal((await t.api('/users/@me', { headers: bearer(identify.access_token) })).body.email, null);

  // premium_type: the user's own token shows it; a bearer token only with identify.premium.
  await t.server.ctx.repos.store.db.updateTable('users').set({ premium_type: 2 }).where('id', '=', user.id).execute();
  t.server.ctx.bus.publish({ t: '__TOKENS_CHANGED', d: {} });
  assert.equal((await t.api('/users/@me', { token: user.token })).body.premium_type, 2);
  assert.equal((await t.api('/users/@me', { headers: bearer(identify.access_token) })).body.premium_type, 0);
  const premium = await fullTokens(user.token, 'identify identify.premium');
  assert.equal((await t.api('/users/@me', { headers: bearer(premium.access_token) })).body.premium_type, 2);

  // guilds: /users/@me/guilds with banner.
  assert.equal((await t.api('/users/@me/guilds', { headers: bearer(identify.access_token) })).body.code, 50026);
  const guilds = await t.api('/users/@me/guilds', { headers: bearer(guildsOnly.access_token) });
  assert.equal(guilds.status, 200);
  assert.ok(guilds.body.length >= 1);
  assert.ok(guilds.body.every((g: any) => 'banner' in g));

  // guilds.members.read, connections, relationships.read.
  assert.equal((await t.api(`/users/@me/guilds/${t.world.guildId}/member`, { headers: bearer(guildsOnly.access_token) })).status, 403);
  const mr = await fullTokens(user.token, 'guilds.members.read connections relationships.read');
  const own = await t.api(`/users/@me/guilds/${t.world.guildId}/member`, { headers: bearer(mr.access_token) });
  assert.equal(own.status, 200);
  assert.equal(own.body.user.id, user.id);
  assert.deepEqual((await t.api('/users/@me/connections', { headers: bearer(mr.access_token) })).body, []);
  assert.deepEqual((await t.api('/users/@me/relationships', { headers: bearer(mr.access_token) })).body, []);
  assert.equal((await t.api('/users/@me/connections', { headers: bearer(identify.access_token) })).status, 403);

  // Routes no scope covers refuse bearer tokens altogether.
  for (const [path, method] of [
    [`/channels/${t.world.textChannelId}/messages`, 'GET'],
    [`/guilds/${t.world.guildId}`, 'GET'],
    ['/oauth2/authorize?client_id=1&scope=identify', 'GET'],
    ['/users/@me', 'PATCH'],
  ]) {
    const r = await t.api(path, { method, headers: bearer(identify.access_token), body: method === 'PATCH' ? { bio: 'x' } : undefined });
    assert.equal(r.status, 401, `${method} ${path}`);
  }

  // sdk.social_layer expands: the token reaches guilds and sees the email, while its scope reads as requested.
  const sdk = await fullTokens(user.token, 'openid sdk.social_layer');
  assert.equal(sdk.scope, 'openid sdk.social_layer');
  assert.equal((await t.api('/users/@me', { headers: bearer(sdk.access_token) })).body.email, `${user.username}@accord.local`);
  assert.equal((await t.api('/users/@me/guilds', { headers: bearer(sdk.access_token) })).status, 200);
  assert.deepEqual((await t.api('/oauth2/@me', { headers: bearer(sdk.access_token) })).body.scopes, ['openid', 'sdk.social_layer']);
  const presence = await fullTokens(user.token, 'sdk.social_layer_presence');
  assert.equal((await t.api('/users/@me/guilds', { headers: bearer(presence.access_token) })).status, 403);
});

test("guilds.join: the app's bot adds the user with their access token", async () => {
  const frank = await newUser('frank');
  const withJoin = await fullTokens(frank.token, 'identify guilds.join');
  const without = await fullTokens(frank.token, 'identify');
  const path = `/guilds/${t.world.guildId}/members/${frank.id}`;
  // A user token cannot; the bot needs a token carrying guilds.join, for that user.
  assert.equal((await t.api(path, { method: 'PUT', token: owner().token, body: { access_token: withJoin.access_token } })).status, 403);
  assert.equal((await t.api(path, { method: 'PUT', token: t.world.botToken, bot: true, body: { access_token: without.access_token } })).body.code, 50026);
  assert.equal(
    (
      await t.api(`/guilds/${t.world.guildId}/members/${t.world.users[1].id}`, {
        method: 'PUT',
        token: t.world.botToken,
        bot: true,
        body: { access_token: withJoin.access_token },
      })
    ).status,
    400,
  );
  const added = await t.api(path, { method: 'PUT', token: t.world.botToken, bot: true, body: { access_token: withJoin.access_token, nick: 'Franky' } });
  assert.equal(added.status, 201, added.text);
  assert.equal(added.body.user.id, frank.id);
  assert.equal(added.body.nick, 'Franky');
  const again = await t.api(path, { method: 'PUT', token: t.world.botToken, bot: true, body: { access_token: withJoin.access_token } });
  assert.equal(again.status, 204);
  assert.equal((await t.api(`/guilds/${t.world.guildId}/members/${frank.id}`, { token: owner().token })).status, 200);
});

test('/oauth2/applications/@me for bot and bearer; the public rpc view', async () => {
  const viaBot = await t.api('/oauth2/applications/@me', { token: t.world.botToken, bot: true });
  assert.equal(viaBot.status, 200);
  assert.equal(viaBot.body.id, appId);
  const tokens = await fullTokens(owner().token, 'identify');
  const viaBearer = await t.api('/oauth2/applications/@me', { headers: bearer(tokens.access_token) });
  assert.equal(viaBearer.body.id, appId);
  assert.equal((await t.api('/oauth2/applications/@me', { token: owner().token })).status, 401);
  const rpc = await t.api(`/oauth2/applications/${appId}/rpc`);
  assert.equal(rpc.status, 200);
  assert.equal(rpc.body.name, viaBot.body.name);
  assert.equal(rpc.body.redirect_uris, undefined);
  assert.equal((await t.api('/oauth2/applications/1234/rpc')).status, 404);
});

test('public clients need no secret; access tokens expire by the (dev) clock, refresh tokens do not', async () => {
  const user = owner();
  const res = await t.api(`/applications/${appId}`, { method: 'PATCH', token: user.token, body: { flags: 1 << 8 } });
  assert.equal(res.body.flags & (1 << 8), 1 << 8);
  const code = await codeFor(user.token, 'identify');
  const tokens = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: appId });
  assert.equal(tokens.status, 200, tokens.text);
  await t.api(`/applications/${appId}`, { method: 'PATCH', token: user.token, body: { flags: 0 } });

  assert.equal((await t.api('/users/@me', { headers: bearer(tokens.body.access_token) })).status, 200);
  const moved = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: 604800_000 + 1000 }),
  });
  assert.equal(moved.status, 200);
  assert.equal((await t.api('/users/@me', { headers: bearer(tokens.body.access_token) })).status, 401);
  const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, basic(appId, secret));
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal((await t.api('/users/@me', { headers: bearer(refreshed.body.access_token) })).status, 200);
  // A code older than ten minutes is invalid_grant.
  const late = await codeFor(user.token, 'identify');
  await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: 11 * 60_000 }),
  });
  assert.equal((await token({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT }, basic(appId, secret))).body.error, 'invalid_grant');
});
