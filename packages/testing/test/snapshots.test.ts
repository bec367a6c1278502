/** World snapshots: two deterministic runs make the same world; a world exported at exit comes back on import. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAccord, type Accord, type WorldSnapshot } from '../src/index.ts';

/** The same script, run against a fresh server. */
async function script(accord: Accord) {
  const w = await accord.world({ guild: { channels: ['plans'] }, apps: { helper: { commands: [{ name: 'ping', description: 'Ping' }] } } });
  const { alice, bob } = w.people;
  const hello = await alice.send(w.guild.channels.plans, 'hello');
  await bob.reply(hello, 'hi alice');
  await bob.react(hello, '👍');
  await alice.openDM(bob);
  await accord.clock.advance('1h');
  await alice.send(w.guild.channels.plans, 'an hour later');
  return w;
}

test('two --deterministic runs of one script give the same snapshot', { timeout: 90_000 }, async () => {
  const snapshots: WorldSnapshot[] = [];
  for (let run = 0; run < 2; run++) {
    const accord = await startAccord({ deterministic: true, autoClose: false });
    try {
      const w = await script(accord);
      assert.equal((await accord.clock.now()).toISOString(), '2026-01-01T01:00:00.000Z', 'the clock stood still but for the hour it was moved');
      assert.equal(w.apps.helper.id, run === 0 ? w.apps.helper.id : snapshots[0].tables.applications[0].id);
      snapshots.push(await accord.snapshot());
    } finally {
      await accord.close();
    }
  }
  const [a, b] = snapshots;
  const differ = Object.keys(a.tables)
    .filter((t) => JSON.stringify(a.tables[t]) !== JSON.stringify(b.tables[t]))
    .map((t) => `${t}: ${JSON.stringify(a.tables[t]).slice(0, 300)} / ${JSON.stringify(b.tables[t]).slice(0, 300)}`);
  assert.deepEqual(differ, [], 'tables that differ between the runs');
  assert.equal(JSON.stringify(a), JSON.stringify(b), 'the snapshots are the same text');
  assert.ok(snapshots[0].tables.messages.length >= 3);
});

test('a world written at exit is the world a later run starts from', { timeout: 90_000 }, async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'accord-snapshot-')), 'world.json');
  const first = await startAccord({ exportOnExit: file, autoClose: false });
  const w = await script(first);
  const before = await first.snapshot();
  await first.close();
  const written = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(written.tables, before.tables, 'the file holds the world as it was at exit');

  const second = await startAccord({ import: file, autoClose: false });
  try {
    assert.deepEqual((await second.snapshot()).tables, before.tables, 'export then import gives the same world');
    // The people and the bot can go on where they left off: their tokens, the messages, new ids after the old ones.
    const alice = w.people.alice;
    const seen = await second.request<any[]>(`/channels/${w.guild.channels.plans}/messages`, { auth: alice.token });
    assert.deepEqual(
      seen.map((m) => m.content),
      ['an hour later', 'hi alice', 'hello'],
    );
    const bot = await second.request(`/users/@me`, { auth: `Bot ${w.apps.helper.token}` });
    assert.equal(bot.id, w.apps.helper.botUserId);
    const next = await second.request(`/channels/${w.guild.channels.plans}/messages`, { body: { content: 'after the import' }, auth: alice.token });
    assert.ok(BigInt(next.id) > BigInt(seen[0].id), 'new ids come after the imported ones');
  } finally {
    await second.close();
  }
});

test('a snapshot that is not one is refused at start with a clear error', { timeout: 30_000 }, async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'accord-snapshot-')), 'bad.json');
  fs.writeFileSync(file, JSON.stringify({ format: 'something-else' }));
  await assert.rejects(startAccord({ import: file, autoClose: false }), /not an Accord world snapshot/);
});
