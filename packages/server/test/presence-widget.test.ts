import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import fs from 'node:fs';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t?.close();
});

/** Width, height and RGBA rows of a PNG this server wrote (8-bit RGBA, filter 0), read independently of the encoder. */
function readPng(b: Buffer) {
  assert.deepEqual([...b.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let off = 8;
  let w = 0;
  let h = 0;
  const idat: Buffer[] = [];
  while (off < b.length) {
    const len = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    const data = b.subarray(off + 8, off + 8 + len);
    assert.equal(b.readUInt32BE(off + 8 + len), zlib.crc32(b.subarray(off + 4, off + 8 + len)) >>> 0, `${type} crc`);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      assert.equal(data[8], 8);
      assert.equal(data[9], 6);
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  assert.equal(raw.length, (w * 4 + 1) * h);
  const colours = new Set<number>();
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) colours.add(raw.readUInt32BE(y * (w * 4 + 1) + 1 + x * 4));
  return { w, h, colours };
}

test('approximate_presence_count, widget.json and widget.png follow the Gateway presence state', async () => {
  const g = t.world.guildId;
  const owner = { token: t.world.users[0].token };
  assert.equal((await t.api(`/guilds/${g}/widget`, { ...owner, method: 'PATCH', body: { enabled: true, channel_id: t.world.textChannelId } })).status, 200);
  const counts = async () => (await t.api(`/guilds/${g}?with_counts=true`, owner)).body.approximate_presence_count;
  assert.equal(await counts(), 0);
  const before = await t.api(`/guilds/${g}/widget.json`);
  assert.equal(before.body.presence_count, 0);
  assert.deepEqual(before.body.members, []);
  const png0 = await fetch(`${t.server.url}/api/v10/guilds/${g}/widget.png?style=banner2`).then(async (r) => Buffer.from(await r.arrayBuffer()));

  const gw = await RawGateway.connect(t.server.url);
  try {
    await gw.identify(t.world.users[1].token, { presence: { status: 'dnd', activities: [], since: null, afk: false } });
    assert.equal(await counts(), 1);
    const w = await t.api(`/guilds/${g}/widget.json`);
    assert.equal(w.body.presence_count, 1);
    assert.deepEqual(
      w.body.members.map((m: any) => [m.id, m.username, m.status, m.discriminator, m.avatar]),
      [['0', 'Bob', 'dnd', '0000', null]],
    );
    const inv = await t.api(`/channels/${t.world.textChannelId}/invites`, { ...owner, method: 'POST', body: {} });
    assert.equal((await t.api(`/invites/${inv.body.code}?with_counts=true`)).body.approximate_presence_count, 1);

    const res = await fetch(`${t.server.url}/api/v10/guilds/${g}/widget.png?style=banner2`);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png1 = Buffer.from(await res.arrayBuffer());
    const img = readPng(png1);
    assert.deepEqual([img.w, img.h], [320, 76]);
    assert.ok(img.colours.size >= 4, 'drawn, not a flat image');
    assert.notDeepEqual(png1, png0, 'the online count is drawn');
    fs.mkdirSync('.tmp/screenshots', { recursive: true });
    fs.writeFileSync('.tmp/screenshots/widget-banner2.png', png1);
    for (const [style, size] of [
      ['banner1', [320, 76]],
      ['banner3', [320, 120]],
      ['banner4', [320, 120]],
    ] as const) {
      const r = await fetch(`${t.server.url}/api/v10/guilds/${g}/widget.png?style=${style}`);
      const i = readPng(Buffer.from(await r.arrayBuffer()));
      assert.deepEqual([i.w, i.h], size, style);
    }
    const shield = readPng(Buffer.from(await (await fetch(`${t.server.url}/api/v10/guilds/${g}/widget.png`)).arrayBuffer()));
    assert.equal(shield.h, 20);
    const bad = await t.api(`/guilds/${g}/widget.png?style=banner9`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors.style._errors[0].code, 'BASE_TYPE_CHOICES');
  } finally {
    gw.ws.close();
  }
});
