import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

const V2 = 1 << 15;
let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

const send = (body: unknown) => t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', token: t.world.botToken, bot: true, body });
const text = (content: string) => ({ type: 10, content });
const button = (custom_id: string) => ({ type: 2, style: 1, label: 'Go', custom_id });

test('a Components V2 message is accepted, numbered, stored and served back', async () => {
  const res = await send({
    flags: V2,
    components: [
      text('# Title'),
      {
        type: 17,
        accent_color: 0x5865f2,
        components: [text('inside'), { type: 14, divider: true, spacing: 1 }, { type: 9, components: [text('a section')], accessory: button('sec') }],
      },
      { type: 1, components: [button('row')] },
    ],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.flags & V2, V2);
  const ids: number[] = [];
  const walk = (cs: any[]) =>
    cs.forEach((c) => {
      ids.push(c.id);
      if (c.components) walk(c.components);
      if (c.accessory) walk([c.accessory]);
    });
  walk(res.body.components);
  assert.equal(new Set(ids).size, ids.length, 'ids unique across levels');
  const again = await t.api(`/channels/${t.world.textChannelId}/messages/${res.body.id}`, { token: t.world.botToken, bot: true });
  assert.deepEqual(again.body.components, res.body.components);
});

test('Components V2 refuses content, embeds, poll and stickers beside the flag', async () => {
  for (const extra of [
    { content: 'hi' },
    { embeds: [{ title: 'x' }] },
    { poll: { question: { text: 'q' }, answers: [{ poll_media: { text: 'a' } }] } },
    { sticker_ids: ['1'] },
  ]) {
    const res = await send({ flags: V2, components: [text('x')], ...extra });
    assert.equal(res.status, 400, JSON.stringify(extra));
    assert.equal(res.body.code, 50035);
  }
});

test('Components V2 counts at most 40 components across all levels', async () => {
  const container = (n: number) => ({ type: 17, components: Array.from({ length: n }, (_, i) => text(`t${i}`)) });
  assert.equal((await send({ flags: V2, components: [container(39)] })).status, 200);
  const tooMany = await send({ flags: V2, components: [container(40)] });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.code, 50035);
});

test('Components V2 shows attachments only through media gallery, thumbnail or file references', async () => {
  const form = new FormData();
  form.append(
    'payload_json',
    JSON.stringify({ flags: V2, attachments: [{ id: 0, filename: 'a.txt' }], components: [{ type: 13, file: { url: 'attachment://a.txt' } }] }),
  );
  form.append('files[0]', new Blob([Buffer.from('hello')]), 'a.txt');
  const ok = await fetch(`${t.server.url}/api/v10/channels/${t.world.textChannelId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bot ${t.world.botToken}` },
    body: form,
  });
  assert.equal(ok.status, 200);
  const missing = await send({ flags: V2, components: [{ type: 13, file: { url: 'attachment://nope.txt' } }] });
  assert.equal(missing.status, 400);
  assert.ok(JSON.stringify(missing.body.errors).includes('components'));
});

test('legacy messages: at most 5 action rows, and only rows at the top level', async () => {
  const row = (i: number) => ({ type: 1, components: [button(`b${i}`)] });
  assert.equal((await send({ content: 'five', components: [1, 2, 3, 4, 5].map(row) })).status, 200);
  const six = await send({ content: 'six', components: [1, 2, 3, 4, 5, 6].map(row) });
  assert.equal(six.status, 400);
  assert.ok(six.body.errors.components, JSON.stringify(six.body));
  const v2Only = await send({ content: 'no flag', components: [text('x')] });
  assert.equal(v2Only.status, 400);
  assert.ok(v2Only.body.errors.components['0'], JSON.stringify(v2Only.body));
});

test('a premium button needs the sku_id of an existing SKU', async () => {
  const res = await send({ content: 'buy', components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: '123' }] }] });
  assert.equal(res.status, 400);
  assert.ok(JSON.stringify(res.body.errors).includes('sku_id'), JSON.stringify(res.body));
});
