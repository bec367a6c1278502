/**
 * The Activities getting-started guide past "Enable Activities": the owner's in-development Activity is in the App
 * Launcher (the guild's command index) of their small test servers and launches there with no install step; nobody
 * else is offered it, or may launch it, until the app is installed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { expectError } from './helpers/fixtures.js';
import { createUser } from '../src/services/identity/users.js';
import { addMember } from '../src/services/guilds/membership.js';

const EMBEDDED = 1 << 17;

describe('an in-development Activity', { timeout: 60_000 }, () => {
  let t: TestServer;
  let appId: string;
  let entry: any;
  const alice = () => t.world.users[0]; // owns the guild, not the app
  const bob = () => t.world.users[1]; // a plain member, the app's owner
  const guildId = () => t.world.guildId;
  const channelId = () => t.world.textChannelId;

  before(async () => {
    t = await startTestServer();
    const app = await t.api('/applications', { method: 'POST', token: bob().token, body: { name: 'Bob Arcade' } });
    assert.equal(app.status, 200, app.text);
    appId = app.body.id;
    const on = await t.api(`/applications/${appId}`, { method: 'PATCH', token: bob().token, body: { flags: app.body.flags | EMBEDDED } });
    assert.equal(on.status, 200, on.text);
    const botToken = (await t.api(`/applications/${appId}/bot/reset`, { method: 'POST', token: bob().token })).body.token;
    entry = (await t.api(`/applications/${appId}/commands`, { token: botToken, bot: true })).body.find((c: any) => c.type === 4);
    assert.ok(entry, 'enabling Activities made the Launch entry point');
  });
  after(async () => {
    await t?.close();
  });

  const indexOf = async (token: string, guild = guildId()) => {
    const r = await t.api(`/guilds/${guild}/application-command-index`, { token });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const offered = (index: any) => index.application_commands.some((c: any) => c.id === entry.id) && index.applications.some((a: any) => a.id === appId);
  const launchBody = (nonce: string) => ({
    type: 2,
    application_id: appId,
    guild_id: guildId(),
    channel_id: channelId(),
    session_id: 'sess',
    nonce,
    data: { id: entry.id, name: entry.name, type: 4 },
  });

  test('the owner finds it in the launcher of a small server and launches it with no install', async () => {
    assert.ok(offered(await indexOf(bob().token)), "the entry point is in the owner's launcher");
    const r = await t.api('/interactions', { method: 'POST', token: bob().token, body: launchBody('preview-1') });
    assert.equal(r.status, 204, r.text);
    const msgs = (await t.api(`/channels/${channelId()}/messages?limit=5`, { token: bob().token })).body;
    const launched = msgs.find((m: any) => m.interaction_metadata?.user?.id === bob().id && /launched/.test(m.content));
    assert.ok(launched, 'the platform posted the launch message');
    assert.deepEqual(launched.interaction_metadata.authorizing_integration_owners, { '1': bob().id });
    const direct = await t.api(`/activities/${channelId()}/${appId}`, { method: 'POST', token: bob().token, body: { session_id: 'sess-2' } });
    assert.equal(direct.status, 204, direct.text);
  });

  test('others are not offered it and cannot launch it until the app is installed', async () => {
    assert.equal(offered(await indexOf(alice().token)), false);
    expectError(await t.api('/interactions', { method: 'POST', token: alice().token, body: launchBody('other-1') }), 404, 10063);
    const quiet = await t.api(`/guilds/${guildId()}/channels`, { method: 'POST', token: alice().token, body: { name: 'quiet', type: 0 } });
    expectError(await t.api(`/activities/${quiet.body.id}/${appId}`, { method: 'POST', token: alice().token, body: { session_id: 's' } }), 400, 50039);
    // Joining the owner's running instance is another matter: they could start it.
    const join = await t.api(`/activities/${channelId()}/${appId}`, { method: 'POST', token: alice().token, body: { session_id: 'join' } });
    assert.equal(join.status, 204, join.text);

    // Alice installs it (commands only): now it is the guild's, for everyone.
    const install = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'applications.commands' })}`, {
      method: 'POST',
      token: alice().token,
      body: { authorize: true, guild_id: guildId() },
    });
    assert.equal(install.status, 200, install.text);
    assert.ok(offered(await indexOf(alice().token)));
    const r = await t.api('/interactions', { method: 'POST', token: alice().token, body: launchBody('other-2') });
    assert.equal(r.status, 204, r.text);
    const direct = await t.api(`/activities/${channelId()}/${appId}`, { method: 'POST', token: alice().token, body: { session_id: 's' } });
    assert.equal(direct.status, 204, direct.text);
    const del = await t.api(`/guilds/${guildId()}/integrations/${appId}`, { method: 'DELETE', token: alice().token });
    assert.equal(del.status, 204, del.text);
  });

  test('not in a guild when its Entry Point is kept out of guilds (contexts)', async () => {
    const botToken = (await t.api(`/applications/${appId}/bot/reset`, { method: 'POST', token: bob().token })).body.token;
    const patched = await t.api(`/applications/${appId}/commands/${entry.id}`, { method: 'PATCH', token: botToken, bot: true, body: { contexts: [1, 2] } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(offered(await indexOf(bob().token)), false);
    expectError(await t.api('/interactions', { method: 'POST', token: bob().token, body: launchBody('ctx-1') }), 404, 10063);
    await t.api(`/applications/${appId}/commands/${entry.id}`, { method: 'PATCH', token: botToken, bot: true, body: { contexts: null } });
    assert.ok(offered(await indexOf(bob().token)));
  });

  test('not in a server of 25 members or more (unverified Activities stay in small servers)', async () => {
    const big = await t.api('/guilds', { method: 'POST', token: bob().token, body: { name: 'Big Server' } });
    assert.equal(big.status, 201, big.text);
    assert.ok(offered(await indexOf(bob().token, big.body.id)), 'one member: offered');
    for (let i = 0; i < 24; i++) {
      const u = await createUser(t.server.ctx, { username: `crowd_${i}_${Date.now() % 100000}`, globalName: `Crowd ${i}` });
      await addMember(t.server.ctx, big.body.id, u.id);
    }
    assert.equal(offered(await indexOf(bob().token, big.body.id)), false);
    const ch = (await t.api(`/guilds/${big.body.id}/channels`, { token: bob().token })).body.find((c: any) => c.type === 0);
    expectError(await t.api(`/activities/${ch.id}/${appId}`, { method: 'POST', token: bob().token, body: { session_id: 's' } }), 400, 50039);
  });
});
