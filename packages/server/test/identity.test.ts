import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

test('register, then log in by username or email; wrong passwords are refused alike', async () => {
  const reg = await t.api('/auth/register', {
    method: 'POST',
    body: { username: 'carol', password: 'hunter2hunter2', email: 'carol@example.test', date_of_birth: '1990-01-01', consent: true },
  });
  assert.equal(reg.status, 200);
  assert.equal(typeof reg.body.token, 'string');
  const me = await t.api('/users/@me', { token: reg.body.token });
  assert.equal(me.body.username, 'carol');
  assert.equal(me.body.email, 'carol@example.test');
  for (const login of ['carol', 'CAROL@example.test']) {
    const res = await t.api('/auth/login', { method: 'POST', body: { login, password: 'hunter2hunter2' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.user_id, me.body.id);
    assert.equal((await t.api('/users/@me', { token: res.body.token })).body.id, me.body.id);
  }
  const bad = await t.api('/auth/login', { method: 'POST', body: { login: 'carol', password: 'wrong-password' } });
  const unknown = await t.api('/auth/login', { method: 'POST', body: { login: 'nobody', password: 'wrong-password' } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, unknown.body);
  assert.equal(bad.body.code, 50035);
  const dup = await t.api('/auth/register', { method: 'POST', body: { username: 'carol', password: 'hunter2hunter2' } });
  assert.equal(dup.body.errors.username._errors[0].code, 'USERNAME_ALREADY_TAKEN');
});

test('passwords are stored hashed with scrypt, and tokens only as hashes', async () => {
  const row = await t.server.ctx.repos.store.db.selectFrom('users').select(['password_hash']).where('username', '=', 'carol').executeTakeFirstOrThrow();
  assert.match(row.password_hash!, /^scrypt\$/);
  const tokens = await t.server.ctx.repos.store.db.selectFrom('tokens').select('hash').execute();
  for (const { hash } of tokens) assert.ok(!t.world.users.some((u) => u.token === hash));
});

test('the three Authorization forms: raw user token, Bot, and bad tokens are 401', async () => {
  assert.equal((await t.api('/users/@me', { token: t.world.users[0].token })).body.id, t.world.users[0].id);
  assert.equal((await t.api('/users/@me', { token: t.world.botToken, bot: true })).body.id, t.world.botUserId);
  // A bot token without the Bot prefix is not a user token.
  assert.equal((await t.api('/users/@me', { token: t.world.botToken })).status, 401);
  const bad = await t.api('/users/@me', { token: 'Bearer nothing' });
  assert.equal(bad.status, 401);
  assert.deepEqual(bad.body, { message: '401: Unauthorized', code: 0 });
});

test('an application gets a bot user at once; bot/reset rotates the token and revokes the old one', async () => {
  const owner = t.world.users[1].token;
  const app = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'Rotator' } });
  assert.equal(app.status, 200);
  assert.equal(app.body.bot.bot, true);
  assert.equal(app.body.flags, 0);
  assert.equal(app.body.flags_new, '0');
  assert.match(app.body.verify_key, /^[0-9a-f]{64}$/);
  assert.equal(JSON.stringify(app.body).includes('secret'), false);
  const first = await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner });
  assert.equal((await t.api('/users/@me', { token: first.body.token, bot: true })).body.id, app.body.bot.id);
  const second = await t.api(`/applications/${app.body.id}/bot`, { method: 'POST', token: owner });
  assert.notEqual(second.body.token, first.body.token);
  assert.equal((await t.api('/users/@me', { token: first.body.token, bot: true })).status, 401);
  assert.equal((await t.api('/users/@me', { token: second.body.token, bot: true })).status, 200);
  // Someone else's app: 20012; an unknown one: 10002.
  assert.equal((await t.api(`/applications/${app.body.id}`, { token: t.world.users[0].token })).body.code, 20012);
  assert.equal((await t.api('/applications/1', { token: owner })).body.code, 10002);
  const me = await t.api('/applications/@me', { token: second.body.token, bot: true });
  assert.equal(me.body.id, app.body.id);
});

test('PATCH /applications/{id} sets the intent flags the portal way, and leaves platform bits alone', async () => {
  const owner = t.world.users[1].token;
  const app = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'Flags' } });
  const res = await t.api(`/applications/${app.body.id}`, {
    method: 'PATCH',
    token: owner,
    body: { flags: (1 << 13) | (1 << 15) | (1 << 19) | (1 << 2), description: 'hello' },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.flags, (1 << 13) | (1 << 15) | (1 << 19));
  assert.equal(res.body.flags_new, String((1 << 13) | (1 << 15) | (1 << 19)));
  assert.equal(res.body.description, 'hello');
  const bad = await t.api(`/applications/${app.body.id}`, { method: 'PATCH', token: owner, body: { flags: 'lots' } });
  assert.equal(bad.body.code, 50035);
  assert.ok(bad.body.errors.flags);
});

test('installing a bot: MANAGE_GUILD needed; the bot joins with a managed role and gets GUILD_CREATE', async () => {
  const owner = t.world.users[0];
  const app = await t.api('/applications', { method: 'POST', token: owner.token, body: { name: 'Installer' } });
  const token = (await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner.token })).body.token;
  const gw = await RawGateway.connect(t.server.url);
  const ready = await gw.identify(token, { intents: 1 });
  assert.deepEqual(ready.guilds, []);

  // users[1] is a plain member without MANAGE_GUILD.
  const denied = await t.api(`/oauth2/authorize?client_id=${app.body.id}&scope=bot&permissions=8`, {
    method: 'POST',
    token: t.world.users[1].token,
    body: { guild_id: t.world.guildId, permissions: '2048', authorize: true },
  });
  assert.equal(denied.body.code, 50013);

  const ok = await t.api(`/oauth2/authorize?client_id=${app.body.id}&scope=bot&permissions=3072`, {
    method: 'POST',
    token: owner.token,
    body: { guild_id: t.world.guildId, permissions: '3072', authorize: true },
  });
  assert.equal(ok.status, 200);
  assert.equal(typeof ok.body.location, 'string');
  const guild = await gw.dispatch('GUILD_CREATE');
  assert.equal(guild.id, t.world.guildId);
  const managed = guild.roles.find((r: any) => r.tags?.bot_id === app.body.id);
  assert.equal(managed.permissions, '3072');
  assert.equal(managed.managed, true);
  const self = guild.members.find((m: any) => m.user.id === app.body.id);
  assert.deepEqual(self.roles, [managed.id]);
  gw.close();

  const bots = await t.api(`/oauth2/authorize?client_id=${app.body.id}&scope=bot`, {
    method: 'POST',
    token,
    bot: true,
    body: { guild_id: t.world.guildId, authorize: true },
  });
  assert.equal(bots.body.code, 20001);
});

test('GET /users/{id}, DMs, and @me guilds', async () => {
  const [a, b] = t.world.users;
  const user = await t.api(`/users/${b.id}`, { token: a.token });
  assert.equal(user.body.id, b.id);
  assert.equal(user.body.email, undefined);
  assert.equal((await t.api('/users/424242', { token: a.token })).body.code, 10013);
  const dm = await t.api('/users/@me/channels', { method: 'POST', token: a.token, body: { recipient_id: b.id } });
  assert.equal(dm.body.type, 1);
  assert.deepEqual(
    dm.body.recipients.map((u: any) => u.id),
    [b.id],
  );
  const again = await t.api('/users/@me/channels', { method: 'POST', token: a.token, body: { recipient_id: b.id } });
  assert.equal(again.body.id, dm.body.id);
  const guilds = await t.api('/users/@me/guilds', { token: a.token });
  assert.ok(guilds.body.some((g: any) => g.id === t.world.guildId && g.owner === true));
});

test('the same routes answer under /api/v9 and /api; old versions get 50041', async () => {
  for (const prefix of ['/api/v9', '/api']) {
    assert.equal((await t.api('/users/@me', { token: t.world.users[0].token, prefix })).body.id, t.world.users[0].id);
  }
  assert.equal((await t.api('/users/@me', { token: t.world.users[0].token, prefix: '/api/v6' })).body.code, 50041);
  const unknown = await t.api('/no/such/route', { token: t.world.users[0].token });
  assert.deepEqual(unknown.body, { message: '404: Not Found', code: 0 });
});
