import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createGuild } from '../src/services/guilds/create.js';
import { getUser } from '../src/services/identity/users.js';

/** Guild preview, new-member welcome, join requests, thread search and Activity instances (http/routes/small-reads.ts). */

let t: TestServer;
const bot = () => ({ token: t.world.botToken, bot: true });
const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });

before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

test('guild preview: members see it with counts, emoji and stickers; others only for DISCOVERABLE guilds', async () => {
  const { guildId } = t.world;
  const r = await t.api(`/guilds/${guildId}/preview`, bot());
  assert.equal(r.status, 200);
  assert.equal(r.body.id, guildId);
  assert.equal(r.body.approximate_member_count, 3);
  assert.deepEqual([r.body.emojis, r.body.stickers], [[], []]);
  assert.equal(r.body.home_header, null);

  const bobUser = (await getUser(t.server.ctx, t.world.users[1].id))!;
  const other = await createGuild(t.server.ctx, bobUser, { name: 'Not for alice' });
  assert.equal((await t.api(`/guilds/${other}/preview`, alice())).status, 404);
  await t.server.ctx.repos.store.db
    .updateTable('guilds')
    .set({ features: JSON.stringify(['DISCOVERABLE']) })
    .where('id', '=', other)
    .execute();
  assert.equal((await t.api(`/guilds/${other}/preview`, alice())).status, 200);
  assert.equal((await t.api('/guilds/123/preview', alice())).status, 404);
});

test('new-member welcome: 204 without a Server Guide; join requests: empty list for reviewers, 403 for others', async () => {
  const { guildId } = t.world;
  const w = await t.api(`/guilds/${guildId}/new-member-welcome`, bot());
  assert.equal(w.status, 204);
  assert.equal(w.text, '');
  const j = await t.api(`/guilds/${guildId}/requests`, bot());
  assert.equal(j.status, 200);
  assert.deepEqual(j.body, { guild_join_requests: [], total: 0 });
  const denied = await t.api(`/guilds/${guildId}/requests`, bob());
  assert.equal(denied.status, 403);
  assert.equal(denied.body.code, 50013);
});

test('thread search: name words, archived state, private visibility, sort and offset paging', async () => {
  const ch = t.world.textChannelId;
  const mk = async (name: string, type = 11, who: { token: string; bot?: boolean } = bot()) =>
    (await t.api(`/channels/${ch}/threads`, { ...who, method: 'POST', body: { name, type } })).body.id as string;
  const red = await mk('red apple pie');
  const green = await mk('green apple');
  const other = await mk('banana bread');
  const secret = await mk('secret apple', 12, alice());
  await t.api(`/channels/${other}`, { ...bot(), method: 'PATCH', body: { archived: true } });

  const apple = await t.api(`/channels/${ch}/threads/search?name=apple`, bot());
  assert.equal(apple.status, 200);
  // The bot has MANAGE_THREADS, so it also finds alice's private thread.
  assert.deepEqual(new Set(apple.body.threads.map((x: any) => x.id)), new Set([red, green, secret]));
  assert.equal(apple.body.total_results, 3);
  assert.equal(apple.body.has_more, false);

  const bobs = await t.api(`/channels/${ch}/threads/search?name=apple`, bob());
  assert.deepEqual(new Set(bobs.body.threads.map((x: any) => x.id)), new Set([red, green]));
  assert.deepEqual(bobs.body.members, []);

  const both = await t.api(`/channels/${ch}/threads/search?name=${encodeURIComponent('apple pie')}`, bob());
  assert.deepEqual(
    both.body.threads.map((x: any) => x.id),
    [red],
  );

  const archived = await t.api(`/channels/${ch}/threads/search?archived=true`, bob());
  assert.deepEqual(
    archived.body.threads.map((x: any) => x.id),
    [other],
  );

  const page1 = await t.api(`/channels/${ch}/threads/search?name=apple&sort_by=creation_time&sort_order=asc&limit=1`, bob());
  assert.deepEqual([page1.body.threads[0].id, page1.body.has_more, page1.body.total_results], [red, true, 2]);
  const page2 = await t.api(`/channels/${ch}/threads/search?name=apple&sort_by=creation_time&sort_order=asc&limit=1&offset=1`, bob());
  assert.deepEqual([page2.body.threads[0].id, page2.body.has_more], [green, false]);

  const mine = await t.api(`/channels/${ch}/threads/search?name=apple`, alice());
  assert.ok(mine.body.members.some((m: any) => m.id === secret));

  assert.equal((await t.api(`/channels/${ch}/threads/search?limit=26`, bob())).status, 400);
  assert.equal((await t.api(`/channels/${t.world.voiceChannelId}/threads/search`, bob())).status, 400);
});

test('activity instance: found through its launching interaction; unknown ones are 404 code 0', async () => {
  const { ctx } = t.server;
  const appId = t.world.applicationId;
  const row = await ctx.repos.store.db.selectFrom('applications').select('flags').where('id', '=', appId).executeTakeFirstOrThrow();
  await ctx.repos.store.db
    .updateTable('applications')
    .set({ flags: (BigInt(row.flags as any) | (1n << 17n)).toString() })
    .where('id', '=', appId)
    .execute();
  const cmd = (
    await t.api(`/applications/${appId}/guilds/${t.world.guildId}/commands`, {
      ...bot(),
      method: 'POST',
      body: { name: 'launch', description: 'Launch it', type: 1 },
    })
  ).body;
  const seen: any[] = [];
  const off = ctx.bus.subscribe((e) => {
    if (e.t === 'INTERACTION_CREATE' && e.d?.token) seen.push(e.d);
  });
  const inv = await t.api('/interactions', {
    ...alice(),
    method: 'POST',
    body: {
      type: 2,
      application_id: appId,
      guild_id: t.world.guildId,
      channel_id: t.world.textChannelId,
      session_id: 's',
      data: { id: cmd.id, name: 'launch', type: 1, version: cmd.version },
    },
  });
  assert.equal(inv.status, 204);
  for (let i = 0; i < 100 && !seen.length; i++) await new Promise((r) => setTimeout(r, 10));
  off();
  const i = seen[0];
  const cb = await t.api(`/interactions/${i.id}/${i.token}/callback?with_response=true`, { method: 'POST', body: { type: 12 } });
  assert.equal(cb.status, 200);
  const instance = cb.body.interaction.activity_instance_id as string;

  const r = await t.api(`/applications/${appId}/activity-instances/${instance}`, bot());
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    application_id: appId,
    instance_id: instance,
    launch_id: i.id,
    location: { id: `gc-${t.world.guildId}-${t.world.textChannelId}`, kind: 'gc', channel_id: t.world.textChannelId, guild_id: t.world.guildId },
    users: [t.world.users[0].id],
  });
  const unknown = await t.api(`/applications/${appId}/activity-instances/i-123-gc-1-2`, bot());
  assert.deepEqual([unknown.status, unknown.body], [404, { message: '404: Not Found', code: 0 }]);
  assert.equal((await t.api(`/applications/${appId}/activity-instances/${instance}`, alice())).status, 403);
});
