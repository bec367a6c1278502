import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { P } from '@accord/protocol';
import { createApplication, resetBotToken } from '../src/services/identity/applications.js';
import { installBot } from '../src/services/identity/bot-install.js';
import { getUser } from '../src/services/identity/users.js';
import { expectError } from './helpers/fixtures.js';
import type { Actor } from '../src/services/context.js';

/** Search Guild Messages: indexing (110000), permissions and the MESSAGE_CONTENT intent, the spec's filters and sorts. */
let t: TestServer;
const alice = () => t.world.users[0];
const bob = () => t.world.users[1];
const asAlice = () => ({ token: alice().token });
const asBob = () => ({ token: bob().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const show = (r: { body: unknown }) => JSON.stringify(r.body);
const ids: Record<string, string> = {};
let general: string;
let other: string;
let hidden: string;

async function advance(ms: number) {
  const r = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: ms }),
  });
  assert.equal(r.status, 200);
}

const search = (query: string, opts: { token: string; bot?: boolean } = asBot()) => t.api(`/guilds/${g()}/messages/search?${query}`, opts);
const found = async (query: string, opts?: { token: string; bot?: boolean }) => {
  const r = await search(query, opts);
  assert.equal(r.status, 200, show(r));
  return r.body.messages.map((m: any[]) => m[0].id as string);
};

async function post(channelId: string, body: unknown, opts: { token: string; bot?: boolean } = asAlice()): Promise<string> {
  const r = await t.api(`/channels/${channelId}/messages`, { method: 'POST', ...opts, body });
  assert.equal(r.status, 200, show(r));
  return r.body.id;
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true, searchIndexDelayMs: 3000 } });
  general = t.world.textChannelId;
  other = (await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asAlice(), body: { name: 'other' } })).body.id;
  hidden = (
    await t.api(`/guilds/${g()}/channels`, {
      method: 'POST',
      ...asAlice(),
      body: { name: 'staff', permission_overwrites: [{ id: bob().id, type: 1, deny: String(P.READ_MESSAGE_HISTORY) }] },
    })
  ).body.id;
  ids.hello = await post(general, { content: 'hello world' });
  ids.helloHello = await post(general, { content: 'hello hello hello there' }, asBob());
  ids.link = await post(general, { content: 'see https://docs.example.com/page' });
  ids.embed = await post(general, { embeds: [{ title: 'An embed' }] }, asBot());
  ids.mention = await post(other, { content: `ping <@${bob().id}> hello` });
  ids.poll = await post(other, { poll: { question: { text: 'Q' }, answers: [{ poll_media: { text: 'A' } }] } });
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'a picture' }));
  form.append('files[0]', new Blob([Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')], { type: 'image/png' }), 'pic.png');
  const file = await t.api(`/channels/${general}/messages`, { method: 'POST', ...asAlice(), body: form });
  ids.image = file.body.id;
  ids.snapshot = await post(other, { message_reference: { type: 1, message_id: ids.hello, channel_id: general } }, asBot());
  ids.secret = await post(hidden, { content: 'hello staff' });
  ids.pinned = await post(general, { content: 'pinned hello' });
  assert.equal((await t.api(`/channels/${general}/messages/pins/${ids.pinned}`, { method: 'PUT', ...asAlice() })).status, 204);
});
after(async () => {
  await t.close();
});

test('search: error 110000 (202) while the guild is not yet indexed; indexed a few seconds after the first search, by the clock', async () => {
  const first = await search('content=hello');
  assert.equal(first.status, 202, show(first));
  assert.equal(first.body.code, 110000);
  assert.equal(first.body.message, 'Index not yet available. Try again later');
  assert.equal(typeof first.body.documents_indexed, 'number');
  assert.ok(first.body.retry_after > 0 && first.body.retry_after <= 3);
  await advance(2000);
  const still = await search('content=hello');
  assert.equal(still.status, 202);
  assert.ok(still.body.retry_after <= 1.001);
  assert.ok(still.body.documents_indexed >= first.body.documents_indexed);
  await advance(1001);
  const ready = await search('content=hello');
  assert.equal(ready.status, 200, show(ready));
  assert.equal(ready.body.doing_deep_historical_index, false);
  assert.ok(Array.isArray(ready.body.messages[0]));
});

test('search: READ_MESSAGE_HISTORY and the MESSAGE_CONTENT privileged intent are required', async () => {
  // bob lacks READ_MESSAGE_HISTORY in #staff: asking for it is refused, and a plain search leaves it out.
  expectError(await search(`channel_id=${hidden}`, asBob()), 403, 50013);
  assert.ok(!(await found('content=hello', asBob())).includes(ids.secret));
  assert.ok((await found('content=hello', asAlice())).includes(ids.secret));
  // A bot whose app lacks the MESSAGE_CONTENT intent may not search.
  const ctx = t.server.ctx;
  const owner: Actor = { user: (await getUser(ctx, alice().id))!, kind: 'user', applicationId: null, scopes: [] };
  const app = await createApplication(ctx, owner, { name: 'No Intent' });
  const token = await resetBotToken(ctx, app);
  await installBot(ctx, owner, { clientId: app.id, guildId: g(), permissions: P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY });
  expectError(await search('content=hello', { token, bot: true }), 403, 50001);
  const patched = await t.api(`/applications/${app.id}`, { method: 'PATCH', ...asAlice(), body: { flags: 1 << 19 } });
  assert.equal(patched.status, 200);
  assert.equal((await search('content=hello', { token, bot: true })).status, 200);
});

test('search: filters content, author_id, author_type, mentions, has, channel_id, pinned, min_id/max_id', async () => {
  assert.deepEqual(new Set(await found('content=hello', asAlice())), new Set([ids.hello, ids.helloHello, ids.mention, ids.secret, ids.pinned]));
  assert.deepEqual(await found(`content=hello&author_id=${bob().id}`), [ids.helloHello]);
  assert.deepEqual(await found(`author_id=${t.world.botUserId}`), [ids.snapshot, ids.embed]);
  assert.deepEqual(await found('author_type=bot'), [ids.snapshot, ids.embed]);
  assert.ok(!(await found('author_type=-bot')).includes(ids.embed));
  assert.deepEqual(await found(`mentions=${bob().id}`), [ids.mention]);
  assert.deepEqual(await found('has=link'), [ids.link]);
  assert.deepEqual(await found('has=embed'), [ids.embed]);
  assert.deepEqual(await found('has=file'), [ids.image]);
  assert.deepEqual(await found('has=image'), [ids.image]);
  assert.deepEqual(await found('has=poll'), [ids.poll]);
  assert.deepEqual(await found('has=snapshot'), [ids.snapshot]);
  assert.deepEqual(await found('has=sticker'), []);
  assert.ok(!(await found('has=-link&content=see')).length);
  assert.deepEqual(await found(`channel_id=${other}&has=poll&has=snapshot`), [ids.snapshot, ids.poll]);
  assert.deepEqual(await found('pinned=true'), [ids.pinned]);
  assert.deepEqual(await found(`min_id=${ids.link}&max_id=${ids.image}&channel_id=${general}`), [ids.embed]);
  assert.deepEqual(await found('link_hostname=example.com'), [ids.link]);
  assert.deepEqual(await found('attachment_extension=png'), [ids.image]);
});

test('search: sort_by timestamp|relevance, sort_order, limit 1-25, offset ≤ 9975', async () => {
  const newest = await found('content=hello', asAlice());
  assert.deepEqual(
    newest,
    [...newest].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1)),
  );
  const oldest = await found('content=hello&sort_order=asc', asAlice());
  assert.deepEqual(oldest, [...newest].reverse());
  const relevant = await found('content=hello&sort_by=relevance', asAlice());
  assert.equal(relevant[0], ids.helloHello, 'three matches rank first');
  const page = await search('content=hello&limit=2&offset=1', asAlice());
  assert.equal(page.body.total_results, 5);
  assert.deepEqual(
    page.body.messages.map((m: any[]) => m[0].id),
    newest.slice(1, 3),
  );
  expectError(await search('limit=26'), 400, 50035);
  expectError(await search('limit=0'), 400, 50035);
  expectError(await search('offset=9976'), 400, 50035);
  assert.equal((await search('offset=9975')).status, 200);
  expectError(await search('sort_by=newest'), 400, 50035);
  expectError(await search('has=gif'), 400, 50035);
});
