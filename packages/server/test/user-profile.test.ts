/**
 * Modify Current User (PATCH /users/@me) for a person, as the platform does it: the current password is required to
 * change the username, the email or the password (50035 `password` BASE_TYPE_REQUIRED / PASSWORD_DOES_NOT_MATCH),
 * usernames and emails stay unique, avatars and banners are stored and served by the CDN, and a change reaches the
 * person (USER_UPDATE with their user) and everyone sharing a guild with them (GUILD_MEMBER_UPDATE with the new user).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { GIF, PNG, dataUri } from './helpers/fixtures.js';

const T = { timeout: 60_000 };
let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(() => t.close());

const patchMe = (token: string, body: unknown, bot = false) => t.api('/users/@me', { method: 'PATCH', token, bot, body });
const fieldCode = (body: any, field: string) => body?.errors?.[field]?._errors?.[0]?.code;

async function newUser(name: string) {
  const password = 'correct horse battery';
  const username = `${name}_${Date.now().toString(36)}`;
  const reg = await t.api('/auth/register', { method: 'POST', body: { username, password, email: `${username}@example.test` } });
  assert.equal(reg.status, 200, reg.text);
  const me = await t.api('/users/@me', { token: reg.body.token });
  return { id: me.body.id as string, token: reg.body.token as string, password, username };
}

test('the current password guards the username, the email and the password', T, async () => {
  const u = await newUser('guarded');
  const missing = await patchMe(u.token, { username: `${u.username}_x` });
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.body.code, 50035);
  assert.equal(fieldCode(missing.body, 'password'), 'BASE_TYPE_REQUIRED');

  const wrong = await patchMe(u.token, { email: 'new@example.test', password: 'not my password' });
  assert.equal(wrong.status, 400, wrong.text);
  assert.equal(fieldCode(wrong.body, 'password'), 'PASSWORD_DOES_NOT_MATCH');

  const renamed = await patchMe(u.token, { username: `${u.username}_X`, email: 'New.Address@example.test', password: u.password });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.username, `${u.username}_x`, 'usernames are lowercased');
  assert.equal(renamed.body.email, 'new.address@example.test');
  assert.equal(renamed.body.token, undefined, 'no new token without a password change');

  // Display name, bio and banner colour need no password; neither does sending the unchanged username.
  const profile = await patchMe(u.token, { global_name: 'Guarded One', bio: 'About me', accent_color: 0x3ba55c, username: `${u.username}_x` });
  assert.equal(profile.status, 200, profile.text);
  assert.equal(profile.body.global_name, 'Guarded One');
  assert.equal(profile.body.bio, 'About me');
  assert.equal(profile.body.accent_color, 0x3ba55c);

  const other = await newUser('other');
  const taken = await patchMe(other.token, { username: `${u.username}_x`, password: other.password });
  assert.equal(fieldCode(taken.body, 'username'), 'USERNAME_ALREADY_TAKEN');
  const emailTaken = await patchMe(other.token, { email: 'new.address@example.test', password: other.password });
  assert.equal(fieldCode(emailTaken.body, 'email'), 'EMAIL_ALREADY_REGISTERED');
  const bad = await patchMe(other.token, { username: 'has space', password: other.password });
  assert.equal(bad.status, 400);
  assert.ok(bad.body.errors?.username, bad.text);
});

test('a password change returns a new token; the old one and the old password stop working', T, async () => {
  const u = await newUser('pwchange');
  const short = await patchMe(u.token, { password: u.password, new_password: 'short' });
  assert.equal(short.status, 400);
  assert.ok(short.body.errors?.new_password, short.text);
  const changed = await patchMe(u.token, { password: u.password, new_password: 'a much better password' });
  assert.equal(changed.status, 200, changed.text);
  assert.ok(changed.body.token);
  assert.equal((await t.api('/users/@me', { token: u.token })).status, 401);
  assert.equal((await t.api('/users/@me', { token: changed.body.token })).status, 200);
  const old = await t.api('/auth/login', { method: 'POST', body: { login: u.username, password: u.password } });
  assert.equal(old.status, 400);
  const fresh = await t.api('/auth/login', { method: 'POST', body: { login: u.username, password: 'a much better password' } });
  assert.equal(fresh.status, 200, fresh.text);
});

test('avatars and banners are stored and served by the CDN; removing one forgets it', T, async () => {
  const u = await newUser('pictured');
  const set = await patchMe(u.token, { avatar: dataUri(PNG), banner: dataUri(GIF, 'image/gif') });
  assert.equal(set.status, 200, set.text);
  assert.match(set.body.avatar, /^[0-9a-f]{32}$/);
  assert.match(set.body.banner, /^[0-9a-f]{32}$/);
  const avatar = await fetch(`${t.server.url}/avatars/${u.id}/${set.body.avatar}.png?size=80`);
  assert.equal(avatar.status, 200);
  assert.equal(avatar.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await avatar.arrayBuffer()), PNG);
  const banner = await fetch(`${t.server.url}/banners/${u.id}/${set.body.banner}.gif`);
  assert.equal(banner.headers.get('content-type'), 'image/gif');

  const invalid = await patchMe(u.token, { avatar: 'data:image/png;base64,bm90IGFuIGltYWdl' });
  assert.equal(fieldCode(invalid.body, 'avatar'), 'IMAGE_INVALID');

  const removed = await patchMe(u.token, { avatar: null });
  assert.equal(removed.body.avatar, null);
  assert.equal((await fetch(`${t.server.url}/avatars/${u.id}/${set.body.avatar}.png`)).status, 404);
  assert.equal((await fetch(`${t.server.url}/avatars/${u.id}/nothash.png`)).status, 404);
});

test('a change reaches the person (USER_UPDATE) and those who share a guild (GUILD_MEMBER_UPDATE)', T, async () => {
  const [alice, bob] = t.world.users;
  const gwAlice = await RawGateway.connect(t.server.url);
  await gwAlice.identify(alice.token);
  const gwBob = await RawGateway.connect(t.server.url);
  await gwBob.identify(bob.token);
  const own = gwAlice.dispatch('USER_UPDATE', (d) => d.global_name === 'Alice Renamed');
  const seen = gwBob.dispatch('GUILD_MEMBER_UPDATE', (d) => d.user?.id === alice.id && d.user.global_name === 'Alice Renamed', 10_000);
  const r = await patchMe(alice.token, { global_name: 'Alice Renamed', avatar: dataUri(PNG) });
  assert.equal(r.status, 200, r.text);
  const self = await own;
  assert.equal(self.id, alice.id);
  assert.equal(self.avatar, r.body.avatar);
  assert.ok('email' in self, 'the own user object carries the email');
  const member = await seen;
  assert.equal(member.guild_id, t.world.guildId);
  assert.equal(member.user.avatar, r.body.avatar);
  assert.equal(member.user.email, undefined, 'others never see the email');
  gwAlice.close();
  gwBob.close();
});

test('a bot changes its name without a password but cannot set an email or a password', T, async () => {
  const renamed = await patchMe(t.world.botToken, { username: 'Renamed Bot' }, true);
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.username, 'Renamed Bot');
  const email = await patchMe(t.world.botToken, { email: 'bot@example.test' }, true);
  assert.equal(email.status, 403);
  assert.equal(email.body.code, 20001);
});
