import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import type { BusEvent } from '../src/bus/bus.js';
import { updateThread } from '../src/services/channels/threads/threads.js';
import type { Actor } from '../src/services/context.js';
import { getUser } from '../src/services/identity/users.js';
import { loadChannel } from '../src/services/channels/threads/core.js';

let t: TestServer;
const events: BusEvent[] = [];
let alice: string; // users[0], guild owner
let bob: string; // users[1], plain member
let bot: string; // every permission but ADMINISTRATOR (MANAGE_THREADS, MANAGE_WEBHOOKS)
let channelId: string;
let guildId: string;

const as = (token: string, isBot = false) => ({ token, bot: isBot });

interface Res {
  status: number;
  body: any;
  text: string;
}
/** Our own request helper: JSON or multipart bodies, and the raw text (to look for leaked tokens). */
async function api(path: string, o: { method?: string; token?: string; bot?: boolean; body?: unknown } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = o.bot ? `Bot ${o.token}` : o.token;
  let body: any;
  if (o.body instanceof FormData) body = o.body;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${t.server.url}/api/v10${path}`, { method: o.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: any = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed, text };
}
const eventsOf = (type: string) => events.filter((e) => e.t === type);

before(async () => {
  t = await startTestServer();
  t.server.ctx.bus.subscribe((e) => events.push(e));
  alice = t.world.users[0].token;
  bob = t.world.users[1].token;
  bot = t.world.botToken;
  channelId = t.world.textChannelId;
  guildId = t.world.guildId;
});
after(async () => t?.close());

async function postMessage(content: string, token = alice) {
  const r = await api(`/channels/${channelId}/messages`, { method: 'POST', ...as(token), body: { content } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function actorOf(i: number): Promise<Actor> {
  return { user: (await getUser(t.server.ctx, t.world.users[i].id))!, kind: 'user', applicationId: null, scopes: [] };
}

// ---------------------------------------------------------------------------------------------------------------
// Threads

test('thread from a message takes the message id; a second one is 160004', async () => {
  const msg = await postMessage('start here');
  events.length = 0;
  const r = await api(`/channels/${channelId}/messages/${msg.id}/threads`, {
    method: 'POST',
    ...as(alice),
    body: { name: 'from message', auto_archive_duration: 60 },
  });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.id, msg.id);
  assert.equal(r.body.type, 11);
  assert.equal(r.body.parent_id, channelId);
  assert.equal(r.body.guild_id, guildId);
  assert.equal(r.body.owner_id, t.world.users[0].id);
  assert.equal(r.body.member_count, 1);
  assert.equal(r.body.thread_metadata.archived, false);
  assert.equal(r.body.thread_metadata.auto_archive_duration, 60);
  assert.equal(typeof r.body.thread_metadata.create_timestamp, 'string');

  const creates = eventsOf('THREAD_CREATE');
  const mine = creates.find((e) => e.user_ids?.includes(t.world.users[0].id));
  assert.ok(mine, 'the creator gets THREAD_CREATE');
  assert.equal(mine.d.newly_created, true);
  assert.equal(mine.d.member.user_id, t.world.users[0].id);
  const others = creates.find((e) => e !== mine);
  assert.ok(others, 'other viewers get THREAD_CREATE');
  assert.ok(!others.user_ids?.includes(t.world.users[0].id), 'the creator gets exactly one THREAD_CREATE');
  assert.equal(others.d.member, undefined, "member is the creator's alone");
  const upd = eventsOf('MESSAGE_UPDATE').find((e) => e.d.id === msg.id);
  assert.ok(upd, 'starter message MESSAGE_UPDATE');
  assert.equal(upd.d.thread?.id, msg.id);

  const starter = await api(`/channels/${channelId}/messages/${msg.id}`, as(alice));
  assert.equal(starter.status, 200);
  assert.equal(starter.body.thread?.id, msg.id);

  const again = await api(`/channels/${channelId}/messages/${msg.id}/threads`, { method: 'POST', ...as(alice), body: { name: 'again' } });
  assert.equal(again.status, 400);
  assert.equal(again.body.code, 160004);
});

test('thread from message: unknown message 10008, bad ids, bad body', async () => {
  const missing = await api(`/channels/${channelId}/messages/123456789012345678/threads`, { method: 'POST', ...as(alice), body: { name: 'x' } });
  assert.equal(missing.body.code, 10008);
  const malformed = await api(`/channels/${channelId}/messages/abc/threads`, { method: 'POST', ...as(alice), body: { name: 'x' } });
  assert.equal(malformed.body.code, 10008);
  const badChannel = await api(`/channels/nope/messages/123/threads`, { method: 'POST', ...as(alice), body: { name: 'x' } });
  assert.equal(badChannel.body.code, 10003);
  const msg = await postMessage('for validation');
  const bad = await api(`/channels/${channelId}/messages/${msg.id}/threads`, { method: 'POST', ...as(alice), body: { name: '', auto_archive_duration: 61 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 50035);
  assert.ok(bad.body.errors.name);
  assert.ok(bad.body.errors.auto_archive_duration);
});

test('threads without a message: public and private (the default type)', async () => {
  const pub = await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'public one', type: 11 } });
  assert.equal(pub.status, 201, pub.text);
  assert.equal(pub.body.type, 11);
  const priv = await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'private one' } });
  assert.equal(priv.status, 201, priv.text);
  assert.equal(priv.body.type, 12);
  assert.equal(priv.body.thread_metadata.invitable, true);
  // Private THREAD_CREATE goes only to its viewers (alice is a member; the bot holds MANAGE_THREADS); never bob.
  const ev = eventsOf('THREAD_CREATE').filter((e) => e.d.id === priv.body.id);
  assert.ok(ev.length);
  for (const e of ev) assert.ok(e.user_ids && !e.user_ids.includes(t.world.users[1].id));
  const onVoice = await api(`/channels/${t.world.voiceChannelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'no', type: 11 } });
  assert.equal(onVoice.body.code, 50024);
});

test('join, leave, add, remove, and list thread members', async () => {
  const pub = (await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'members', type: 11 } })).body;
  events.length = 0;
  assert.equal((await api(`/channels/${pub.id}/thread-members/@me`, { method: 'PUT', ...as(bob) })).status, 204);
  const mu = eventsOf('THREAD_MEMBERS_UPDATE').find((e) => e.d.id === pub.id);
  assert.equal(mu?.d.member_count, 2);
  assert.equal(mu?.d.added_members[0].user_id, t.world.users[1].id);
  assert.equal(mu?.d.added_members[0].member.user.id, t.world.users[1].id);
  const self = eventsOf('THREAD_MEMBER_UPDATE').find((e) => e.d.id === pub.id);
  assert.deepEqual(self?.user_ids, [t.world.users[1].id]);
  assert.equal(self?.d.guild_id, guildId);

  const list = await api(`/channels/${pub.id}/thread-members`, as(bob));
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.map((m: any) => m.user_id).sort(), [t.world.users[0].id, t.world.users[1].id].sort());
  assert.equal(list.body[0].member, undefined);
  const withMember = await api(`/channels/${pub.id}/thread-members?with_member=true&limit=1`, as(bob));
  assert.equal(withMember.body.length, 1);
  assert.ok(withMember.body[0].member.user.id);
  const one = await api(`/channels/${pub.id}/thread-members/${t.world.users[1].id}`, as(alice));
  assert.equal(one.status, 200);
  assert.equal(one.body.id, pub.id);
  assert.equal(typeof one.body.join_timestamp, 'string');

  // Bob may not remove alice from a public thread; the bot (MANAGE_THREADS) may remove bob.
  const denied = await api(`/channels/${pub.id}/thread-members/${t.world.users[0].id}`, { method: 'DELETE', ...as(bob) });
  assert.equal(denied.body.code, 50013);
  assert.equal((await api(`/channels/${pub.id}/thread-members/${t.world.users[1].id}`, { method: 'DELETE', ...as(bot, true) })).status, 204);
  const gone = await api(`/channels/${pub.id}/thread-members/${t.world.users[1].id}`, as(alice));
  assert.equal(gone.body.code, 10007);
  // Join and leave again.
  assert.equal((await api(`/channels/${pub.id}/thread-members/@me`, { method: 'PUT', ...as(bob) })).status, 204);
  assert.equal((await api(`/channels/${pub.id}/thread-members/@me`, { method: 'DELETE', ...as(bob) })).status, 204);
  assert.equal((await api(`/channels/${pub.id}/thread-members/${t.world.users[1].id}`, as(alice))).body.code, 10007);
  // Thread member routes on a non-thread: 10003.
  assert.equal((await api(`/channels/${channelId}/thread-members`, as(alice))).body.code, 10003);
});

test('private threads are hidden from non-members until they are added', async () => {
  const priv = (await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'secret', type: 12 } })).body;
  assert.equal((await api(`/channels/${priv.id}/thread-members`, as(bob))).body.code, 50001);
  assert.equal((await api(`/channels/${priv.id}/thread-members/@me`, { method: 'PUT', ...as(bob) })).body.code, 50001);
  const active = await api(`/guilds/${guildId}/threads/active`, as(bob));
  assert.ok(!active.body.threads.some((c: any) => c.id === priv.id));
  // The bot holds MANAGE_THREADS: it sees the thread.
  assert.equal((await api(`/channels/${priv.id}/thread-members`, as(bot, true))).status, 200);

  events.length = 0;
  assert.equal((await api(`/channels/${priv.id}/thread-members/${t.world.users[1].id}`, { method: 'PUT', ...as(alice) })).status, 204);
  const created = eventsOf('THREAD_CREATE').find((e) => e.d.id === priv.id);
  assert.deepEqual(created?.user_ids, [t.world.users[1].id]);
  assert.equal(created?.d.member.user_id, t.world.users[1].id);
  assert.equal((await api(`/channels/${priv.id}/thread-members`, as(bob))).body.length, 2);
  const after = await api(`/guilds/${guildId}/threads/active`, as(bob));
  assert.ok(after.body.threads.some((c: any) => c.id === priv.id));
  assert.ok(after.body.members.some((m: any) => m.id === priv.id && m.user_id === t.world.users[1].id));
  // The creator of a private thread may remove members.
  assert.equal((await api(`/channels/${priv.id}/thread-members/${t.world.users[1].id}`, { method: 'DELETE', ...as(alice) })).status, 204);
  assert.equal((await api(`/channels/${priv.id}/thread-members`, as(bob))).body.code, 50001);
});

test("active threads list the caller's memberships; archiving moves threads to the archived lists", async () => {
  const pub = (await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(bob), body: { name: 'to archive', type: 11 } })).body;
  const active = await api(`/guilds/${guildId}/threads/active`, as(bob));
  assert.equal(active.status, 200);
  assert.ok(active.body.threads.some((c: any) => c.id === pub.id));
  assert.ok(active.body.members.some((m: any) => m.id === pub.id));
  assert.ok(active.body.members.every((m: any) => m.user_id === t.world.users[1].id));

  // PATCH goes through PATCH /channels/{id} (channels.ts delegates); call the service directly here.
  const thread = (await loadChannel(t.server.ctx, pub.id))!;
  const bobActor = await actorOf(1);
  // The owner may rename and archive, not lock.
  await assert.rejects(updateThread(t.server.ctx, bobActor, thread, { locked: true }), (e: any) => e.code === 50013);
  await assert.rejects(updateThread(t.server.ctx, bobActor, thread, { name: '' }), (e: any) => e.code === 50035);
  events.length = 0;
  const renamed = await updateThread(t.server.ctx, bobActor, thread, { name: 'renamed', archived: true });
  assert.equal(renamed.name, 'renamed');
  assert.equal((renamed.thread_metadata as any).archived, true);
  assert.ok(eventsOf('THREAD_UPDATE').some((e) => e.d.id === pub.id));
  const archivedThread = (await loadChannel(t.server.ctx, pub.id))!;
  await assert.rejects(updateThread(t.server.ctx, bobActor, archivedThread, { name: 'again' }), (e: any) => e.code === 50083);
  assert.equal((await api(`/channels/${pub.id}/thread-members/@me`, { method: 'PUT', ...as(alice) })).body.code, 50083);

  const after = await api(`/guilds/${guildId}/threads/active`, as(bob));
  assert.ok(!after.body.threads.some((c: any) => c.id === pub.id));
  const archived = await api(`/channels/${channelId}/threads/archived/public?limit=2`, as(bob));
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.body.threads[0].id, pub.id);
  assert.equal(archived.body.has_more, false);
  const before = await api(`/channels/${channelId}/threads/archived/public?before=${encodeURIComponent('2000-01-01T00:00:00Z')}`, as(bob));
  assert.equal(before.body.threads.length, 0);
  assert.equal((await api(`/channels/${channelId}/threads/archived/private`, as(bob))).body.code, 50013);
  assert.equal((await api(`/channels/${channelId}/threads/archived/private`, as(bot, true))).status, 200);
  assert.equal((await api(`/channels/${channelId}/users/@me/threads/archived/private`, as(bob))).status, 200);

  // Unarchive (the owner, thread not locked).
  const reopened = await updateThread(t.server.ctx, bobActor, archivedThread, { archived: false });
  assert.equal((reopened.thread_metadata as any).archived, false);

  // The same rules over HTTP (PATCH /channels/{id} delegates threads to updateThread).
  assert.equal((await api(`/channels/${pub.id}`, { method: 'PATCH', ...as(bob), body: { locked: true } })).body.code, 50013);
  const locked = await api(`/channels/${pub.id}`, { method: 'PATCH', ...as(bot, true), body: { locked: true, archived: true, rate_limit_per_user: 5 } });
  assert.equal(locked.status, 200, locked.text);
  assert.equal(locked.body.thread_metadata.locked, true);
  assert.equal(locked.body.rate_limit_per_user, 5);
  assert.equal(
    (await api(`/channels/${pub.id}`, { method: 'PATCH', ...as(bob), body: { archived: false } })).body.code,
    50013,
    'a locked thread stays archived for its owner',
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Webhooks

test('webhooks: the creator sees the token, nobody else does', async () => {
  events.length = 0;
  const created = await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'Hooky' } });
  assert.equal(created.status, 200, created.text);
  const hook = created.body;
  assert.equal(hook.type, 1);
  assert.equal(hook.channel_id, channelId);
  assert.equal(hook.guild_id, guildId);
  assert.equal(hook.user.id, t.world.users[0].id);
  assert.equal(typeof hook.token, 'string');
  assert.ok(hook.token.length >= 60);
  assert.ok(hook.url.endsWith(`/api/webhooks/${hook.id}/${hook.token}`));
  const token: string = hook.token;
  const wu = eventsOf('WEBHOOKS_UPDATE');
  assert.deepEqual(wu[0]?.d, { guild_id: guildId, channel_id: channelId });

  const byCreator = await api(`/webhooks/${hook.id}`, as(alice));
  assert.equal(byCreator.body.token, token);
  // The bot has MANAGE_WEBHOOKS but did not create it.
  for (const path of [`/webhooks/${hook.id}`, `/channels/${channelId}/webhooks`, `/guilds/${guildId}/webhooks`]) {
    const r = await api(path, as(bot, true));
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    assert.ok(!r.text.includes(token), `${path} leaks the token`);
    const obj = Array.isArray(r.body) ? r.body.find((w: any) => w.id === hook.id) : r.body;
    assert.equal(obj.token, undefined);
    assert.equal(obj.url, undefined);
    assert.equal(obj.user.id, t.world.users[0].id);
  }
  const patched = await api(`/webhooks/${hook.id}`, { method: 'PATCH', ...as(bot, true), body: { name: 'Renamed' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.name, 'Renamed');
  assert.ok(!patched.text.includes(token));
  // Bob has no MANAGE_WEBHOOKS.
  assert.equal((await api(`/webhooks/${hook.id}`, as(bob))).body.code, 50013);
  assert.equal((await api(`/channels/${channelId}/webhooks`, as(bob))).body.code, 50013);
  assert.equal((await api(`/guilds/${guildId}/webhooks`, as(bob))).body.code, 50013);

  // Token routes: the token, no user.
  const byToken = await api(`/webhooks/${hook.id}/${token}`);
  assert.equal(byToken.status, 200);
  assert.equal(byToken.body.token, token);
  assert.equal(byToken.body.user, undefined);
  const wrong = await api(`/webhooks/${hook.id}/${token.slice(0, -2)}xx`);
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.code, 50027);
  assert.equal((await api(`/webhooks/123456789012345678/${token}`)).body.code, 10015);
  assert.equal((await api(`/webhooks/nope/${token}`)).body.code, 10015);
  assert.equal((await api(`/webhooks/nope`, as(alice))).body.code, 10015);
  const tokenPatch = await api(`/webhooks/${hook.id}/${token}`, { method: 'PATCH', body: { name: 'Via token', channel_id: t.world.voiceChannelId } });
  assert.equal(tokenPatch.body.name, 'Via token');
  assert.equal(tokenPatch.body.channel_id, channelId, 'channel_id is ignored on the token route');

  for (const e of events) assert.ok(!JSON.stringify(e).includes(token), `${e.t} carries the token`);
});

test('webhook validation and limits', async () => {
  const bad = await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'my Discord hook' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 50035);
  assert.ok(bad.body.errors.name);
  const clyde = await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'CLYDE' } });
  assert.equal(clyde.body.code, 50035);
  const empty = await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: {} });
  assert.equal(empty.body.code, 50035);
  assert.equal((await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(bob), body: { name: 'x' } })).body.code, 50013);
  assert.equal((await api(`/channels/nope/webhooks`, { method: 'POST', ...as(alice), body: { name: 'x' } })).body.code, 10003);

  // A fresh channel fills up at 15.
  const { ctx } = t.server;
  const fresh = ctx.ids.next();
  await ctx.repos.store.db
    .insertInto('channels')
    .values({
      id: fresh,
      type: 0,
      guild_id: guildId,
      position: 9,
      name: 'hooks',
      topic: null,
      nsfw: 0,
      parent_id: null,
      owner_id: null,
      last_message_id: null,
      last_pin_timestamp: null,
      bitrate: null,
      user_limit: null,
      rate_limit_per_user: 0,
      rtc_region: null,
      flags: 0,
      permission_overwrites: '[]',
      recipients: null,
      dm_key: null,
      thread_metadata: null,
      message_count: 0,
      member_count: 0,
      total_message_sent: 0,
      extra: '{}',
      created_at: ctx.clock.now(),
    })
    .execute();
  ctx.access.invalidate(guildId);
  for (let i = 0; i < 15; i++) {
    const r = await api(`/channels/${fresh}/webhooks`, { method: 'POST', ...as(alice), body: { name: `h${i}` } });
    assert.equal(r.status, 200, r.text);
  }
  const full = await api(`/channels/${fresh}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'one too many' } });
  assert.equal(full.body.code, 30007);
});

test('executing a webhook: messages authored by the webhook, never carrying the token', async () => {
  const hook = (await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'Poster' } })).body;
  const token: string = hook.token;
  events.length = 0;

  const sent = await api(`/webhooks/${hook.id}/${token}?wait=true`, { method: 'POST', body: { content: 'hello from a hook', username: 'Custom Name' } });
  assert.equal(sent.status, 200, sent.text);
  assert.equal(sent.body.webhook_id, hook.id);
  assert.equal(sent.body.author.id, hook.id);
  assert.equal(sent.body.author.username, 'Custom Name');
  assert.equal(sent.body.author.bot, true);
  assert.equal(sent.body.channel_id, channelId);
  assert.equal(sent.body.content, 'hello from a hook');
  assert.equal(sent.body.application_id, undefined);
  assert.ok(!sent.text.includes(token));
  const created = eventsOf('MESSAGE_CREATE').find((e) => e.d.id === sent.body.id);
  assert.ok(created);
  assert.equal(created.d.webhook_id, hook.id);

  const quiet = await api(`/webhooks/${hook.id}/${token}`, { method: 'POST', body: { content: 'no wait' } });
  assert.equal(quiet.status, 204);
  const defaultName = eventsOf('MESSAGE_CREATE').find((e) => e.d.content === 'no wait');
  assert.equal(defaultName?.d.author.username, 'Poster');

  // Multipart with payload_json.
  const form = new FormData();
  form.set('payload_json', JSON.stringify({ content: 'with a file' }));
  form.set('files[0]', new Blob(['hello']), 'hello.txt');
  const multi = await api(`/webhooks/${hook.id}/${token}?wait=true`, { method: 'POST', body: form });
  assert.equal(multi.status, 200, multi.text);
  assert.equal(multi.body.attachments.length, 1);

  // Validation.
  const empty = await api(`/webhooks/${hook.id}/${token}`, { method: 'POST', body: {} });
  assert.equal(empty.body.code, 50006);
  const badName = await api(`/webhooks/${hook.id}/${token}`, { method: 'POST', body: { content: 'x', username: 'discord bot' } });
  assert.equal(badName.body.code, 50035);
  assert.ok(badName.body.errors.username);
  assert.equal((await api(`/webhooks/${hook.id}/wrong-token`, { method: 'POST', body: { content: 'x' } })).body.code, 50027);
  assert.equal((await api(`/webhooks/${hook.id}/${token}?thread_id=${channelId}`, { method: 'POST', body: { content: 'x' } })).body.code, 10003);

  // Into a thread of the webhook's channel.
  const thread = (await api(`/channels/${channelId}/threads`, { method: 'POST', ...as(alice), body: { name: 'hook thread', type: 11 } })).body;
  const inThread = await api(`/webhooks/${hook.id}/${token}?wait=true&thread_id=${thread.id}`, { method: 'POST', body: { content: 'in thread' } });
  assert.equal(inThread.status, 200, inThread.text);
  assert.equal(inThread.body.channel_id, thread.id);

  // Get, edit, delete the webhook's message.
  const got = await api(`/webhooks/${hook.id}/${token}/messages/${sent.body.id}`);
  assert.equal(got.status, 200);
  assert.equal(got.body.id, sent.body.id);
  const edited = await api(`/webhooks/${hook.id}/${token}/messages/${sent.body.id}`, { method: 'PATCH', body: { content: 'edited' } });
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.content, 'edited');
  assert.equal(edited.body.author.username, 'Custom Name');
  assert.ok(edited.body.edited_timestamp);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${inThread.body.id}?thread_id=${thread.id}`)).status, 200);
  // Someone else's message is not the webhook's: 10008.
  const other = await postMessage('not a hook message');
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${other.id}`)).body.code, 10008);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${other.id}`, { method: 'PATCH', body: { content: 'hijack' } })).body.code, 10008);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${other.id}`, { method: 'DELETE' })).body.code, 10008);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/nope`)).body.code, 10008);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${sent.body.id}`, { method: 'DELETE' })).status, 204);
  assert.equal((await api(`/webhooks/${hook.id}/${token}/messages/${sent.body.id}`)).body.code, 10008);
  assert.ok(eventsOf('MESSAGE_DELETE').some((e) => e.d.id === sent.body.id));

  // The message as the channel API returns it.
  const listed = await api(`/channels/${channelId}/messages?limit=10`, as(bob));
  assert.ok(!listed.text.includes(token));

  for (const e of events) assert.ok(!JSON.stringify(e).includes(token), `${e.t} carries the token`);
});

test('deleting webhooks, by id and by token', async () => {
  const a = (await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'A' } })).body;
  const b = (await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(bot, true), body: { name: 'B' } })).body;
  assert.equal(b.application_id, t.world.applicationId);
  // Alice (the owner) is not B's creator: no token for her either.
  const seen = await api(`/webhooks/${b.id}`, as(alice));
  assert.equal(seen.body.token, undefined);
  assert.equal((await api(`/webhooks/${a.id}`, { method: 'DELETE', ...as(bob) })).body.code, 50013);
  assert.equal((await api(`/webhooks/${a.id}`, { method: 'DELETE', ...as(bot, true) })).status, 204);
  assert.equal((await api(`/webhooks/${a.id}`, as(alice))).body.code, 10015);
  assert.equal((await api(`/webhooks/${a.id}/${a.token}`, { method: 'POST', body: { content: 'x' } })).body.code, 10015);
  assert.equal((await api(`/webhooks/${b.id}/${b.token}`, { method: 'DELETE' })).status, 204);
  assert.equal((await api(`/webhooks/${b.id}/${b.token}`)).body.code, 10015);
});

test('moving a webhook to another channel of the guild', async () => {
  const hook = (await api(`/channels/${channelId}/webhooks`, { method: 'POST', ...as(alice), body: { name: 'Mover' } })).body;
  const moved = await api(`/webhooks/${hook.id}`, { method: 'PATCH', ...as(alice), body: { channel_id: t.world.voiceChannelId } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.channel_id, t.world.voiceChannelId);
  assert.equal(moved.body.token, hook.token, 'the creator keeps seeing the token');
  const bad = await api(`/webhooks/${hook.id}`, { method: 'PATCH', ...as(alice), body: { channel_id: '123456789012345678' } });
  assert.equal(bad.body.code, 50035);
});

test('forum posts: a thread with its first message', async () => {
  const { ctx } = t.server;
  const forum = ctx.ids.next();
  const tag = ctx.ids.next();
  await ctx.repos.store.db
    .insertInto('channels')
    .values({
      id: forum,
      type: 15,
      guild_id: guildId,
      position: 10,
      name: 'forum',
      topic: null,
      nsfw: 0,
      parent_id: null,
      owner_id: null,
      last_message_id: null,
      last_pin_timestamp: null,
      bitrate: null,
      user_limit: null,
      rate_limit_per_user: 0,
      rtc_region: null,
      flags: 1 << 4,
      permission_overwrites: '[]',
      recipients: null,
      dm_key: null,
      thread_metadata: null,
      message_count: 0,
      member_count: 0,
      total_message_sent: 0,
      extra: JSON.stringify({ available_tags: [{ id: tag, name: 'help', moderated: false, emoji_id: null, emoji_name: null }] }),
      created_at: ctx.clock.now(),
    })
    .execute();
  ctx.access.invalidate(guildId);

  const noMessage = await api(`/channels/${forum}/threads`, { method: 'POST', ...as(bob), body: { name: 'post' } });
  assert.equal(noMessage.body.code, 50035);
  assert.ok(noMessage.body.errors.message);
  const noTag = await api(`/channels/${forum}/threads`, { method: 'POST', ...as(bob), body: { name: 'post', message: { content: 'hi' } } });
  assert.equal(noTag.body.code, 40067);
  const emptyMsg = await api(`/channels/${forum}/threads`, { method: 'POST', ...as(bob), body: { name: 'post', applied_tags: [tag], message: {} } });
  assert.equal(emptyMsg.body.code, 50006);
  assert.equal(
    (await ctx.repos.store.db.selectFrom('channels').select('id').where('parent_id', '=', forum).execute()).length,
    0,
    'a refused post leaves no thread',
  );

  const post = await api(`/channels/${forum}/threads`, {
    method: 'POST',
    ...as(bob),
    body: { name: 'post', applied_tags: [tag], message: { content: 'first post' } },
  });
  assert.equal(post.status, 201, post.text);
  assert.equal(post.body.type, 11);
  assert.equal(post.body.parent_id, forum);
  assert.deepEqual(post.body.applied_tags, [tag]);
  assert.equal(post.body.message.content, 'first post');
  assert.equal(post.body.message.channel_id, post.body.id);
  assert.equal(post.body.message_count, 1);
  // The starter message has the thread's id (discord.js's fetchStarterMessage and discord.py's starter_message read it so).
  assert.equal(post.body.message.id, post.body.id);
  assert.equal(post.body.last_message_id, post.body.id);
  const starter = await api(`/channels/${post.body.id}/messages/${post.body.id}`, as(alice));
  assert.equal(starter.status, 200, starter.text);
  assert.equal(starter.body.content, 'first post');
});
