/**
 * World snapshots on this engine: every table's rows out and back in, bytes (uploads) included, in one transaction that
 * leaves the store as it was when the snapshot does not fit.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { worldSnapshot } from '../src/dev/world-snapshot.js';

let a: TestServer;
let b: TestServer;
before(async () => {
  a = await startTestServer();
  b = await startTestServer();
});
after(async () => {
  await a?.close();
  await b?.close();
});

test('a snapshot restored on another store is the same world, uploads included', async () => {
  const [alice] = a.world.users;
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'with a file' }));
  form.append('files[0]', new Blob([Buffer.from([0, 1, 2, 250, 255])]), 'bytes.bin');
  const sent = await a.api(`/channels/${a.world.textChannelId}/messages`, { method: 'POST', token: alice.token, body: form });
  assert.equal(sent.status, 200, sent.text);

  const snapshot = await worldSnapshot(a.server.ctx);
  assert.ok(
    snapshot.tables.files.some((f) => typeof f.data === 'object' && f.data && '$base64' in f.data),
    'bytes are written as base64',
  );
  await b.server.ctx.repos.restore(JSON.parse(JSON.stringify(snapshot)));
  b.server.ctx.access.invalidate(a.world.guildId);
  assert.deepEqual((await worldSnapshot(b.server.ctx)).tables, snapshot.tables);

  const file = await fetch(sent.body.attachments[0].url.replace(a.server.url, b.server.url));
  assert.deepEqual([...new Uint8Array(await file.arrayBuffer())], [0, 1, 2, 250, 255], 'the upload is served by the other server');
  const read = await b.api(`/channels/${a.world.textChannelId}/messages`, { token: alice.token });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body[0].content, 'with a file');
});

test('a snapshot that does not fit leaves the store as it was', async () => {
  const before = await worldSnapshot(b.server.ctx);
  const bad = JSON.parse(JSON.stringify(before));
  bad.tables.users.push({ ...bad.tables.users[0] }); // a duplicate primary key, after every table was emptied
  await assert.rejects(b.server.ctx.repos.restore(bad));
  assert.deepEqual((await worldSnapshot(b.server.ctx)).tables, before.tables);
  await assert.rejects(b.server.ctx.repos.restore({ format: 'nope' } as never), /not an Accord world snapshot/);
  await assert.rejects(b.server.ctx.repos.restore({ ...before, tables: { no_such_table: [] } }), /tables this version does not: no_such_table/);
});
