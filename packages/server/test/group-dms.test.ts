/**
 * Group DMs (type 3): made by users (`recipients`) or by bots with their users' gdm.join tokens (`access_tokens`,
 * `nicks`; managed, at most 10 per app), recipients added and removed (`PUT/DELETE /channels/{id}/recipients/{user}`,
 * at most 10), the RECIPIENT_ADD / RECIPIENT_REMOVE system messages and CHANNEL_RECIPIENT_ADD / _REMOVE events.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { register } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';

const T = { timeout: 30_000 };

interface Person {
  id: string;
  token: string;
}

describe('group DMs', () => {
  let t: TestServer;
  let alice: Person;
  let bob: Person;
  let carol: Person;
  let dave: Person;
  let gwBob: RawGateway;
  let gwDave: RawGateway;
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
  const as = (p: Person, path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: p.token, body });
  const person = async (name: string): Promise<Person> => {
    const username = `${name}_${crypto.randomBytes(3).toString('hex')}`;
    const { token, user } = await register(t.server.ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` });
    return { id: user.id, token };
  };
  const gdmToken = async (p: Person, scopes = ['identify', 'gdm.join'], appId = t.world.applicationId) =>
    issueToken(t.server.ctx, p.id, 'bearer', { applicationId: appId, scopes });
  const online = async (p: Person) => {
    const gw = await RawGateway.connect(t.server.url);
    await gw.identify(p.token, { intents: 0 });
    return gw;
  };

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    alice = { id: t.world.users[0].id, token: t.world.users[0].token };
    bob = { id: t.world.users[1].id, token: t.world.users[1].token };
    carol = await person('carol');
    dave = await person('dave');
    gwBob = await online(bob);
    gwDave = await online(dave);
  });
  after(async () => {
    gwBob?.close();
    gwDave?.close();
    await t?.close();
  });

  let userGroup = '';

  test('a user makes a group DM with two or more recipients; everyone gets CHANNEL_CREATE', T, async () => {
    const r = await as(alice, '/users/@me/channels', 'POST', { recipients: [bob.id, carol.id] });
    assert.equal(r.status, 200, r.text);
    userGroup = r.body.id;
    assert.equal(r.body.type, 3);
    assert.equal(r.body.owner_id, alice.id);
    assert.equal(r.body.name, null);
    assert.equal(r.body.icon, null);
    assert.deepEqual(r.body.recipients.map((u: any) => u.id).sort(), [bob.id, carol.id].sort());
    assert.equal(r.body.managed, undefined);
    const ev = await gwBob.dispatch('CHANNEL_CREATE', (d) => d.id === userGroup);
    assert.deepEqual(ev.recipients.map((u: any) => u.id).sort(), [alice.id, carol.id].sort());
    // It is listed with the user's DMs and is a channel they can read and write.
    const list = await as(bob, '/users/@me/channels');
    assert.ok(list.body.some((c: any) => c.id === userGroup && c.type === 3));
    assert.equal((await as(carol, `/channels/${userGroup}`)).body.type, 3);
    assert.equal((await as(carol, `/channels/${userGroup}/messages`, 'POST', { content: 'hello group' })).status, 200);
    // A single recipient is still a 1:1 DM.
    assert.equal((await as(alice, '/users/@me/channels', 'POST', { recipients: [bob.id] })).body.type, 1);
    // Bots cannot be recipients; unknown users are refused.
    const withBot = await as(alice, '/users/@me/channels', 'POST', { recipients: [bob.id, t.world.botUserId] });
    assert.equal(withBot.body.code, 50033, withBot.text);
    assert.equal((await as(alice, '/users/@me/channels', 'POST', { recipients: [bob.id, '123456789012345678'] })).body.code, 10013);
  });

  test('recipients add others (RECIPIENT_ADD, CHANNEL_RECIPIENT_ADD); the owner removes anyone; at most 10', T, async () => {
    const mark = gwBob.frames.length;
    const add = await as(carol, `/channels/${userGroup}/recipients/${dave.id}`, 'PUT', {});
    assert.equal(add.status, 201, add.text);
    assert.equal(add.body.recipients.length, 3, 'alice, bob and dave as carol sees it');
    assert.equal((await as(carol, `/channels/${userGroup}/recipients/${dave.id}`, 'PUT', {})).status, 204, 'already a recipient');
    const ev = await gwBob.wait((f) => gwBob.frames.indexOf(f) >= mark && f.t === 'CHANNEL_RECIPIENT_ADD').then((f) => f.d);
    assert.equal(ev.channel_id, userGroup);
    assert.equal(ev.user.id, dave.id);
    await gwDave.dispatch('CHANNEL_CREATE', (d) => d.id === userGroup);
    const sys = await gwBob.dispatch('MESSAGE_CREATE', (d) => d.channel_id === userGroup && d.type === 1);
    assert.equal(sys.author.id, carol.id);
    assert.deepEqual(
      sys.mentions.map((u: any) => u.id),
      [dave.id],
    );

    // Only the owner removes others; anyone may leave.
    const notOwner = await as(carol, `/channels/${userGroup}/recipients/${dave.id}`, 'DELETE');
    assert.equal(notOwner.status, 403, notOwner.text);
    assert.equal(notOwner.body.code, 50013);
    const outsider = await person('outsider');
    assert.equal((await as(outsider, `/channels/${userGroup}/recipients/${outsider.id}`, 'PUT', {})).body.code, 50001);
    assert.equal((await as(alice, `/channels/${userGroup}/recipients/${dave.id}`, 'DELETE')).status, 204);
    await gwDave.dispatch('CHANNEL_DELETE', (d) => d.id === userGroup);
    const rm = await gwBob.dispatch('CHANNEL_RECIPIENT_REMOVE', (d) => d.channel_id === userGroup && d.user.id === dave.id);
    assert.ok(rm);
    const sys2 = await gwBob.dispatch('MESSAGE_CREATE', (d) => d.channel_id === userGroup && d.type === 2);
    assert.deepEqual(
      sys2.mentions.map((u: any) => u.id),
      [dave.id],
    );
    assert.equal((await as(dave, `/channels/${userGroup}`)).status, 403, 'dave no longer sees it');
    assert.equal((await as(alice, `/channels/${userGroup}/recipients/${dave.id}`, 'DELETE')).body.code, 10013);

    // Ten recipients at most (30004).
    const crowd: Person[] = [];
    for (let i = 0; i < 7; i++) crowd.push(await person(`crowd${i}`));
    for (const p of crowd) assert.equal((await as(alice, `/channels/${userGroup}/recipients/${p.id}`, 'PUT', {})).status, 201);
    const full = await as(alice, `/channels/${userGroup}/recipients/${dave.id}`, 'PUT', {});
    assert.equal(full.status, 400, full.text);
    assert.equal(full.body.code, 30004);
    // The owner leaves: the group passes on.
    assert.equal((await as(alice, `/channels/${userGroup}/recipients/${alice.id}`, 'DELETE')).status, 204);
    const now = await as(bob, `/channels/${userGroup}`);
    assert.equal(now.body.owner_id, bob.id);
    // A 1:1 DM takes no recipients.
    const dm = (await as(alice, '/users/@me/channels', 'POST', { recipient_id: bob.id })).body.id;
    assert.equal((await as(alice, `/channels/${dm}/recipients/${carol.id}`, 'PUT', {})).body.code, 50024);
  });

  test('a bot makes a managed group DM with gdm.join tokens and manages its recipients with tokens', T, async () => {
    const r = await bot('/users/@me/channels', 'POST', { access_tokens: [await gdmToken(alice), await gdmToken(bob)], nicks: { [alice.id]: 'Captain' } });
    assert.equal(r.status, 200, r.text);
    const group = r.body.id;
    assert.equal(r.body.type, 3);
    assert.equal(r.body.owner_id, t.world.botUserId);
    assert.equal(r.body.managed, true);
    assert.equal(r.body.application_id, t.world.applicationId);
    assert.deepEqual(r.body.recipients.map((u: any) => u.id).sort(), [alice.id, bob.id].sort());
    await gwBob.dispatch('CHANNEL_CREATE', (d) => d.id === group && d.managed === true);

    // Tokens must be the app's, live, with gdm.join, and belong to the user being added.
    const noScope = await bot('/users/@me/channels', 'POST', { access_tokens: [await gdmToken(carol, ['identify'])] });
    assert.equal(noScope.body.code, 50026, noScope.text);
    const bogus = await bot('/users/@me/channels', 'POST', { access_tokens: ['nope'] });
    assert.equal(bogus.body.code, 50035, bogus.text);
    assert.ok(bogus.body.errors.access_tokens['0']);
    const other = await t.api('/applications', { method: 'POST', token: alice.token, body: { name: 'Other' } });
    const foreign = await bot('/users/@me/channels', 'POST', { access_tokens: [await gdmToken(carol, ['gdm.join'], other.body.id)] });
    assert.equal(foreign.body.code, 50035, foreign.text);
    const usersCannot = await as(alice, '/users/@me/channels', 'POST', { access_tokens: [await gdmToken(bob)] });
    assert.equal(usersCannot.body.code, 20002, usersCannot.text);

    const wrongHolder = await bot(`/channels/${group}/recipients/${dave.id}`, 'PUT', { access_token: await gdmToken(carol) });
    assert.equal(wrongHolder.body.code, 50035, wrongHolder.text);
    const missing = await bot(`/channels/${group}/recipients/${dave.id}`, 'PUT', {});
    assert.equal(missing.body.code, 50035, missing.text);
    const mark = gwBob.frames.length;
    const added = await bot(`/channels/${group}/recipients/${dave.id}`, 'PUT', { access_token: await gdmToken(dave), nick: 'Dave' });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.recipients.length, 3);
    const ev = await gwBob.wait((f) => gwBob.frames.indexOf(f) >= mark && f.t === 'CHANNEL_RECIPIENT_ADD').then((f) => f.d);
    assert.deepEqual([ev.channel_id, ev.user.id, ev.nick], [group, dave.id, 'Dave']);
    const sys = await gwBob.dispatch('MESSAGE_CREATE', (d) => d.channel_id === group && d.type === 1);
    assert.equal(sys.author.id, t.world.botUserId);

    // The bot removes anyone from its group; it cannot touch groups it does not manage.
    assert.equal((await bot(`/channels/${group}/recipients/${dave.id}`, 'DELETE')).status, 204);
    await gwDave.dispatch('CHANNEL_DELETE', (d) => d.id === group);
    assert.equal((await bot(`/channels/${userGroup}/recipients/${bob.id}`, 'DELETE')).body.code, 50001);
    assert.equal((await bot(`/channels/${userGroup}/recipients/${dave.id}`, 'PUT', { access_token: await gdmToken(dave) })).body.code, 50001);
    assert.equal((await bot('/channels/123456789012345678/recipients/1', 'PUT', {})).body.code, 10003);
  });

  test('at most 10 managed group DMs per app (30011)', T, async () => {
    const owned = Number(
      (
        await t.server.ctx.repos.store.db
          .selectFrom('channels')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('type', '=', 3)
          .where('owner_id', '=', t.world.botUserId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (let i = owned; i < 10; i++) {
      const r = await bot('/users/@me/channels', 'POST', { access_tokens: [await gdmToken(carol)] });
      assert.equal(r.status, 200, r.text);
    }
    const over = await bot('/users/@me/channels', 'POST', { access_tokens: [await gdmToken(carol)] });
    assert.equal(over.status, 400, over.text);
    assert.equal(over.body.code, 30011);
  });
});
