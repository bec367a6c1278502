/** GET /channels/{id}/application-command-index: the command picker's index in DMs, as the official client loads it. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { expectError, register } from './helpers/fixtures.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t?.close();
});

test('a DM with a bot lists its commands offered in bot DMs; a guild channel answers with the guild index', async () => {
  const alice = t.world.users[0];
  const put = await t.api(`/applications/${t.world.applicationId}/commands`, {
    method: 'PUT',
    token: t.world.botToken,
    bot: true,
    body: [
      { name: 'everywhere', description: 'All contexts', contexts: [0, 1, 2] },
      { name: 'guildonly', description: 'Guild only', contexts: [0] },
      { name: 'legacy', description: 'No contexts, DMs allowed' },
    ],
  });
  assert.equal(put.status, 200, put.text);
  const dm = await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: t.world.botUserId } });
  assert.equal(dm.status, 200, dm.text);

  const idx = await t.api(`/channels/${dm.body.id}/application-command-index`, { token: alice.token });
  assert.equal(idx.status, 200, idx.text);
  assert.deepEqual(idx.body.application_commands.map((c: any) => c.name).sort(), ['everywhere', 'legacy']);
  assert.deepEqual(
    idx.body.applications.map((a: any) => a.id),
    [t.world.applicationId],
  );

  const inGuild = await t.api(`/channels/${t.world.textChannelId}/application-command-index`, { token: alice.token });
  assert.equal(inGuild.status, 200);
  assert.deepEqual(inGuild.body.application_commands.map((c: any) => c.name).sort(), ['everywhere', 'guildonly', 'legacy']);
});

test('a DM between people has no app commands without user installs; strangers and bots are refused', async () => {
  const alice = t.world.users[0];
  const bob = t.world.users[1];
  const dm = await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } });
  const idx = await t.api(`/channels/${dm.body.id}/application-command-index`, { token: alice.token });
  assert.equal(idx.status, 200);
  assert.deepEqual(idx.body, { applications: [], application_commands: [], version: '0' });

  const eve = await register(t, 'eve_idx');
  const refused = await t.api(`/channels/${dm.body.id}/application-command-index`, { token: eve.token });
  assert.ok([403, 404].includes(refused.status), refused.text);
  expectError(await t.api(`/channels/${dm.body.id}/application-command-index`, { token: t.world.botToken, bot: true }), 403, 20001);
  expectError(await t.api('/channels/123/application-command-index', { token: alice.token }), 404, 10003);
});
