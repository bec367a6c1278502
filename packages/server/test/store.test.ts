import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { snowflakeTime } from '@accord/protocol';
import { Snowflakes } from '../src/core/snowflake.js';
import { Clock } from '../src/core/clock.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

test('64-bit snowflakes round-trip exactly through the store and the API', async () => {
  const ids = ['9223372036854775807', '9007199254740993', '1420070400000000001'];
  for (const id of ids) {
    await t.server.ctx.repos.store.db
      .insertInto('users')
      .values({
        id,
        username: `u${id}`,
        discriminator: '0',
        global_name: null,
        avatar: null,
        banner: null,
        accent_color: null,
        bio: '',
        email: null,
        verified: 1,
        password_hash: null,
        date_of_birth: null,
        bot: 0,
        system: 0,
        flags: 0,
        premium_type: 0,
        primary_guild: null,
        created_at: 0,
      })
      .execute();
    const row = await t.server.ctx.repos.store.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(String(row.id), id);
    const res = await t.api(`/users/${id}`, { token: t.world.users[0].token });
    assert.equal(res.body.id, id);
    assert.ok(res.text.includes(`"id":"${id}"`), 'serialized as a string');
  }
  // Ordering is numeric, not lexical.
  const sorted = await t.server.ctx.repos.store.db.selectFrom('users').select('id').where('id', 'in', ids).orderBy('id').execute();
  assert.deepEqual(
    sorted.map((r) => String(r.id)),
    ['9007199254740993', '1420070400000000001', '9223372036854775807'],
  );
});

test('snowflakes are unique and increasing, even when the dev clock stands still', () => {
  const clock = new Clock();
  const gen = new Snowflakes(clock);
  const seen = new Set<string>();
  let last = 0n;
  for (let i = 0; i < 10000; i++) {
    const id = gen.next();
    assert.ok(BigInt(id) > last);
    last = BigInt(id);
    seen.add(id);
  }
  assert.equal(seen.size, 10000);
  const id = gen.next();
  assert.ok(Math.abs(snowflakeTime(id) - clock.now()) < 5000);
});
