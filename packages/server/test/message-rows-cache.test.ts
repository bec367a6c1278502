import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { messageEventWire } from '../src/services/messages/view.js';
import { getMessage } from '../src/services/messages/read.js';
import { loadChannel } from '../src/services/messages/channel.js';

// Message creates keep their channel's row and their author's member in memory (services/guilds/rows.ts). Every
// change that matters to a send must reach them, on this node and (with Redis) from another node.

let t: TestServer;
let other: TestServer | null = null;
before(async () => {
  t = await startTestServer();
  // With PostgreSQL and Redis, changes are made on a second node of the deployment, so they arrive through the bus.
  if (t.server.ctx.config.redisUrl) other = await startTestServer({ join: t });
});
after(async () => {
  await other?.close();
  await t.close();
});

const owner = () => t.world.users[0].token;
const bob = () => t.world.users[1];
/** Where changes are made: the other node when there is one. */
const admin = (path: string, method: string, body: unknown) => (other ?? t).api(path, { method, token: owner(), body });
const post = (channelId: string, content: string) => t.api(`/channels/${channelId}/messages`, { method: 'POST', token: bob().token, body: { content } });

test('a slowmode set after a send applies to the next send', async () => {
  const channelId = t.world.textChannelId;
  assert.equal((await post(channelId, 'before slowmode')).status, 200);
  assert.equal((await post(channelId, 'still no slowmode')).status, 200, 'the kept row is used while nothing changed');
  assert.equal((await admin(`/channels/${channelId}`, 'PATCH', { rate_limit_per_user: 60 })).status, 200);
  const res = await until(
    async () => {
      const r = await post(channelId, 'after slowmode');
      return r.status === 429 ? r : null;
    },
    10_000,
    'the slowmode to apply',
  );
  assert.equal(res.body.code, 20016);
  assert.equal((await admin(`/channels/${channelId}`, 'PATCH', { rate_limit_per_user: 0 })).status, 200);
});

test('a thread archived and locked after a send refuses the next send', async () => {
  const created = await t.api(`/channels/${t.world.textChannelId}/threads`, { method: 'POST', token: owner(), body: { name: 'kept', type: 11 } });
  assert.equal(created.status, 201, created.text);
  const threadId = created.body.id;
  assert.equal((await post(threadId, 'in the open thread')).status, 200);
  assert.equal((await admin(`/channels/${threadId}`, 'PATCH', { archived: true, locked: true })).status, 200);
  const res = await until(
    async () => {
      const r = await post(threadId, 'in the locked thread');
      return r.status === 400 ? r : null;
    },
    10_000,
    'the lock to apply',
  );
  assert.equal(res.body.code, 50083);
  const thread = await loadChannel(t.server.ctx, threadId);
  assert.equal(thread.message_count, 1, 'the refused send was not counted');
});

test("a nickname changed after a send is the next MESSAGE_CREATE's member nick", async () => {
  const channelId = t.world.textChannelId;
  const first = await post(channelId, 'with no nick');
  assert.equal(first.status, 200);
  const ctx = t.server.ctx;
  const ch = await loadChannel(ctx, channelId);
  const event = async (id: string) => messageEventWire(ctx, await getMessage(ctx, ch, bob().id, id));
  assert.equal(((await event(first.body.id)).member as { nick: string | null }).nick, null);

  assert.equal((await admin(`/guilds/${t.world.guildId}/members/${bob().id}`, 'PATCH', { nick: 'Robert' })).status, 200);
  const nick = await until(
    async () => {
      const next = await post(channelId, 'with a nick');
      const member = (await event(next.body.id)).member as { nick: string | null };
      return member.nick;
    },
    10_000,
    'the new nick',
  );
  assert.equal(nick, 'Robert');
});

test('a member removed after a send can no longer send there', async () => {
  const channelId = t.world.textChannelId;
  assert.equal((await post(channelId, 'still a member')).status, 200);
  assert.equal((await admin(`/guilds/${t.world.guildId}/members/${bob().id}`, 'DELETE', undefined)).status, 204);
  const res = await until(
    async () => {
      const r = await post(channelId, 'no longer a member');
      return r.status !== 200 ? r : null;
    },
    10_000,
    'the removal to apply',
  );
  assert.equal(res.status, 404);
  assert.equal(res.body.code, 10003);
});
