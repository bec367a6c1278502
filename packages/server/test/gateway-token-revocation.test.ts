/**
 * Open Gateway sessions follow their token (issue 14, defect 6): a bot token reset, a password change and an OAuth2
 * deauthorization close every session of the revoked token with 4004 at once, driven by the bus (every node), and
 * RESUME with the old token fails. A session whose own token is untouched lives on, a Social SDK bearer session
 * included (it is keyed by the hash of the bare token, without "Bearer "). A guild ban removes the guild (GUILD_DELETE)
 * as the platform does, and leaves the session open.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, devHeaders, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { issueToken, hashToken } from '../src/services/identity/tokens.js';

const T = { timeout: 60_000 };
let t: TestServer;

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
});
after(() => t.close());

async function open(token: string, extra: Record<string, unknown> = {}) {
  const gw = await RawGateway.connect(t.server.url);
  const ready = await gw.identify(token, extra);
  return { gw, ready };
}

/** The socket is still served: a heartbeat is acknowledged. */
async function alive(gw: RawGateway): Promise<void> {
  const before = gw.frames.filter((f) => f.op === 11).length;
  gw.send(1, null);
  await gw.wait((f) => f.op === 11 && gw.frames.filter((x) => x.op === 11).length > before, 20_000);
}

async function newUser(name: string) {
  const password = 'correct horse battery';
  const reg = await t.api('/auth/register', { method: 'POST', body: { username: `${name}_${Date.now().toString(36)}`, password } });
  assert.equal(reg.status, 200, reg.text);
  const me = await t.api('/users/@me', { token: reg.body.token });
  return { id: me.body.id as string, token: reg.body.token as string, password };
}

/** A Social SDK style bearer token of the seeded app for `userId` (what the OAuth2 grant issues). */
const bearerFor = (userId: string) =>
  issueToken(t.server.ctx, userId, 'bearer', {
    applicationId: t.world.applicationId,
    scopes: ['identify', 'gateway.connect'],
    expiresAt: Date.now() + 3600_000,
  });

test("a bot token reset closes the bot's open session with 4004; the old token cannot RESUME or Identify", T, async () => {
  const owner = t.world.users[0].token;
  const app = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'resetme' } });
  assert.equal(app.status, 200, app.text);
  const first = (await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner })).body.token as string;
  const { gw, ready } = await open(first, { intents: 1 });
  const { gw: other } = await open(t.world.botToken, { intents: 1 }); // another bot: untouched

  const reset = await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner });
  assert.equal(reset.status, 200, reset.text);
  assert.equal(await gw.closed, 4004);
  await alive(other);

  const resume = await RawGateway.connect(t.server.url);
  await resume.wait((f) => f.op === 10);
  resume.send(6, { token: first, session_id: ready.session_id, seq: 1 });
  assert.equal((await resume.wait((f) => f.op === 9)).d, false);
  resume.close();

  const again = await RawGateway.connect(t.server.url);
  await again.wait((f) => f.op === 10);
  again.send(2, { token: first, intents: 1, properties: { os: 'linux', browser: 'x', device: 'x' } });
  assert.equal(await again.closed, 4004);
  const fresh = await open(reset.body.token, { intents: 1 });
  fresh.gw.close();
  other.close();
});

test('a password change ends the user-token sessions (connected and resumable) but not a bearer session; deauthorizing ends that one', T, async () => {
  const u = await newUser('pwchange');
  const { gw: userGw } = await open(u.token);
  const { gw: dropped, ready: droppedReady } = await open(u.token);
  dropped.close(4000); // not a clean close: the session stays resumable
  await dropped.closed;
  const bearer = await bearerFor(u.id);
  const { gw: sdkGw } = await open(`Bearer ${bearer}`);

  const wrong = await t.api('/users/@me', { method: 'PATCH', token: u.token, body: { password: 'not it at all', new_password: 'a brand new password' } });
  assert.equal(wrong.status, 400, wrong.text);
  assert.equal(wrong.body.errors.password._errors[0].code, 'PASSWORD_DOES_NOT_MATCH');
  await alive(userGw);

  const changed = await t.api('/users/@me', { method: 'PATCH', token: u.token, body: { password: u.password, new_password: 'a brand new password' } });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.id, u.id);
  assert.equal(typeof changed.body.token, 'string');
  assert.equal(await userGw.closed, 4004);
  await alive(sdkGw); // its token is not a user token: unrelated to the change

  const resume = await RawGateway.connect(t.server.url);
  await resume.wait((f) => f.op === 10);
  resume.send(6, { token: u.token, session_id: droppedReady.session_id, seq: 1 });
  assert.equal((await resume.wait((f) => f.op === 9)).d, false);
  resume.close();
  assert.equal((await t.api('/users/@me', { token: u.token })).status, 401);
  assert.equal((await t.api('/users/@me', { token: changed.body.token })).status, 200);
  const login = await t.api('/auth/login', {
    method: 'POST',
    body: { login: (await t.api('/users/@me', { token: changed.body.token })).body.username, password: 'a brand new password' },
  });
  assert.equal(login.status, 200, login.text);

  const { gw: newGw } = await open(changed.body.token);
  const deauth = await t.api(`/oauth2/tokens/${t.world.applicationId}`, { method: 'DELETE', token: changed.body.token });
  assert.ok(deauth.status === 204 || deauth.status === 200, deauth.text);
  assert.equal(await sdkGw.closed, 4004);
  await alive(newGw); // the user's own token stays
  newGw.close();
});

test('the session of a bearer token is keyed by the bare token: another token of the same user changing leaves it', T, async () => {
  const u = await newUser('bearerkey');
  const bearer = await bearerFor(u.id);
  const { gw, ready } = await open(`Bearer ${bearer}`);
  const session = t.server.gateway.sessions.get(ready.session_id)!;
  assert.equal(session.tokenHash, hashToken(bearer));
  // Another node revoked some other token of this user: only the bus event arrives here.
  const spare = await bearerFor(u.id);
  await t.server.ctx.repos.store.db.deleteFrom('tokens').where('hash', '=', hashToken(spare)).execute();
  t.server.ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: u.id } });
  await t.server.gateway.revalidate(u.id);
  await alive(gw);
  assert.equal(session.dead, false);
});

test('a token revoked by another node ends the session here through the bus alone', T, async () => {
  const u = await newUser('othernode');
  const { gw } = await open(u.token);
  // The other node changed the store and published; this node has no part in it but its bus subscription.
  await t.server.ctx.repos.store.db.deleteFrom('tokens').where('hash', '=', hashToken(u.token)).execute();
  t.server.ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: u.id } });
  assert.equal(await gw.closed, 4004);
});

test('a guild ban sends the banned user GUILD_DELETE for that guild and keeps the session (as the platform does)', T, async () => {
  const u = await newUser('banned');
  const invite = await t.api(`/channels/${t.world.textChannelId}/invites`, { method: 'POST', token: t.world.users[0].token, body: {} });
  assert.equal(invite.status, 200, invite.text);
  assert.equal((await t.api(`/invites/${invite.body.code}`, { method: 'POST', token: u.token })).status, 200);
  const { gw } = await open(u.token);
  await gw.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId);
  const ban = await t.api(`/guilds/${t.world.guildId}/bans/${u.id}`, { method: 'PUT', token: t.world.users[0].token, body: {} });
  assert.equal(ban.status, 204, ban.text);
  const gone = await gw.dispatch('GUILD_DELETE', (d) => d.id === t.world.guildId);
  assert.equal(gone.unavailable, undefined);
  await alive(gw);
  gw.close();
});

test('a platform ban of the account closes its sessions with 4004', T, async () => {
  const u = await newUser('platformban');
  const { gw } = await open(u.token);
  const ban = await fetch(`${t.server.url}/__dev/users/${u.id}/ban`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: '{}',
  });
  assert.equal(ban.status, 204, await ban.text());
  assert.equal(await gw.closed, 4004);
});

test(
  'two nodes: a token reset or a password change made on node B closes the sessions on node A (4004)',
  {
    ...T,
    skip: !(process.env.REDIS_URL && process.env.DATABASE_URL) && 'needs REDIS_URL and DATABASE_URL (distributed mode)',
  },
  async () => {
    const a = await startTestServer();
    const b = await startTestServer({ join: a });
    try {
      const owner = a.world.users[0].token;
      const app = await b.api('/applications', { method: 'POST', token: owner, body: { name: 'twonodes' } });
      assert.equal(app.status, 200, app.text);
      const first = (await b.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner })).body.token as string;
      const botGw = await RawGateway.connect(a.server.url);
      await botGw.identify(first, { intents: 1 });
      const reg = await b.api('/auth/register', { method: 'POST', body: { username: `twonode_${Date.now().toString(36)}`, password: 'first password here' } });
      const userGw = await RawGateway.connect(a.server.url);
      await userGw.identify(reg.body.token);

      assert.equal((await b.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner })).status, 200);
      assert.equal(await botGw.closed, 4004);
      const changed = await b.api('/users/@me', {
        method: 'PATCH',
        token: reg.body.token,
        body: { password: 'first password here', new_password: 'second password here' },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(await userGw.closed, 4004);
    } finally {
      await b.close();
      await a.close();
    }
  },
);
