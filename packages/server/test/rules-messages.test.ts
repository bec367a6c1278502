import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import type { BusEvent } from '../src/bus/bus.js';
import { P } from '@accord/protocol';
import { createApplication, resetBotToken } from '../src/services/identity/applications.js';
import { installBot } from '../src/services/identity/bot-install.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { getUser } from '../src/services/identity/users.js';
import { expectError } from './helpers/fixtures.js';
import { finalizePoll } from '../src/services/messages/polls.js';
import type { Actor } from '../src/services/context.js';

/**
 * HTTP rules of the spec about messages (forwards, enforce_nonce, embed fields, attachment edits), polls, crossposts and
 * followed channels, and the field rules of applications, users and permissions. Each test is named after its rule.
 */
let t: TestServer;
const events: BusEvent[] = [];
const alice = () => t.world.users[0];
const bob = () => t.world.users[1];
const asAlice = () => ({ token: alice().token });
const asBob = () => ({ token: bob().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const show = (r: { body: unknown; text?: string }) => JSON.stringify(r.body);
const seen = (name: string) => events.filter((e) => e.t === name);

async function moveClock(body: { advance_ms?: number; set?: string }) {
  const r = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify(body),
  });
  assert.equal(r.status, 200);
}

async function channel(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asAlice(), body: { name, ...extra } });
  assert.equal(r.status, 201, show(r));
  return r.body.id;
}

async function send(channelId: string, body: unknown, opts: { token: string; bot?: boolean } = asBot()) {
  return t.api(`/channels/${channelId}/messages`, { method: 'POST', ...opts, body });
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => {
  await t.close();
});

// ─── messages ──────────────────────────────────────────────────────────────────────────────────────────────────────

test('forwards: message_reference.type = FORWARD makes a message_snapshot without guild_id', async () => {
  const src = await channel('fwd-source');
  const dst = await channel('fwd-target');
  const original = await send(src, { content: 'forward me', embeds: [{ title: 'e' }] }, asBob());
  const fwd = await send(dst, { message_reference: { type: 1, message_id: original.body.id, channel_id: src, guild_id: g() } });
  assert.equal(fwd.status, 200, show(fwd));
  assert.equal(fwd.body.flags & (1 << 14), 1 << 14, 'HAS_SNAPSHOT');
  assert.equal(fwd.body.content, '');
  assert.deepEqual(fwd.body.message_reference, { type: 1, message_id: original.body.id, channel_id: src, guild_id: g() });
  assert.equal(fwd.body.referenced_message, undefined);
  const snap = fwd.body.message_snapshots[0].message;
  assert.equal(snap.content, 'forward me');
  assert.equal(snap.embeds[0].title, 'e');
  assert.equal('guild_id' in snap, false, 'a snapshot has no guild_id');
  assert.equal('id' in snap, false);
  assert.equal(typeof snap.timestamp, 'string');
});

test('forwards: error 160014 when the content is unreadable', async () => {
  const src = await channel('fwd-secret');
  const dst = t.world.textChannelId;
  const original = await send(src, { content: 'secret' }, asAlice());
  // bob cannot read the source channel's history.
  const deny = await t.api(`/channels/${src}/permissions/${bob().id}`, {
    method: 'PUT',
    ...asAlice(),
    body: { type: 1, deny: String(P.READ_MESSAGE_HISTORY) },
  });
  assert.equal(deny.status, 204);
  const r = await send(dst, { message_reference: { type: 1, message_id: original.body.id, channel_id: src } }, asBob());
  expectError(r, 403, 160014);
  assert.equal(r.body.message, 'You cannot forward a message whose content you cannot read');

  // A bot whose app lacks the MESSAGE_CONTENT intent cannot read others' guild messages, so it cannot forward them…
  const ctx = t.server.ctx;
  const owner: Actor = { user: (await getUser(ctx, alice().id))!, kind: 'user', applicationId: null, scopes: [] };
  const app = await createApplication(ctx, owner, { name: 'No Content Bot' });
  const token = await resetBotToken(ctx, app);
  await installBot(ctx, owner, { clientId: app.id, guildId: g(), permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY });
  const other = await send(dst, { content: 'not for bots' }, asAlice());
  expectError(await send(dst, { message_reference: { type: 1, message_id: other.body.id, channel_id: dst } }, { token, bot: true }), 403, 160014);
  // …but it can forward its own messages and messages that mention it.
  const own = await send(dst, { content: 'mine' }, { token, bot: true });
  assert.equal((await send(dst, { message_reference: { type: 1, message_id: own.body.id, channel_id: dst } }, { token, bot: true })).status, 200);
  const mention = await send(dst, { content: `hey <@${app.bot_user_id}>` }, asAlice());
  assert.equal((await send(dst, { message_reference: { type: 1, message_id: mention.body.id, channel_id: dst } }, { token, bot: true })).status, 200);
  // The seeded bot has the intent: it may forward anything it can read.
  assert.equal((await send(dst, { message_reference: { type: 1, message_id: other.body.id, channel_id: dst } })).status, 200);
});

test('enforce_nonce returns the earlier message within the window (five minutes), a new one after it', async () => {
  const ch = await channel('nonce');
  const a = await send(ch, { content: 'first', nonce: 'n-1', enforce_nonce: true });
  assert.equal(a.status, 200);
  await moveClock({ advance_ms: 4 * 60_000 });
  const b = await send(ch, { content: 'second', nonce: 'n-1', enforce_nonce: true });
  assert.equal(b.body.id, a.body.id, 'inside the window: the earlier message');
  assert.equal(b.body.content, 'first');
  await moveClock({ advance_ms: 2 * 60_000 });
  const c = await send(ch, { content: 'third', nonce: 'n-1', enforce_nonce: true });
  assert.notEqual(c.body.id, a.body.id, 'past the window: a new message');
  const d = await send(ch, { content: 'fourth', nonce: 'n-1' });
  assert.notEqual(d.body.id, c.body.id, 'without enforce_nonce the nonce is not enforced');
});

test('an embed with more than 25 fields is an error, not a silent truncation', async () => {
  const ch = await channel('fields');
  const field = (i: number) => ({ name: `f${i}`, value: 'v' });
  const ok = await send(ch, { embeds: [{ title: 't', fields: Array.from({ length: 25 }, (_, i) => field(i)) }] });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.embeds[0].fields.length, 25);
  const r = await send(ch, { embeds: [{ title: 't', fields: Array.from({ length: 26 }, (_, i) => field(i)) }] });
  expectError(r, 400, 50035);
  assert.equal(r.body.errors.embeds['0'].fields._errors[0].code, 'BASE_TYPE_MAX_LENGTH');
  const edit = await t.api(`/channels/${ch}/messages/${ok.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: { embeds: [{ fields: Array.from({ length: 26 }, (_, i) => field(i)) }] },
  });
  expectError(edit, 400, 50035);
});

test('attachments: is_spoiler and description are editable on existing attachments; IS_SPOILER is set; the SPOILER_ prefix still counts', async () => {
  const ch = await channel('spoilers');
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'files', attachments: [{ id: 0, description: 'plain' }, { id: 1 }] }));
  form.append('files[0]', new Blob([Buffer.from('a')], { type: 'text/plain' }), 'a.txt');
  form.append('files[1]', new Blob([Buffer.from('b')], { type: 'text/plain' }), 'SPOILER_b.txt');
  const made = await t.api(`/channels/${ch}/messages`, { method: 'POST', ...asBot(), body: form });
  assert.equal(made.status, 200, show(made));
  const [a, b] = made.body.attachments;
  assert.equal(a.flags & 8, 0);
  assert.equal(b.flags & 8, 8, 'the SPOILER_ prefix marks a spoiler');
  const edit = await t.api(`/channels/${ch}/messages/${made.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: {
      attachments: [
        { id: a.id, description: 'now hidden', is_spoiler: true },
        { id: b.id, is_spoiler: false },
      ],
    },
  });
  assert.equal(edit.status, 200, show(edit));
  const [a2, b2] = edit.body.attachments;
  assert.equal(a2.id, a.id);
  assert.equal(a2.description, 'now hidden');
  assert.equal(a2.flags & 8, 8, 'IS_SPOILER set by is_spoiler on an existing attachment');
  assert.equal(a2.filename, 'a.txt', 'not every spoiler has the prefix');
  assert.equal(b2.id, b.id);
});

// ─── polls ─────────────────────────────────────────────────────────────────────────────────────────────────────────

test('polls: create with a message, vote (people only), MESSAGE_POLL_VOTE_ADD/REMOVE, voters, end by the author', async () => {
  const ch = t.world.textChannelId;
  const gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: (1 << 0) | (1 << 24) });
  await gw.dispatch('GUILD_CREATE');
  const made = await send(ch, {
    poll: {
      question: { text: 'Tea or coffee?' },
      answers: [{ poll_media: { text: 'Tea' } }, { poll_media: { text: 'Coffee', emoji: { name: '☕' } } }],
      duration: 2,
      allow_multiselect: false,
    },
  });
  assert.equal(made.status, 200, show(made));
  const poll = made.body.poll;
  assert.deepEqual(
    poll.answers.map((a: any) => a.answer_id),
    [1, 2],
  );
  assert.deepEqual(poll.results, { is_finalized: false, answer_counts: [] });
  const base = `/channels/${ch}/polls/${made.body.id}`;

  expectError(await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBot(), body: { answer_ids: ['1'] } }), 403, 20001);
  expectError(await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['1', '2'] } }), 400, 50035);
  expectError(await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['9'] } }), 400, 50035);
  assert.equal((await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['1'] } })).status, 204);
  const add = await gw.dispatch('MESSAGE_POLL_VOTE_ADD');
  assert.deepEqual(add, { user_id: bob().id, channel_id: ch, message_id: made.body.id, guild_id: g(), answer_id: 1 });
  assert.equal((await t.api(`${base}/answers/@me`, { method: 'PUT', ...asAlice(), body: { answer_ids: [2] } })).status, 204);
  // bob changes his vote: a remove, then an add.
  assert.equal((await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['2'] } })).status, 204);
  const removed = await gw.dispatch('MESSAGE_POLL_VOTE_REMOVE');
  assert.equal(removed.answer_id, 1);
  await gw.dispatch('MESSAGE_POLL_VOTE_ADD', (d) => d.user_id === bob().id && d.answer_id === 2);
  gw.close();

  const voters = await t.api(`${base}/answers/2`, asBot());
  assert.equal(voters.status, 200);
  assert.deepEqual(voters.body.users.map((u: any) => u.id).sort(), [alice().id, bob().id].sort());
  assert.deepEqual((await t.api(`${base}/answers/1`, asBot())).body.users, []);
  assert.equal((await t.api(`${base}/answers/2?limit=1`, asBot())).body.users.length, 1);
  expectError(await t.api(`${base}/answers/7`, asBot()), 404, 10108);
  const counts = (await t.api(`/channels/${ch}/messages/${made.body.id}`, asBot())).body.poll.results;
  assert.deepEqual(counts, { is_finalized: false, answer_counts: [{ id: 2, count: 2, me_voted: false }] });

  // Only the author ends a poll; a message without a poll cannot be expired.
  expectError(await t.api(`${base}/expire`, { method: 'POST', ...asAlice() }), 403, 50005);
  const plain = await send(ch, { content: 'no poll' });
  expectError(await t.api(`/channels/${ch}/polls/${plain.body.id}/expire`, { method: 'POST', ...asBot() }), 400, 520006);
  const ended = await t.api(`${base}/expire`, { method: 'POST', ...asBot() });
  assert.equal(ended.status, 200, show(ended));
  assert.equal(ended.body.poll.results.is_finalized, true);
  assert.ok(Date.parse(ended.body.poll.expiry) <= t.server.ctx.clock.now());
  expectError(await t.api(`${base}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['1'] } }), 400, 520001);
  expectError(await t.api(`${base}/expire`, { method: 'POST', ...asBot() }), 400, 520001);
  const result = await until(
    () => seen('MESSAGE_CREATE').find((e) => e.d.type === 46 && e.d.message_reference?.message_id === made.body.id),
    5000,
    'POLL_RESULT',
  );
  const fields = Object.fromEntries(result.d.embeds[0].fields.map((f: any) => [f.name, f.value]));
  assert.equal(result.d.embeds[0].type, 'poll_result');
  assert.deepEqual(fields, {
    poll_question_text: 'Tea or coffee?',
    victor_answer_votes: '2',
    total_votes: '2',
    victor_answer_id: '2',
    victor_answer_text: 'Coffee',
    victor_answer_emoji_name: '☕',
  });
});

test('polls: a poll ends once however many processes run its clock (the end is a compare-and-set in the store)', async () => {
  const ch = t.world.textChannelId;
  const made = await send(ch, { poll: { question: { text: 'Once?' }, answers: [{ poll_media: { text: 'A' } }, { poll_media: { text: 'B' } }], duration: 1 } });
  assert.equal(made.status, 200, show(made));
  const repos = t.server.ctx.repos;
  const stored = (await repos.messages.byId(made.body.id))!;
  const ended = { ...stored.extra, poll: { ...(stored.extra.poll as object), results: { is_finalized: true, answer_counts: [] } } };
  // Another worker or node ends it first; this process's clock then finds it ended and sends nothing more.
  assert.equal(await repos.messages.endPoll(made.body.id, ended), true);
  assert.equal(await repos.messages.endPoll(made.body.id, ended), false);
  const after = await finalizePoll(t.server.ctx, made.body.id);
  assert.equal((after?.extra.poll as any)?.results?.is_finalized, true);
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(seen('MESSAGE_CREATE').filter((e) => e.d.type === 46 && e.d.message_reference?.message_id === made.body.id).length, 0);
});

test('polls: results are finalized at expiry by the server clock', async () => {
  const ch = t.world.textChannelId;
  const poll = (text: string) =>
    send(ch, { poll: { question: { text }, answers: [{ poll_media: { text: 'A' } }, { poll_media: { text: 'B' } }], duration: 1 } });
  // A sentinel poll 30 minutes older: the clock move that ends it but not the other one is the barrier below.
  const sentinel = await poll('Sentinel');
  await moveClock({ advance_ms: 30 * 60_000 });
  const made = await poll('Soon over');
  assert.equal(made.status, 200);
  await t.api(`/channels/${ch}/polls/${made.body.id}/answers/@me`, { method: 'PUT', ...asBob(), body: { answer_ids: ['1'] } });
  // Before the expiry nothing happens: once the poll clock has finalized the sentinel (past its hour), it has looked at
  // this one too (59 minutes in).
  await moveClock({ advance_ms: 59 * 60_000 });
  await until(() => seen('MESSAGE_UPDATE').find((e) => e.d.id === sentinel.body.id && e.d.poll?.results?.is_finalized), 5000, 'the sentinel finalized');
  assert.equal((await t.api(`/channels/${ch}/messages/${made.body.id}`, asBot())).body.poll.results.is_finalized, false);
  // Past it, the clock finalizes the poll: MESSAGE_UPDATE, then the POLL_RESULT message.
  await moveClock({ advance_ms: 2 * 60_000 });
  const update = await until(() => seen('MESSAGE_UPDATE').find((e) => e.d.id === made.body.id && e.d.poll?.results?.is_finalized), 5000, 'finalized poll');
  assert.deepEqual(update.d.poll.results.answer_counts, [{ id: 1, count: 1, me_voted: false }]);
  await until(() => seen('MESSAGE_CREATE').find((e) => e.d.type === 46 && e.d.message_reference?.message_id === made.body.id), 5000, 'POLL_RESULT');
  expectError(await t.api(`/channels/${ch}/polls/${made.body.id}/answers/@me`, { method: 'PUT', ...asAlice(), body: { answer_ids: ['2'] } }), 400, 520001);
});

// ─── crossposting and followed channels ────────────────────────────────────────────────────────────────────────────

test('followed channels: POST /channels/{id}/followers makes a webhook of type 2 in the target channel', async () => {
  const ann = await channel('news', { type: 5 });
  const target = await channel('news-feed');
  expectError(await t.api(`/channels/${target}/followers`, { method: 'POST', ...asBot(), body: { webhook_channel_id: target } }), 400, 50024);
  expectError(await t.api(`/channels/${ann}/followers`, { method: 'POST', ...asBob(), body: { webhook_channel_id: target } }), 403, 50013);
  const f = await t.api(`/channels/${ann}/followers`, { method: 'POST', ...asBot(), body: { webhook_channel_id: target } });
  assert.equal(f.status, 200, show(f));
  assert.equal(f.body.channel_id, ann);
  const hooks = await t.api(`/channels/${target}/webhooks`, asBot());
  const hook = hooks.body.find((w: any) => w.id === f.body.webhook_id);
  assert.equal(hook.type, 2);
  assert.equal(hook.token, undefined);
  assert.equal(hook.name, 'Accord Dev #news');
  assert.equal(seen('WEBHOOKS_UPDATE').at(-1)?.d.channel_id, target);
});

test('crossposting: announcement channels only; once per message (40033); followers receive the copy', async () => {
  const ann = await channel('announcements', { type: 5 });
  const target = await channel('announcement-feed');
  const f = await t.api(`/channels/${ann}/followers`, { method: 'POST', ...asBot(), body: { webhook_channel_id: target } });
  const m = await send(ann, { content: 'Release 1.0' });
  expectError(await t.api(`/channels/${ann}/messages/${m.body.id}/crosspost`, { method: 'POST', ...asBob() }), 403, 50013);
  const x = await t.api(`/channels/${ann}/messages/${m.body.id}/crosspost`, { method: 'POST', ...asBot() });
  assert.equal(x.status, 200, show(x));
  assert.equal(x.body.flags & 1, 1, 'CROSSPOSTED');
  expectError(await t.api(`/channels/${ann}/messages/${m.body.id}/crosspost`, { method: 'POST', ...asBot() }), 400, 40033);
  const copy = (await t.api(`/channels/${target}/messages`, asBot())).body[0];
  assert.equal(copy.content, 'Release 1.0');
  assert.equal(copy.webhook_id, f.body.webhook_id);
  assert.equal(copy.flags & 2, 2, 'IS_CROSSPOST');
  assert.deepEqual(
    { channel_id: copy.message_reference.channel_id, message_id: copy.message_reference.message_id, guild_id: copy.message_reference.guild_id },
    { channel_id: ann, message_id: m.body.id, guild_id: g() },
  );
  const plain = await send(t.world.textChannelId, { content: 'not news' });
  expectError(await t.api(`/channels/${t.world.textChannelId}/messages/${plain.body.id}/crosspost`, { method: 'POST', ...asBot() }), 400, 50024);
});

// ─── field rules ───────────────────────────────────────────────────────────────────────────────────────────────────

test('application: flags stays 32-bit and flags_new carries every bit', async () => {
  const high = (1n << 33n) | (1n << 31n) | (1n << 19n);
  await t.server.ctx.repos.store.db.updateTable('applications').set({ flags: high.toString() }).where('id', '=', t.world.applicationId).execute();
  const me = await t.api('/applications/@me', asBot());
  assert.equal(me.status, 200);
  assert.equal(me.body.flags_new, high.toString());
  assert.equal(me.body.flags, 1 << 19, 'only bits that fit a signed 32-bit integer');
  assert.ok(Number.isInteger(me.body.flags) && me.body.flags < 2 ** 31);
  assert.equal((await t.api(`/applications/${t.world.applicationId}`, asAlice())).body.flags_new, high.toString());
});

test('user: premium_type is 0 without identify.premium', async () => {
  const ctx = t.server.ctx;
  await ctx.repos.store.db.updateTable('users').set({ premium_type: 2 }).where('id', '=', bob().id).execute();
  const plain = await issueToken(ctx, bob().id, 'bearer', { applicationId: t.world.applicationId, scopes: ['identify'] });
  const premium = await issueToken(ctx, bob().id, 'bearer', { applicationId: t.world.applicationId, scopes: ['identify', 'identify.premium'] });
  assert.equal((await t.api('/users/@me', { headers: { authorization: `Bearer ${plain}` } })).body.premium_type, 0);
  assert.equal((await t.api('/users/@me', { headers: { authorization: `Bearer ${premium}` } })).body.premium_type, 2);
});

test('permission fields: string forms permissions_new, allow_new and deny_new', async () => {
  const roles = await t.api(`/guilds/${g()}/roles`, asBot());
  for (const r of roles.body) {
    assert.equal(typeof r.permissions_new, 'string');
    assert.equal(r.permissions_new, r.permissions);
  }
  const ch = await channel('overwritten');
  const big = (P.PIN_MESSAGES | P.VIEW_CHANNEL).toString();
  await t.api(`/channels/${ch}/permissions/${bob().id}`, { method: 'PUT', ...asAlice(), body: { type: 1, allow: big, deny: String(P.SEND_MESSAGES) } });
  const got = await t.api(`/channels/${ch}`, asBot());
  const ow = got.body.permission_overwrites.find((o: any) => o.id === bob().id);
  assert.deepEqual(
    { allow: ow.allow, deny: ow.deny, allow_new: ow.allow_new, deny_new: ow.deny_new },
    { allow: big, deny: String(P.SEND_MESSAGES), allow_new: big, deny_new: String(P.SEND_MESSAGES) },
  );
});
