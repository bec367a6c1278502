/**
 * App testers: the owner invites people by username; once they accept, an in-development Activity is in their
 * launcher as it is in the owner's (small servers only) and they may launch it; until then, and after they leave or
 * are removed, it is not. Every bad input answers the platform's envelope.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { expectError } from './helpers/fixtures.js';
import { createUser } from '../src/services/identity/users.js';

const EMBEDDED = 1 << 17;

describe('app testers', { timeout: 60_000 }, () => {
  let t: TestServer;
  let appId: string;
  let entry: any;
  let botToken: string;
  const alice = () => t.world.users[0]; // owns the guild, the tester
  const bob = () => t.world.users[1]; // owns the app
  const guildId = () => t.world.guildId;
  const channelId = () => t.world.textChannelId;

  before(async () => {
    t = await startTestServer();
    const app = await t.api('/applications', { method: 'POST', token: bob().token, body: { name: 'Bob Arcade' } });
    appId = app.body.id;
    await t.api(`/applications/${appId}`, { method: 'PATCH', token: bob().token, body: { flags: app.body.flags | EMBEDDED } });
    botToken = (await t.api(`/applications/${appId}/bot/reset`, { method: 'POST', token: bob().token })).body.token;
    entry = (await t.api(`/applications/${appId}/commands`, { token: botToken, bot: true })).body.find((c: any) => c.type === 4);
  });
  after(async () => {
    await t?.close();
  });

  const testers = (path = '', init: { method?: string; body?: unknown; token?: string } = {}) =>
    t.api(`/applications/${appId}/testers${path}`, { token: bob().token, ...init });
  const mine = (path = '', method = 'GET', token = alice().token) => t.api(`/users/@me/tested-applications${path}`, { method, token });
  const offeredTo = async (token: string) => {
    const r = await t.api(`/guilds/${guildId()}/application-command-index`, { token });
    assert.equal(r.status, 200, r.text);
    return r.body.application_commands.some((c: any) => c.id === entry.id);
  };
  const launch = (session: string, channel = channelId()) =>
    t.api(`/activities/${channel}/${appId}`, { method: 'POST', token: alice().token, body: { session_id: session } });

  test('invited, then accepted: the Activity is in the tester’s launcher and launches; removed: it is gone again', async () => {
    assert.equal(await offeredTo(alice().token), false, 'nobody but the owner before any invitation');
    const invited = await testers('', { method: 'POST', body: { username: alice().username.toUpperCase() } });
    assert.equal(invited.status, 200, invited.text);
    assert.equal(invited.body.state, 1);
    assert.equal(invited.body.user.id, alice().id);
    assert.equal(invited.body.user.email, undefined, "the owner does not see the tester's email");

    const again = await testers('', { method: 'POST', body: { username: alice().username } });
    assert.deepEqual(again.body, invited.body, 'inviting again changes nothing');
    assert.equal((await testers()).body.length, 1);

    assert.equal(await offeredTo(alice().token), false, 'an invitation alone offers nothing');
    expectError(await launch('s0'), 400, 50039);
    const pending = await mine();
    assert.equal(pending.status, 200, pending.text);
    assert.deepEqual(
      pending.body.map((x: any) => [x.application.id, x.application.name, x.state]),
      [[appId, 'Bob Arcade', 1]],
    );
    for (const secret of ['owner', 'redirect_uris', 'interactions_endpoint_url']) assert.equal(pending.body[0].application[secret], undefined);

    assert.equal((await mine(`/${appId}`, 'PUT')).status, 204);
    assert.equal((await mine(`/${appId}`, 'PUT')).status, 204, 'accepting again is fine');
    assert.equal((await testers()).body[0].state, 2);
    assert.equal(await offeredTo(alice().token), true, 'the tester finds it in the launcher');
    const launched = await launch('s1');
    assert.equal(launched.status, 204, launched.text);

    assert.equal((await testers(`/${alice().id}`, { method: 'DELETE' })).status, 204);
    assert.equal(await offeredTo(alice().token), false);
    assert.deepEqual((await mine()).body, []);
    // Not where nothing runs (joining the instance she started is another matter: anyone in the channel may).
    const quiet = await t.api(`/guilds/${guildId()}/channels`, { method: 'POST', token: alice().token, body: { name: 'quiet', type: 0 } });
    expectError(await launch('s2', quiet.body.id), 400, 50039);
  });

  test('a tester may leave, and an invitee decline', async () => {
    await testers('', { method: 'POST', body: { username: alice().username } });
    assert.equal((await mine(`/${appId}`, 'DELETE')).status, 204, 'declined');
    assert.deepEqual((await testers()).body, []);
    await testers('', { method: 'POST', body: { username: alice().username } });
    await mine(`/${appId}`, 'PUT');
    assert.equal((await mine(`/${appId}`, 'DELETE')).status, 204, 'left');
    assert.equal(await offeredTo(alice().token), false);
    expectError(await mine(`/${appId}`, 'DELETE'), 404, 10002);
  });

  test('bad input: unknown people and apps, the owner, bots, strangers and the limit', async () => {
    expectError(await testers('', { method: 'POST', body: { username: 'nobody_here_at_all' } }), 404, 10013);
    expectError(await testers('', { method: 'POST', body: {} }), 400, 50035);
    const self = await testers('', { method: 'POST', body: { username: bob().username } });
    expectError(self, 400, 50035);
    assert.equal(self.body.errors.username._errors[0].code, 'APP_TESTER_IS_DEVELOPER');
    const botName = (await t.api('/users/@me', { token: botToken, bot: true })).body.username;
    expectError(await testers('', { method: 'POST', body: { username: botName } }), 404, 10013);
    expectError(await testers('', { token: alice().token }), 403, 20012);
    expectError(await testers('', { method: 'POST', token: alice().token, body: { username: alice().username } }), 403, 20012);
    expectError(await t.api(`/applications/${appId}/testers`, { token: botToken, bot: true }), 403, 20001);
    expectError(await t.api('/applications/1/testers', { token: bob().token }), 404, 10002);
    expectError(await testers(`/${alice().id}`, { method: 'DELETE' }), 404, 10013);
    expectError(await mine(`/${appId}`, 'PUT'), 404, 10002);

    for (let i = 0; i < 50; i++) {
      const u = await createUser(t.server.ctx, { username: `tester_${i}_${Date.now() % 100000}`, globalName: `Tester ${i}` });
      assert.equal((await testers('', { method: 'POST', body: { username: u.username } })).status, 200);
    }
    const full = await testers('', { method: 'POST', body: { username: alice().username } });
    expectError(full, 400, 50035);
    assert.equal(full.body.errors.username._errors[0].code, 'APP_TESTERS_MAX');
  });
});
