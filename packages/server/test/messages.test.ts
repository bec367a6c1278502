import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { P, snowflakeAt } from '@accord/protocol';
import type { BusEvent } from '../src/bus/bus.js';

let t: TestServer;

interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}
interface Opts {
  method?: string;
  token?: string;
  bot?: boolean;
  body?: unknown;
}

/** Requests against the API; FormData bodies go out as multipart, anything else as JSON. */
async function api(p: string, o: Opts = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = o.bot ? `Bot ${o.token}` : o.token;
  let body: string | FormData | undefined;
  if (o.body instanceof FormData) body = o.body;
  else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${t.server.url}/api/v10${p}`, { method: o.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}
let bot: string;
let alice: string; // owns the guild
let bob: string; // plain member
const events: BusEvent[] = [];

before(async () => {
  t = await startTestServer();
  bot = t.world.botToken;
  alice = t.world.users[0].token;
  bob = t.world.users[1].token;
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => t?.close());

const asBot = { token: '', bot: true };
const botOpts = () => ({ ...asBot, token: bot });

async function send(channelId: string, body: unknown, token = bot, isBot = token === bot) {
  return api(`/channels/${channelId}/messages`, { method: 'POST', token, bot: isBot, body });
}

/** A fresh channel of the seeded guild, inserted directly so tests do not share history. */
async function makeChannel(fields: Record<string, unknown> = {}): Promise<string> {
  const ctx = t.server.ctx;
  const id = ctx.ids.next();
  await ctx.repos.store.db
    .insertInto('channels')
    .values({
      id,
      type: 0,
      guild_id: t.world.guildId,
      position: 10,
      name: `c-${id.slice(-4)}`,
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
      ...fields,
    } as any)
    .execute();
  ctx.access.invalidate(t.world.guildId);
  return id;
}

function lastEvent(name: string): BusEvent | undefined {
  return [...events].reverse().find((e) => e.t === name);
}

test('create: content, mentions, member, MESSAGE_CREATE payload, last_message_id', async () => {
  const ch = await makeChannel();
  const bobId = t.world.users[1].id;
  const r = await send(ch, { content: `hi <@${bobId}> and <@!${bobId}> <@123>`, tts: false });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.content, `hi <@${bobId}> and <@!${bobId}> <@123>`);
  assert.equal(r.body.type, 0);
  assert.equal(r.body.channel_id, ch);
  assert.equal(r.body.author.id, t.world.botUserId);
  assert.deepEqual(
    r.body.mentions.map((u: any) => u.id),
    [bobId],
  );
  assert.equal(r.body.pinned, false);
  assert.equal(r.body.edited_timestamp, null);
  assert.equal(r.body.member, undefined, 'member is a gateway-only field');
  const ev = lastEvent('MESSAGE_CREATE')!;
  assert.equal(ev.d.id, r.body.id);
  assert.equal(ev.guild_id, t.world.guildId);
  assert.equal(ev.d.guild_id, t.world.guildId);
  assert.ok(ev.d.member && !('user' in ev.d.member), 'partial author member');
  assert.ok(ev.d.mentions[0].member, 'mention member');
  assert.equal((await t.server.ctx.repos.channels.byId(ch))!.last_message_id, r.body.id);
  assert.equal((await api(`/channels/${ch}`, botOpts())).body.last_message_id, r.body.id);
});

test('create: errors', async () => {
  const ch = await makeChannel();
  let r = await send('999999999999999999', { content: 'x' });
  assert.equal(r.body.code, 10003);
  r = await send('not-an-id', { content: 'x' });
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 10003);
  r = await send(ch, { content: '' });
  assert.equal(r.body.code, 50006);
  r = await send(ch, { content: '   ' });
  assert.equal(r.body.code, 50006);
  r = await send(ch, { content: 'x'.repeat(2001) });
  assert.equal(r.body.code, 50035);
  assert.equal(r.body.errors.content._errors[0].code, 'BASE_TYPE_MAX_LENGTH');
  r = await send(ch, { content: 'x', flags: 64 });
  assert.equal(r.body.code, 50035);
  assert.ok(r.body.errors.flags);
  r = await send(ch, { content: 'x', nonce: 'n'.repeat(26) });
  assert.equal(r.body.code, 50035);
  assert.ok(r.body.errors.nonce);
  r = await send(ch, { content: 'x', allowed_mentions: { parse: ['users'], users: ['1'] } });
  assert.equal(r.body.code, 50035);
  r = await send(ch, { content: 'x', sticker_ids: ['1', '2', '3', '4'] });
  assert.equal(r.body.code, 50035);
  const count = await t.server.ctx.repos.store.db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('channel_id', '=', ch)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0, 'bad requests write nothing');
});

test('create: channel types', async () => {
  const category = await makeChannel({ type: 4 });
  const forum = await makeChannel({ type: 15 });
  assert.equal((await send(category, { content: 'x' })).body.code, 50008);
  assert.equal((await send(forum, { content: 'x' })).body.code, 40058);
  const voice = await send(t.world.voiceChannelId, { content: 'voice text chat' });
  assert.equal(voice.status, 200, voice.text);
});

test('embeds: limits and normalization', async () => {
  const ch = await makeChannel();
  const fields = Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
  let r = await send(ch, { embeds: [{ title: 't', fields }] });
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 50035);
  assert.equal(r.body.errors.embeds['0'].fields._errors[0].code, 'BASE_TYPE_MAX_LENGTH');

  r = await send(ch, { embeds: [{ title: 'x'.repeat(257) }] });
  assert.equal(r.body.errors.embeds['0'].title._errors[0].code, 'BASE_TYPE_MAX_LENGTH');
  r = await send(ch, { embeds: [{ description: 'd'.repeat(4096) }, { description: 'd'.repeat(2000) }] });
  assert.equal(r.body.code, 50035);
  assert.equal(r.body.errors.embeds._errors[0].code, 'MAX_EMBED_SIZE_EXCEEDED');
  r = await send(ch, { embeds: [{ title: 't', color: 0x1000000 }] });
  assert.equal(r.body.errors.embeds['0'].color._errors[0].code, 'NUMBER_TYPE_MAX');
  r = await send(ch, { embeds: [{ title: 't', url: 'ftp://x' }] });
  assert.equal(r.body.errors.embeds['0'].url._errors[0].code, 'URL_TYPE_INVALID_SCHEME');
  r = await send(ch, { embeds: [{ fields: [{ name: 'n', value: ' ' }] }] });
  assert.equal(r.body.errors.embeds['0'].fields['0'].value._errors[0].code, 'BASE_TYPE_REQUIRED');
  r = await send(ch, { embeds: Array.from({ length: 11 }, () => ({ title: 't' })) });
  assert.equal(r.body.code, 50035);

  r = await send(ch, {
    embeds: [
      {
        title: 'ok',
        color: 0xff0000,
        fields: Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, value: 'v' })),
        timestamp: '2024-01-02T03:04:05.000Z',
        footer: { text: 'foot' },
      },
    ],
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.embeds[0].type, 'rich');
  assert.equal(r.body.embeds[0].fields.length, 25);
  assert.equal(r.body.embeds[0].fields[0].inline, false);
  assert.equal(r.body.embeds[0].color, 0xff0000);
});

test('embeds are dropped without EMBED_LINKS', async () => {
  const bobId = t.world.users[1].id;
  const ch = await makeChannel({ permission_overwrites: JSON.stringify([{ id: bobId, type: 1, allow: '0', deny: String(P.EMBED_LINKS) }]) });
  let r = await send(ch, { content: 'with embed', embeds: [{ title: 'hidden' }] }, bob);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.embeds, []);
  r = await send(ch, { embeds: [{ title: 'hidden' }] }, bob);
  assert.equal(r.body.code, 50006);
});

test('permissions: 50013 without SEND_MESSAGES, 50001 without VIEW_CHANNEL', async () => {
  const bobId = t.world.users[1].id;
  const ch = await makeChannel({ permission_overwrites: JSON.stringify([{ id: bobId, type: 1, allow: '0', deny: String(P.SEND_MESSAGES) }]) });
  let r = await send(ch, { content: 'nope' }, bob);
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 50013);
  r = await api(`/channels/${ch}/typing`, { method: 'POST', token: bob });
  assert.equal(r.body.code, 50013);
  const hidden = await makeChannel({ permission_overwrites: JSON.stringify([{ id: bobId, type: 1, allow: '0', deny: String(P.VIEW_CHANNEL) }]) });
  r = await send(hidden, { content: 'nope' }, bob);
  assert.equal(r.body.code, 50001);
  const noFiles = await makeChannel({ permission_overwrites: JSON.stringify([{ id: bobId, type: 1, allow: '0', deny: String(P.ATTACH_FILES) }]) });
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'file' }));
  form.append('files[0]', new Blob([Buffer.from('abc')]), 'a.txt');
  r = await api(`/channels/${noFiles}/messages`, { method: 'POST', token: bob, body: form });
  assert.equal(r.body.code, 50013);
});

test('enforce_nonce returns the earlier message', async () => {
  const ch = await makeChannel();
  const a = await send(ch, { content: 'once', nonce: 'abc123', enforce_nonce: true });
  const b = await send(ch, { content: 'twice', nonce: 'abc123', enforce_nonce: true });
  assert.equal(a.status, 200);
  assert.equal(b.body.id, a.body.id);
  assert.equal(b.body.content, 'once');
  assert.equal(a.body.nonce, 'abc123');
  const [c, d] = await Promise.all([
    send(ch, { content: 'race', nonce: 424242, enforce_nonce: true }),
    send(ch, { content: 'race', nonce: 424242, enforce_nonce: true }),
  ]);
  assert.equal(c.body.id, d.body.id);
  const e = await send(ch, { content: 'not enforced', nonce: 'abc123' });
  assert.notEqual(e.body.id, a.body.id);
  // After five minutes the nonce is free again.
  t.server.ctx.clock.advance(5 * 60_000 + 1000);
  const f = await send(ch, { content: 'later', nonce: 'abc123', enforce_nonce: true });
  assert.notEqual(f.body.id, a.body.id);
});

test('list: newest first, before/after/around, limit', async () => {
  const ch = await makeChannel();
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await send(ch, { content: `m${i}` })).body.id);
  const list = async (q: string) => (await api(`/channels/${ch}/messages${q}`, botOpts())).body;
  let r = await list('');
  assert.deepEqual(
    r.map((m: any) => m.id),
    [...ids].reverse(),
  );
  r = await list('?limit=3');
  assert.deepEqual(
    r.map((m: any) => m.id),
    [ids[9], ids[8], ids[7]],
  );
  r = await list(`?before=${ids[5]}&limit=2`);
  assert.deepEqual(
    r.map((m: any) => m.id),
    [ids[4], ids[3]],
  );
  r = await list(`?after=${ids[5]}&limit=2`);
  assert.deepEqual(
    r.map((m: any) => m.id),
    [ids[7], ids[6]],
  );
  r = await list(`?around=${ids[5]}&limit=3`);
  assert.deepEqual(
    r.map((m: any) => m.id),
    [ids[6], ids[5], ids[4]],
  );
  r = await list(`?around=${ids[5]}&limit=1`);
  assert.deepEqual(
    r.map((m: any) => m.id),
    [ids[5]],
  );
  const bad = await api(`/channels/${ch}/messages?limit=101`, botOpts());
  assert.equal(bad.body.code, 50035);
  const bad2 = await api(`/channels/${ch}/messages?before=abc`, botOpts());
  assert.equal(bad2.body.code, 50035);
  const one = await api(`/channels/${ch}/messages/${ids[2]}`, botOpts());
  assert.equal(one.body.content, 'm2');
  assert.equal((await api(`/channels/${ch}/messages/123`, botOpts())).body.code, 10008);
  assert.equal((await api(`/channels/${ch}/messages/xyz`, botOpts())).body.code, 10008);
  // Without READ_MESSAGE_HISTORY the list is empty and single reads are refused.
  const bobId = t.world.users[1].id;
  await t.server.ctx.repos.store.db
    .updateTable('channels')
    .set({ permission_overwrites: JSON.stringify([{ id: bobId, type: 1, allow: '0', deny: String(P.READ_MESSAGE_HISTORY) }]) })
    .where('id', '=', ch)
    .execute();
  t.server.ctx.access.invalidate(t.world.guildId);
  assert.deepEqual((await api(`/channels/${ch}/messages`, { token: bob })).body, []);
  assert.equal((await api(`/channels/${ch}/messages/${ids[2]}`, { token: bob })).body.code, 50013);
});

test('replies', async () => {
  const ch = await makeChannel();
  const orig = await send(ch, { content: 'question' }, bob);
  let r = await send(ch, { content: 'answer', message_reference: { message_id: orig.body.id } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.type, 19);
  assert.equal(r.body.referenced_message.id, orig.body.id);
  assert.equal(r.body.message_reference.channel_id, ch);
  assert.ok(
    r.body.mentions.some((u: any) => u.id === t.world.users[1].id),
    'replied user mentioned by default',
  );
  r = await send(ch, { content: 'quiet', message_reference: { message_id: orig.body.id }, allowed_mentions: { parse: [], replied_user: false } });
  assert.equal(r.body.mentions.length, 0);
  r = await send(ch, { content: 'answer', message_reference: { message_id: '1234567' } });
  assert.equal(r.body.code, 50035);
  assert.equal(r.body.errors.message_reference._errors[0].code, 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE');
  r = await send(ch, { content: 'answer', message_reference: { message_id: '1234567', fail_if_not_exists: false } });
  assert.equal(r.status, 200);
  assert.equal(r.body.type, 0);
  assert.equal(r.body.message_reference, undefined);
});

test('mentions: roles, everyone, allowed_mentions', async () => {
  const ch = await makeChannel();
  const bobId = t.world.users[1].id;
  let r = await send(ch, { content: `@everyone <@${bobId}>`, allowed_mentions: { parse: [] } });
  assert.equal(r.body.mention_everyone, false);
  assert.deepEqual(r.body.mentions, []);
  r = await send(ch, { content: `@here <@${bobId}>`, allowed_mentions: { parse: ['everyone'], users: [bobId] } });
  assert.equal(r.body.mention_everyone, true);
  assert.equal(r.body.mentions.length, 1);
  r = await send(ch, { content: '@everyone' }, bob);
  assert.equal(r.body.mention_everyone, true, 'MENTION_EVERYONE is a default @everyone permission');
  // Not mentionable, but the bot has MENTION_EVERYONE.
  const roleId = t.world.guildId;
  r = await send(ch, { content: `<@&${roleId}>` });
  assert.deepEqual(r.body.mention_roles, [], '@everyone role is never a role mention');
});

test('edit', async () => {
  const ch = await makeChannel();
  const m = await send(ch, { content: 'before', embeds: [{ title: 'e' }] });
  let r = await api(`/channels/${ch}/messages/${m.body.id}`, { ...botOpts(), method: 'PATCH', body: { content: 'after' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.content, 'after');
  assert.ok(r.body.edited_timestamp);
  assert.equal(r.body.embeds.length, 1, 'untouched fields stay');
  const ev = lastEvent('MESSAGE_UPDATE')!;
  assert.equal(ev.d.id, m.body.id);
  assert.equal(ev.d.content, 'after');
  assert.equal(ev.d.author.id, t.world.botUserId);

  r = await api(`/channels/${ch}/messages/${m.body.id}`, { token: bob, method: 'PATCH', body: { content: 'hijack' } });
  assert.equal(r.body.code, 50005);
  r = await api(`/channels/${ch}/messages/${m.body.id}`, { token: bob, method: 'PATCH', body: { flags: 4 } });
  assert.equal(r.body.code, 50013);
  const theirs = await send(ch, { content: 'http://example.com' }, bob);
  r = await api(`/channels/${ch}/messages/${theirs.body.id}`, { ...botOpts(), method: 'PATCH', body: { flags: 4 } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.flags, 4);
  assert.equal(r.body.content, 'http://example.com');
  r = await api(`/channels/${ch}/messages/${m.body.id}`, { ...botOpts(), method: 'PATCH', body: { content: '', embeds: [] } });
  assert.equal(r.body.code, 50006);
  r = await api(`/channels/${ch}/messages/${m.body.id}`, { ...botOpts(), method: 'PATCH', body: { content: null } });
  assert.equal(r.status, 200, 'content cleared, embed remains');
  assert.equal(r.body.content, '');
});

test('delete and bulk delete', async () => {
  const ch = await makeChannel();
  const mine = await send(ch, { content: 'mine' }, bob);
  const botMsg = await send(ch, { content: 'bot' });
  let r = await api(`/channels/${ch}/messages/${botMsg.body.id}`, { token: bob, method: 'DELETE' });
  assert.equal(r.body.code, 50013);
  r = await api(`/channels/${ch}/messages/${mine.body.id}`, { token: bob, method: 'DELETE' });
  assert.equal(r.status, 204);
  const ev = lastEvent('MESSAGE_DELETE')!;
  assert.deepEqual(ev.d, { id: mine.body.id, channel_id: ch, guild_id: t.world.guildId });
  assert.equal((await api(`/channels/${ch}/messages/${mine.body.id}`, botOpts())).body.code, 10008);
  r = await api(`/channels/${ch}/messages/${botMsg.body.id}`, { token: alice, method: 'DELETE' });
  assert.equal(r.status, 204, 'owner may delete others');
  const channel = await api(`/channels/${ch}`, botOpts());
  assert.equal(channel.body.last_message_id, botMsg.body.id, 'the newest message deleted stays the last message id');

  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await send(ch, { content: `b${i}` })).body.id);
  const bulk = (body: unknown, token = bot) => api(`/channels/${ch}/messages/bulk-delete`, { token, bot: token === bot, method: 'POST', body });
  assert.equal((await bulk({ messages: [ids[0]] })).body.code, 50016);
  assert.equal((await bulk({ messages: Array.from({ length: 101 }, (_, i) => String(BigInt(ids[0]) + BigInt(i))) })).body.code, 50016);
  const old = snowflakeAt(t.server.ctx.clock.now() - 15 * 86400_000);
  assert.equal((await bulk({ messages: [ids[0], old] })).body.code, 50034);
  assert.equal((await bulk({ messages: [ids[0], ids[1]] }, bob)).body.code, 50013);
  r = await bulk({ messages: [ids[0], ids[1]] });
  assert.equal(r.status, 204);
  const bev = lastEvent('MESSAGE_DELETE_BULK')!;
  assert.deepEqual(bev.d, { ids: [ids[0], ids[1]], channel_id: ch, guild_id: t.world.guildId });
  const left = await api(`/channels/${ch}/messages`, botOpts());
  assert.deepEqual(
    left.body.map((m: any) => m.id),
    [ids[2]],
  );
});

test('multipart upload, CDN download, spoilers', async () => {
  const ch = await makeChannel();
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');
  const text = Buffer.from('hello, accord\n'.repeat(100));
  const form = new FormData();
  form.append(
    'payload_json',
    JSON.stringify({
      content: 'files',
      attachments: [
        { id: 0, description: 'a text file' },
        { id: '1', filename: 'pic.png', is_spoiler: true },
      ],
    }),
  );
  form.append('files[0]', new Blob([text], { type: 'text/plain' }), 'notes file.txt');
  form.append('files[1]', new Blob([png], { type: 'image/png' }), 'whatever.png');
  form.append('files[2]', new Blob([Buffer.from('x')]), 'SPOILER_secret.bin');
  const r = await api(`/channels/${ch}/messages`, { ...botOpts(), method: 'POST', body: form });
  assert.equal(r.status, 200, r.text);
  const [a, b, c] = r.body.attachments;
  assert.equal(r.body.attachments.length, 3);
  assert.equal(a.filename, 'notes_file.txt');
  assert.equal(a.size, text.length);
  assert.equal(a.description, 'a text file');
  assert.equal(a.content_type, 'text/plain');
  assert.equal(a.flags, 0);
  assert.equal(a.width, null);
  assert.ok(a.url.startsWith(`${t.server.url}/attachments/${ch}/${a.id}/`));
  assert.equal(a.proxy_url, a.url);
  assert.equal(b.filename, 'SPOILER_pic.png');
  assert.equal(b.flags, 8);
  assert.equal(b.width, 3);
  assert.equal(b.height, 2);
  assert.equal(c.flags, 8);

  const dl = await fetch(a.url);
  assert.equal(dl.status, 200);
  assert.equal(dl.headers.get('content-type'), 'text/plain');
  assert.equal(dl.headers.get('content-length'), String(text.length));
  assert.ok(Buffer.from(await dl.arrayBuffer()).equals(text));
  const dl2 = await fetch(b.url);
  assert.ok(Buffer.from(await dl2.arrayBuffer()).equals(png));
  const missing = await fetch(`${t.server.url}/attachments/${ch}/123/nope.txt`);
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { message: '404: Not Found', code: 0 });

  // Edit: keep the text file with a new description, mark it spoiler, drop the others, add one.
  const form2 = new FormData();
  form2.append('payload_json', JSON.stringify({ attachments: [{ id: a.id, description: 'renamed', is_spoiler: true }, { id: 0 }] }));
  form2.append('files[0]', new Blob([Buffer.from('new')]), 'new.txt');
  const e = await api(`/channels/${ch}/messages/${r.body.id}`, { ...botOpts(), method: 'PATCH', body: form2 });
  assert.equal(e.status, 200, e.text);
  assert.deepEqual(
    e.body.attachments.map((x: any) => x.filename),
    ['notes_file.txt', 'new.txt'],
  );
  assert.equal(e.body.attachments[0].description, 'renamed');
  assert.equal(e.body.attachments[0].flags, 8);
  assert.equal((await fetch(b.url)).status, 404, 'removed attachment is gone from the CDN');

  // Embed images may point at an upload.
  const form3 = new FormData();
  form3.append('payload_json', JSON.stringify({ embeds: [{ image: { url: 'attachment://img.png' } }] }));
  form3.append('files[0]', new Blob([png], { type: 'image/png' }), 'img.png');
  const em = await api(`/channels/${ch}/messages`, { ...botOpts(), method: 'POST', body: form3 });
  assert.equal(em.status, 200, em.text);
  assert.equal(em.body.embeds[0].image.url, em.body.attachments[0].url);

  // Eleven files → 30015.
  const many = new FormData();
  many.append('payload_json', JSON.stringify({ content: 'many' }));
  for (let i = 0; i < 11; i++) many.append(`files[${i}]`, new Blob([Buffer.from('x')]), `f${i}.txt`);
  const tooMany = await api(`/channels/${ch}/messages`, { ...botOpts(), method: 'POST', body: many });
  assert.equal(tooMany.body.code, 30015);
});

test('reactions', async () => {
  const ch = await makeChannel();
  const m = await send(ch, { content: 'react to me' }, bob);
  const base = `/channels/${ch}/messages/${m.body.id}/reactions`;
  const thumbs = encodeURIComponent('👍');
  let r = await api(`${base}/${thumbs}/@me`, { ...botOpts(), method: 'PUT' });
  assert.equal(r.status, 204, r.text);
  const ev = lastEvent('MESSAGE_REACTION_ADD')!;
  assert.equal(ev.d.user_id, t.world.botUserId);
  assert.deepEqual(ev.d.emoji, { id: null, name: '👍' });
  assert.equal(ev.d.message_author_id, t.world.users[1].id);
  assert.equal(ev.d.burst, false);
  assert.ok(ev.d.member.user, 'reaction member carries the user');
  const adds = events.filter((e) => e.t === 'MESSAGE_REACTION_ADD').length;
  r = await api(`${base}/${thumbs}/@me`, { ...botOpts(), method: 'PUT' });
  assert.equal(r.status, 204, 'adding twice is fine');
  assert.equal(events.filter((e) => e.t === 'MESSAGE_REACTION_ADD').length, adds, 'and publishes nothing');
  r = await api(`${base}/${thumbs}/@me`, { token: bob, method: 'PUT' });
  assert.equal(r.status, 204);
  r = await api(`${base}/${encodeURIComponent('party:112233445566778899')}/@me`, { token: bob, method: 'PUT' });
  assert.equal(r.status, 204);

  const asBotView = await api(`/channels/${ch}/messages/${m.body.id}`, botOpts());
  assert.equal(asBotView.body.reactions.length, 2);
  assert.equal(asBotView.body.reactions[0].count, 2);
  assert.equal(asBotView.body.reactions[0].me, true);
  assert.equal(asBotView.body.reactions[1].me, false);
  assert.deepEqual(asBotView.body.reactions[1].emoji, { id: '112233445566778899', name: 'party' });
  const listed = await api(`/channels/${ch}/messages`, botOpts());
  assert.equal(listed.body[0].reactions[0].me, true);

  const users = await api(`${base}/${thumbs}`, botOpts());
  assert.deepEqual(users.body.map((u: any) => u.id).sort(), [t.world.botUserId, t.world.users[1].id].sort());
  const limited = await api(`${base}/${thumbs}?limit=1`, botOpts());
  assert.equal(limited.body.length, 1);

  assert.equal((await api(`${base}/notanemoji/@me`, { ...botOpts(), method: 'PUT' })).body.code, 10014);
  assert.equal((await api(`/channels/${ch}/messages/1/reactions/${thumbs}/@me`, { ...botOpts(), method: 'PUT' })).body.code, 10008);

  r = await api(`${base}/${thumbs}/@me`, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  assert.equal(lastEvent('MESSAGE_REACTION_REMOVE')!.d.user_id, t.world.botUserId);
  r = await api(`${base}/${thumbs}/${t.world.users[1].id}`, { token: bob, method: 'DELETE' });
  assert.equal(r.status, 204, 'removing your own by id is fine');
  r = await api(`${base}/${encodeURIComponent('party:112233445566778899')}/${t.world.users[1].id}`, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  const after = await api(`/channels/${ch}/messages/${m.body.id}`, botOpts());
  assert.equal(after.body.reactions, undefined);

  // 20 distinct emoji at most.
  const emoji = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋', '😎', '😍', '😘', '🥰', '😗', '😙', '😚', '🙂', '🤗', '🤩'];
  for (const e of emoji.slice(0, 20)) assert.equal((await api(`${base}/${encodeURIComponent(e)}/@me`, { ...botOpts(), method: 'PUT' })).status, 204);
  assert.equal((await api(`${base}/${encodeURIComponent(emoji[20])}/@me`, { ...botOpts(), method: 'PUT' })).body.code, 30010);
  assert.equal((await api(`${base}/${encodeURIComponent(emoji[0])}`, { token: bob, method: 'DELETE' })).body.code, 50013);
  r = await api(`${base}/${encodeURIComponent(emoji[0])}`, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  assert.deepEqual(lastEvent('MESSAGE_REACTION_REMOVE_EMOJI')!.d.emoji, { id: null, name: emoji[0] });
  r = await api(base, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  assert.deepEqual(lastEvent('MESSAGE_REACTION_REMOVE_ALL')!.d, { channel_id: ch, message_id: m.body.id, guild_id: t.world.guildId });
});

test('pins: new and deprecated routes', async () => {
  const ch = await makeChannel();
  const a = await send(ch, { content: 'pin a' });
  const b = await send(ch, { content: 'pin b' });
  let r = await api(`/channels/${ch}/messages/pins/${a.body.id}`, { ...botOpts(), method: 'PUT' });
  assert.equal(r.status, 204, r.text);
  assert.equal(lastEvent('CHANNEL_PINS_UPDATE')!.d.channel_id, ch);
  const notice = lastEvent('MESSAGE_CREATE')!;
  assert.equal(notice.d.type, 6);
  assert.equal(notice.d.message_reference.message_id, a.body.id);
  t.server.ctx.clock.advance(1000);
  r = await api(`/channels/${ch}/pins/${b.body.id}`, { ...botOpts(), method: 'PUT' });
  assert.equal(r.status, 204);
  assert.equal((await api(`/channels/${ch}/pins/${b.body.id}`, { token: bob, method: 'PUT' })).body.code, 50013);

  const list = await api(`/channels/${ch}/messages/pins`, botOpts());
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(
    list.body.items.map((i: any) => i.message.id),
    [b.body.id, a.body.id],
  );
  assert.equal(list.body.has_more, false);
  assert.equal(list.body.items[0].message.pinned, true);
  const page = await api(`/channels/${ch}/messages/pins?limit=1`, botOpts());
  assert.equal(page.body.items.length, 1);
  assert.equal(page.body.has_more, true);
  const older = await api(`/channels/${ch}/messages/pins?before=${encodeURIComponent(page.body.items[0].pinned_at)}`, botOpts());
  assert.deepEqual(
    older.body.items.map((i: any) => i.message.id),
    [a.body.id],
  );
  const legacy = await api(`/channels/${ch}/pins`, botOpts());
  assert.deepEqual(
    legacy.body.map((m: any) => m.id),
    [b.body.id, a.body.id],
  );
  const chRow = await t.server.ctx.repos.store.db.selectFrom('channels').select('last_pin_timestamp').where('id', '=', ch).executeTakeFirstOrThrow();
  assert.ok(chRow.last_pin_timestamp);

  r = await api(`/channels/${ch}/messages/pins/${a.body.id}`, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  r = await api(`/channels/${ch}/pins/${b.body.id}`, { ...botOpts(), method: 'DELETE' });
  assert.equal(r.status, 204);
  assert.deepEqual((await api(`/channels/${ch}/pins`, botOpts())).body, []);
  const msgs = await api(`/channels/${ch}/messages`, botOpts());
  const pinNotice = msgs.body.find((m: any) => m.type === 6);
  assert.equal((await api(`/channels/${ch}/messages/pins/${pinNotice.id}`, { ...botOpts(), method: 'PUT' })).body.code, 50021);
});

test('typing', async () => {
  const ch = await makeChannel();
  const r = await api(`/channels/${ch}/typing`, { ...botOpts(), method: 'POST' });
  assert.equal(r.status, 204);
  const ev = lastEvent('TYPING_START')!;
  assert.equal(ev.d.channel_id, ch);
  assert.equal(ev.d.user_id, t.world.botUserId);
  assert.equal(typeof ev.d.timestamp, 'number');
  assert.ok(ev.d.member);
});

test('slowmode: 429 20016 for humans, bots unaffected', async () => {
  const ch = await makeChannel({ rate_limit_per_user: 10 });
  assert.equal((await send(ch, { content: 'one' }, bob)).status, 200);
  const r = await send(ch, { content: 'two' }, bob);
  assert.equal(r.status, 429);
  assert.equal(r.body.code, 20016);
  assert.ok(Number(r.headers.get('retry-after')) >= 1);
  assert.equal((await send(ch, { content: 'owner bypasses' }, alice)).status, 200);
  assert.equal((await send(ch, { content: 'bot 1' })).status, 200);
  assert.equal((await send(ch, { content: 'bot 2' })).status, 200);
  t.server.ctx.clock.advance(11_000);
  assert.equal((await send(ch, { content: 'three' }, bob)).status, 200);
});

test('DMs: recipients only', async () => {
  const dm = await api('/users/@me/channels', { token: alice, method: 'POST', body: { recipient_id: t.world.users[1].id } });
  assert.equal(dm.status, 200, dm.text);
  const r = await send(dm.body.id, { content: 'hey bob' }, alice);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.guild_id, undefined);
  const ev = lastEvent('MESSAGE_CREATE')!;
  assert.deepEqual([...ev.user_ids!].sort(), [t.world.users[0].id, t.world.users[1].id].sort());
  assert.equal((await send(dm.body.id, { content: 'intruder' })).body.code, 50001);
  const list = await api(`/channels/${dm.body.id}/messages`, { token: bob });
  assert.equal(list.body[0].content, 'hey bob');
  // The bot shares the seeded guild with bob, so it may DM him.
  const botDm = await api('/users/@me/channels', { ...botOpts(), method: 'POST', body: { recipient_id: t.world.users[1].id } });
  assert.equal((await send(botDm.body.id, { content: 'hello from bot' })).status, 200);
});
