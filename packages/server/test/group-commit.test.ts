import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { loadChannel } from '../src/services/messages/channel.js';
import { messageRow } from '../src/services/messages/write.js';
import type { Ctx } from '../src/services/context.js';
import type { ChannelRecord } from '../src/store/records.js';
import type { NewFile, NewMessage } from '../src/store/repos/messages.js';

/** A message row written as every create writes it (MessagesRepo.insert: the group commit of its engine). */
const writeMessageRow = async (ctx: Ctx, ch: ChannelRecord, row: NewMessage, files: NewFile[] = []): Promise<void> => {
  await ctx.repos.messages.insert(row, { channelType: ch.type, files });
};

// Message writes share one transaction per event-loop turn on SQLite (store/group-commit.ts) and one statement per batch
// on PostgreSQL (store/pg-group-commit.ts): on both, every write succeeds or fails alone, and none is half-written.

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

const sqlite = () => t.server.ctx.repos.store.dialect === 'sqlite';

async function lastMessageId(channelId: string): Promise<string | null> {
  return (await t.server.ctx.repos.channels.byId(channelId))!.last_message_id;
}

test('200 concurrent message creates are all stored, in id order, and one invalid request among them fails alone', async () => {
  const token = t.world.botToken;
  const channelId = t.world.textChannelId;
  const send = (content: string) => t.api(`/channels/${channelId}/messages`, { method: 'POST', token, bot: true, body: { content } });
  const contents = Array.from({ length: 200 }, (_, i) => `burst ${i}`);
  const all = await Promise.all([...contents.slice(0, 100).map(send), send(''), ...contents.slice(100).map(send)]);

  const invalid = all[100];
  assert.equal(invalid.status, 400);
  assert.equal(invalid.body.code, 50006, 'the empty message is refused as empty');
  const created = all.filter((_, i) => i !== 100);
  for (const [i, res] of created.entries()) {
    assert.equal(res.status, 200, `request ${i}: ${res.text}`);
    assert.equal(res.body.content, contents[i]);
  }

  const ids = created.map((r) => BigInt(r.body.id));
  assert.equal(new Set(ids).size, 200, 'every message has its own id');
  const stored = await t.server.ctx.repos.store.db
    .selectFrom('messages')
    .select(['id', 'content'])
    .where('channel_id', '=', channelId)
    .where('content', 'like', 'burst %')
    .orderBy('id')
    .execute();
  assert.equal(stored.length, 200);
  const byId = new Map(created.map((r) => [String(r.body.id), r.body.content]));
  for (const row of stored) assert.equal(row.content, byId.get(String(row.id)), 'each stored row is the one its request answered');
  const max = ids.reduce((a, b) => (a > b ? a : b));
  assert.equal(await lastMessageId(channelId), String(max), "the channel's last message is the newest one");

  const page = await t.api(`/channels/${channelId}/messages?limit=100`, { token, bot: true });
  assert.equal(page.status, 200);
  const listed = page.body.map((m: { id: string }) => BigInt(m.id));
  assert.deepEqual(
    listed,
    [...listed].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)),
    'the API lists them newest first',
  );
  assert.equal(String(listed[0]), String(max));
});

test('a write that fails inside a shared transaction leaves nothing behind and does not fail the others', async () => {
  const ctx = t.server.ctx;
  const ch = await loadChannel(ctx, t.world.textChannelId);
  const first = { ...messageRow(ctx, ch, t.world.botUserId, 0), content: 'first' };
  await writeMessageRow(ctx, ch, first);
  const rows = Array.from({ length: 20 }, (_, i) => ({ ...messageRow(ctx, ch, t.world.botUserId, 0), content: `batch ${i}` }));
  // The 13th write reuses an existing id: its message insert fails after its file row was written in its transaction.
  const dup = { ...messageRow(ctx, ch, t.world.botUserId, 0), id: first.id, content: 'duplicate' };
  const fileId = ctx.ids.next();
  const file = { id: fileId, channel_id: ch.id, filename: 'f.txt', content_type: 'text/plain', size: 1, data: Buffer.from('x'), created_at: 0 };

  const exec = ctx.repos.store.sqlite;
  let begins = 0;
  const run = exec?.run;
  if (exec && run) exec.run = (text, params) => (text === 'BEGIN' && begins++, run(text, params));
  try {
    const results = await Promise.allSettled([
      ...rows.slice(0, 12).map((r) => writeMessageRow(ctx, ch, r)),
      writeMessageRow(ctx, ch, dup, [file]),
      ...rows.slice(12).map((r) => writeMessageRow(ctx, ch, r)),
    ]);
    assert.equal(results.filter((r) => r.status === 'rejected').length, 1);
    assert.equal(results[12].status, 'rejected', 'the duplicate fails');
    // One transaction for the whole turn, rolled back at the duplicate; then one with a savepoint per write.
    if (sqlite()) assert.equal(begins, 2, 'the 21 writes of one turn: tried whole, then write by write');
  } finally {
    if (exec && run) exec.run = run;
  }

  const stored = await ctx.repos.store.db
    .selectFrom('messages')
    .select(['id', 'content'])
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  assert.equal(stored.length, 20, 'the other writes are stored');
  const kept = await ctx.repos.store.db.selectFrom('messages').select('content').where('id', '=', first.id).executeTakeFirst();
  assert.equal(kept?.content, 'first', 'the message that had the id keeps it');
  const files = await ctx.repos.store.db.selectFrom('files').select('id').where('id', '=', fileId).execute();
  assert.equal(files.length, 0, 'the failed write left no file row behind');
  assert.equal(await lastMessageId(ch.id), rows[19].id);
});

test('a message write waits for a transaction that holds the connection, and survives its rollback', async () => {
  const ctx = t.server.ctx;
  const ch = await loadChannel(ctx, t.world.textChannelId);
  const row = { ...messageRow(ctx, ch, t.world.botUserId, 0), content: 'written beside a rollback' };
  let write: Promise<void> | undefined;
  await assert.rejects(
    ctx.repos.store.db.transaction().execute(async (trx) => {
      await trx.updateTable('channels').set({ topic: 'rolled back' }).where('id', '=', ch.id).execute();
      write = writeMessageRow(ctx, ch, row);
      await new Promise((r) => setTimeout(r, 30));
      throw new Error('roll back');
    }),
    /roll back/,
  );
  await write;
  const stored = await ctx.repos.store.db.selectFrom('messages').select('content').where('id', '=', row.id).executeTakeFirst();
  assert.equal(stored?.content, 'written beside a rollback');
  assert.equal((await loadChannel(ctx, ch.id)).topic, ch.topic, 'the rolled-back change is gone');
  assert.equal(await lastMessageId(ch.id), row.id);
});
