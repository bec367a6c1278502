/**
 * Channel follower webhooks (type 2) name their source: `source_guild` {id, name, icon} and `source_channel` {id, name},
 * on every read of the webhook, and follow renames of the source; incoming webhooks have neither.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t?.close());

test('follower webhooks carry source_guild and source_channel', { timeout: 30_000 }, async () => {
  const owner = { token: t.world.users[0].token };
  const g = t.world.guildId;
  const other = await t.api('/guilds', { ...owner, method: 'POST', body: { name: 'Reader' } });
  assert.equal(other.status, 201, other.text);
  const target = (await t.api(`/guilds/${other.body.id}/channels`, owner)).body.find((c: any) => c.type === 0).id;
  const news = await t.api(`/guilds/${g}/channels`, { ...owner, method: 'POST', body: { name: 'releases', type: 5 } });
  assert.equal(news.status, 201, news.text);
  const follow = await t.api(`/channels/${news.body.id}/followers`, { ...owner, method: 'POST', body: { webhook_channel_id: target } });
  assert.equal(follow.status, 200, follow.text);
  const plain = await t.api(`/channels/${target}/webhooks`, { ...owner, method: 'POST', body: { name: 'incoming' } });
  assert.equal(plain.status, 200, plain.text);

  const guild = (await t.api(`/guilds/${g}`, owner)).body;
  const expected = { source_guild: { id: g, name: guild.name, icon: guild.icon }, source_channel: { id: news.body.id, name: 'releases' } };
  const list = (await t.api(`/channels/${target}/webhooks`, owner)).body;
  const hook = list.find((w: any) => w.id === follow.body.webhook_id);
  assert.equal(hook.type, 2);
  assert.deepEqual({ source_guild: hook.source_guild, source_channel: hook.source_channel }, expected);
  const incoming = list.find((w: any) => w.id === plain.body.id);
  assert.equal(incoming.source_guild, undefined);
  assert.equal(incoming.source_channel, undefined);
  const one = (await t.api(`/webhooks/${follow.body.webhook_id}`, owner)).body;
  assert.deepEqual({ source_guild: one.source_guild, source_channel: one.source_channel }, expected);
  const byGuild = (await t.api(`/guilds/${other.body.id}/webhooks`, owner)).body.find((w: any) => w.id === follow.body.webhook_id);
  assert.deepEqual(byGuild.source_channel, expected.source_channel);

  // A rename of the source channel shows on the next read.
  assert.equal((await t.api(`/channels/${news.body.id}`, { ...owner, method: 'PATCH', body: { name: 'changelog' } })).status, 200);
  const renamed = (await t.api(`/webhooks/${follow.body.webhook_id}`, owner)).body;
  assert.deepEqual(renamed.source_channel, { id: news.body.id, name: 'changelog' });
});
