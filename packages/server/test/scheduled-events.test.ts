/**
 * Guild scheduled events (CRUD, status transitions and automation on the server clock, interested users, recurrence
 * exceptions, the CREATE_EVENTS cutover of 2026-02-23 on both sides) and stage instances.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { AFTER_CUTOVER, BEFORE_CUTOVER, PNG, dataUri, installBot, resetClock, setClock, stripEveryone } from './helpers/fixtures.js';

const P = { VIEW_CHANNEL: 1n << 10n, CONNECT: 1n << 20n, MANAGE_EVENTS: 1n << 33n, CREATE_EVENTS: 1n << 44n };
const HOUR = 3600_000;

let t: TestServer;
let gw: RawGateway;
let stageId: string;
const bot = () => ({ token: t.world.botToken, bot: true });
const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });
const g = () => t.world.guildId;
const at = (ms: number) => new Date(ms).toISOString();
/** Server time now (the dev clock may have moved). */
async function now(): Promise<number> {
  return Date.parse(((await (await fetch(`${t.server.url}/__dev/clock`, { headers: devHeaders(t) })).json()) as { now: string }).now);
}
const external = async (extra: Record<string, unknown> = {}) => {
  const n = await now();
  return {
    name: 'Launch party',
    description: 'Come along',
    privacy_level: 2,
    entity_type: 3,
    entity_metadata: { location: 'The park' },
    scheduled_start_time: at(n + HOUR),
    scheduled_end_time: at(n + 2 * HOUR),
    ...extra,
  };
};
const create = async (body: unknown, who: { token: string; bot?: boolean } = bot()) =>
  t.api(`/guilds/${g()}/scheduled-events`, { method: 'POST', ...who, body });

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  const stage = await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...alice(), body: { name: 'Town hall', type: 13 } });
  assert.equal(stage.status, 201, stage.text);
  stageId = stage.body.id;
  gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: (1 << 0) | (1 << 16) });
  await gw.dispatch('GUILD_CREATE');
});

after(async () => {
  gw?.close();
  await t?.close();
});

test('external events: create, get, list, edit, delete, with their gateway events', async () => {
  const img = dataUri(PNG);
  const c = await create(await external({ image: img }));
  assert.equal(c.status, 200, c.text);
  const e = c.body;
  assert.equal(e.guild_id, g());
  assert.equal(e.channel_id, null);
  assert.equal(e.creator_id, t.world.botUserId);
  assert.equal(e.creator.id, t.world.botUserId);
  assert.equal(e.status, 1);
  assert.equal(e.entity_type, 3);
  assert.equal(e.entity_id, null);
  assert.deepEqual(e.entity_metadata, { location: 'The park' });
  assert.equal(e.privacy_level, 2);
  assert.equal(e.recurrence_rule, null);
  assert.deepEqual(e.guild_scheduled_event_exceptions, []);
  assert.match(e.image, /^[0-9a-f]{32}$/);
  const cover = await fetch(`${t.server.url}/guild-events/${e.id}/${e.image}.png`);
  assert.equal(cover.status, 200);
  await gw.dispatch('GUILD_SCHEDULED_EVENT_CREATE', (d) => d.id === e.id);

  const got = await t.api(`/guilds/${g()}/scheduled-events/${e.id}?with_user_count=true`, bot());
  assert.equal(got.body.user_count, 0);
  const list = await t.api(`/guilds/${g()}/scheduled-events`, bot());
  assert.ok(list.body.some((x: any) => x.id === e.id && x.user_count === undefined));

  const patched = await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, {
    method: 'PATCH',
    ...bot(),
    body: { name: 'Launch', description: null, entity_metadata: { location: 'The beach' } },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.name, 'Launch');
  assert.equal(patched.body.description, null);
  assert.equal(patched.body.entity_metadata.location, 'The beach');
  await gw.dispatch('GUILD_SCHEDULED_EVENT_UPDATE', (d) => d.id === e.id && d.name === 'Launch');

  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'DELETE', ...bot() })).status, 204);
  await gw.dispatch('GUILD_SCHEDULED_EVENT_DELETE', (d) => d.id === e.id);
  const gone = await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, bot());
  assert.equal(gone.status, 404);
  assert.equal(gone.body.code, 10070);
});

test('field requirements by entity type and time checks', async () => {
  const bad = async (body: unknown, key: string) => {
    const r = await create(body);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.code, 50035);
    assert.ok(JSON.stringify(r.body.errors).includes(key), r.text);
  };
  await bad(await external({ entity_metadata: undefined }), 'location');
  await bad(await external({ scheduled_end_time: undefined }), 'scheduled_end_time');
  await bad(await external({ channel_id: t.world.voiceChannelId }), 'channel_id');
  await bad(await external({ scheduled_start_time: at((await now()) - HOUR) }), 'scheduled_start_time');
  await bad(await external({ scheduled_end_time: at((await now()) + HOUR / 2) }), 'scheduled_end_time');
  await bad({ ...(await external()), entity_type: 2, entity_metadata: null }, 'channel_id');
  await bad({ ...(await external()), entity_type: 2, channel_id: stageId }, 'channel_id');
  await bad({ ...(await external()), entity_type: 1, channel_id: t.world.voiceChannelId }, 'channel_id');
  await bad(await external({ privacy_level: 1 }), 'privacy_level');
  await bad(await external({ name: '' }), 'name');

  const voice = await create({
    ...(await external()),
    entity_type: 2,
    channel_id: t.world.voiceChannelId,
    entity_metadata: { location: 'ignored' },
    scheduled_end_time: null,
  });
  assert.equal(voice.status, 200, voice.text);
  assert.equal(voice.body.channel_id, t.world.voiceChannelId);
  assert.equal(voice.body.entity_metadata, null);
  assert.equal(voice.body.scheduled_end_time, null);
  const stage = await create({ ...(await external()), entity_type: 1, channel_id: stageId });
  assert.equal(stage.status, 200, stage.text);
  for (const id of [voice.body.id, stage.body.id]) await t.api(`/guilds/${g()}/scheduled-events/${id}`, { method: 'DELETE', ...bot() });
});

test('status transitions: SCHEDULED -> ACTIVE -> COMPLETED; finished events refuse edits (180000)', async () => {
  const e = (await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId })).body;
  const skip = await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'PATCH', ...bot(), body: { status: 3 } });
  assert.equal(skip.body.code, 50035);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'PATCH', ...bot(), body: { status: 2 } })).body.status, 2);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'PATCH', ...bot(), body: { status: 1 } })).body.code, 50035);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'PATCH', ...bot(), body: { status: 3 } })).body.status, 3);
  const late = await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'PATCH', ...bot(), body: { name: 'again' } });
  assert.equal(late.status, 400);
  assert.equal(late.body.code, 180000);

  const c = (await create(await external())).body;
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${c.id}`, { method: 'PATCH', ...bot(), body: { status: 4 } })).body.status, 4);
  // An external event can move into a voice channel and back.
  const x = (await create(await external())).body;
  const moved = await t.api(`/guilds/${g()}/scheduled-events/${x.id}`, {
    method: 'PATCH',
    ...bot(),
    body: { entity_type: 2, channel_id: t.world.voiceChannelId },
  });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.entity_metadata, null);
  const back = await t.api(`/guilds/${g()}/scheduled-events/${x.id}`, {
    method: 'PATCH',
    ...bot(),
    body: { entity_type: 3, channel_id: null, entity_metadata: { location: 'Online' } },
  });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.body.channel_id, null);
  const noNull = await t.api(`/guilds/${g()}/scheduled-events/${x.id}`, { method: 'PATCH', ...bot(), body: { entity_type: 2 } });
  assert.equal(noNull.body.code, 50035);
  await t.api(`/guilds/${g()}/scheduled-events/${x.id}`, { method: 'DELETE', ...bot() });
});

test('status automation on the server clock: external events start and end on time, unstarted events are cancelled', async () => {
  const n = await now();
  const ext = (await create({ ...(await external()), scheduled_start_time: at(n + HOUR), scheduled_end_time: at(n + 2 * HOUR) })).body;
  const voice = (
    await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId, scheduled_start_time: at(n + HOUR), scheduled_end_time: null })
  ).body;
  try {
    await setClock(t, at(n + HOUR + 60_000));
    assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${ext.id}`, bot())).body.status, 2);
    assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${voice.id}`, bot())).body.status, 1);
    await gw.dispatch('GUILD_SCHEDULED_EVENT_UPDATE', (d) => d.id === ext.id && d.status === 2);
    await setClock(t, at(n + 2 * HOUR + 60_000));
    assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${ext.id}`, bot())).body.status, 3);
    await setClock(t, at(n + 5 * HOUR));
    const list = await t.api(`/guilds/${g()}/scheduled-events`, bot());
    assert.equal(list.body.find((x: any) => x.id === voice.id).status, 4);
  } finally {
    await resetClock(t);
  }
});

test('interested users: RSVP, ascending list with before/after and with_member, counts, USER_ADD/REMOVE', async () => {
  const e = (await create(await external())).body;
  for (const u of [alice(), bob()]) {
    const r = await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users/@me`, { method: 'PUT', ...u });
    assert.equal(r.status, 204, r.text);
  }
  await gw.dispatch('GUILD_SCHEDULED_EVENT_USER_ADD', (d) => d.guild_scheduled_event_id === e.id && d.user_id === t.world.users[1].id);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users/@me`, { method: 'PUT', ...bot() })).body.code, 20001);
  const ids = [t.world.users[0].id, t.world.users[1].id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const users = await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users?with_member=true`, bot());
  assert.equal(users.status, 200);
  assert.deepEqual(
    users.body.map((u: any) => u.user.id),
    ids,
  );
  assert.equal(users.body[0].guild_scheduled_event_id, e.id);
  assert.ok(users.body[0].member.joined_at);
  assert.equal(users.body[0].member.user.id, users.body[0].user_id);
  assert.deepEqual(
    (await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users?after=${ids[0]}`, bot())).body.map((u: any) => u.user.id),
    [ids[1]],
  );
  assert.deepEqual(
    (await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users?before=${ids[1]}&after=${ids[1]}`, bot())).body.map((u: any) => u.user.id),
    [ids[0]],
  );
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users?limit=1`, bot())).body.length, 1);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users?limit=101`, bot())).body.code, 50035);
  const counts = await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users/counts`, bot());
  assert.deepEqual(counts.body, { guild_scheduled_event_count: 2, guild_scheduled_event_exception_counts: {} });
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events?with_user_count=true`, bot())).body.find((x: any) => x.id === e.id).user_count, 2);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${e.id}/users/@me`, { method: 'DELETE', ...bob() })).status, 204);
  await gw.dispatch('GUILD_SCHEDULED_EVENT_USER_REMOVE', (d) => d.user_id === t.world.users[1].id);
  await t.api(`/guilds/${g()}/scheduled-events/${e.id}`, { method: 'DELETE', ...bot() });
});

test('recurring events and their exceptions', async () => {
  const n = await now();
  const start = at(n + 24 * HOUR);
  const badRule = await create(
    await external({
      scheduled_start_time: start,
      scheduled_end_time: at(n + 25 * HOUR),
      recurrence_rule: { start, frequency: 2, interval: 1, by_weekday: [0, 1], count: 3 },
    }),
  );
  assert.equal(badRule.body.code, 50035);
  const weekdays = await create(
    await external({
      scheduled_start_time: start,
      scheduled_end_time: at(n + 25 * HOUR),
      recurrence_rule: { start, frequency: 2, interval: 1, by_weekday: [0, 1] },
    }),
  );
  assert.equal(weekdays.body.code, 50035, 'weekly rules name one day');
  const c = await create(
    await external({
      scheduled_start_time: start,
      scheduled_end_time: at(n + 25 * HOUR),
      recurrence_rule: { start, frequency: 2, interval: 2, by_weekday: [3] },
    }),
  );
  assert.equal(c.status, 200, c.text);
  assert.equal(c.body.recurrence_rule.frequency, 2);
  assert.equal(c.body.recurrence_rule.interval, 2);
  assert.deepEqual(c.body.recurrence_rule.by_weekday, [3]);
  assert.equal(c.body.recurrence_rule.count, null);
  const e = c.body;
  const base = `/guilds/${g()}/scheduled-events/${e.id}`;
  const second = at(n + 24 * HOUR + 14 * 24 * HOUR);
  assert.equal((await t.api(`${base}/exceptions`, { method: 'POST', ...bot(), body: { original_scheduled_start_time: second } })).body.code, 180005);
  const x = await t.api(`${base}/exceptions`, { method: 'POST', ...bot(), body: { original_scheduled_start_time: second, is_canceled: true } });
  assert.equal(x.status, 200, x.text);
  assert.equal(x.body.event_id, e.id);
  assert.equal(x.body.is_canceled, true);
  const xid = x.body.event_exception_id;
  assert.equal((await t.api(base, bot())).body.guild_scheduled_event_exceptions.length, 1);
  const px = await t.api(`${base}/exceptions/${xid}`, {
    method: 'PATCH',
    ...bot(),
    body: { is_canceled: false, scheduled_start_time: at(n + 15 * 24 * HOUR) },
  });
  assert.equal(px.status, 200, px.text);
  assert.equal(px.body.is_canceled, false);
  assert.equal((await t.api(`${base}/${xid}/users`, bot())).status, 200);
  assert.equal((await t.api(`${base}/exceptions/${xid}/users`, bot())).status, 200);
  const counts = await t.api(`${base}/users/counts?guild_scheduled_event_exception_ids=${xid}`, bot());
  assert.deepEqual(counts.body.guild_scheduled_event_exception_counts, { [xid]: 0 });
  assert.equal((await t.api(`${base}/exceptions/${xid}`, { method: 'DELETE', ...bot() })).status, 204);
  assert.equal((await t.api(`${base}/exceptions/${xid}`, { method: 'DELETE', ...bot() })).status, 404);
  const flat = (await create(await external())).body;
  assert.equal(
    (
      await t.api(`/guilds/${g()}/scheduled-events/${flat.id}/exceptions`, {
        method: 'POST',
        ...bot(),
        body: { original_scheduled_start_time: second, is_canceled: true },
      })
    ).body.code,
    50035,
  );
  for (const id of [e.id, flat.id]) await t.api(`/guilds/${g()}/scheduled-events/${id}`, { method: 'DELETE', ...bot() });
});

test("permissions: CREATE_EVENTS to create, MANAGE_EVENTS for others' events, channel permissions by entity type", async () => {
  // Bob has CREATE_EVENTS, VIEW_CHANNEL and CONNECT from @everyone.
  const mine = await create(await external(), bob());
  assert.equal(mine.status, 200, mine.text);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${mine.body.id}`, { method: 'PATCH', ...bob(), body: { name: 'bob party' } })).status, 200);
  const theirs = (await create(await external())).body;
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${theirs.id}`, { method: 'PATCH', ...bob(), body: { name: 'mine' } })).body.code, 50013);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${theirs.id}`, { method: 'DELETE', ...bob() })).body.code, 50013);
  // A stage event needs MANAGE_CHANNELS, MUTE_MEMBERS and MOVE_MEMBERS in the channel.
  assert.equal((await create({ ...(await external()), entity_type: 1, channel_id: stageId }, bob())).body.code, 50013);
  // Voice events in a channel bob cannot connect to.
  const deny = await t.api(`/channels/${t.world.voiceChannelId}/permissions/${t.world.users[1].id}`, {
    method: 'PUT',
    ...alice(),
    body: { type: 1, deny: P.CONNECT.toString() },
  });
  assert.equal(deny.status, 204, deny.text);
  assert.equal((await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId }, bob())).body.code, 50013);
  // Events in a channel bob cannot see are not shown to him.
  const hidden = (await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId })).body;
  await t.api(`/channels/${t.world.voiceChannelId}/permissions/${t.world.users[1].id}`, {
    method: 'PUT',
    ...alice(),
    body: { type: 1, deny: (P.CONNECT | P.VIEW_CHANNEL).toString() },
  });
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${hidden.id}`, bob())).body.code, 10070);
  assert.ok(!(await t.api(`/guilds/${g()}/scheduled-events`, bob())).body.some((x: any) => x.id === hidden.id));
  await t.api(`/channels/${t.world.voiceChannelId}/permissions/${t.world.users[1].id}`, { method: 'DELETE', ...alice() });
  for (const id of [mine.body.id, theirs.id, hidden.id]) await t.api(`/guilds/${g()}/scheduled-events/${id}`, { method: 'DELETE', ...bot() });
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events`, { token: 'nope' })).status, 401);
});

test('CREATE_EVENTS: MANAGE_EVENTS alone creates events before 2026-02-23, not after', async () => {
  await stripEveryone(t, P.CREATE_EVENTS);
  const planner = await installBot(t, 'Event Planner', P.VIEW_CHANNEL | P.CONNECT | P.MANAGE_EVENTS);
  const as = { token: planner.token, bot: true };
  try {
    await setClock(t, BEFORE_CUTOVER);
    const n = await now();
    const ext = await create(await external({ scheduled_start_time: at(n + 5 * 24 * HOUR), scheduled_end_time: at(n + 6 * 24 * HOUR) }), as);
    assert.equal(ext.status, 200, ext.text);
    const voice = await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId }, as);
    assert.equal(voice.status, 200, voice.text);
    // Bob has neither CREATE_EVENTS (stripped) nor MANAGE_EVENTS.
    assert.equal((await create(await external(), bob())).body.code, 50013);

    await setClock(t, AFTER_CUTOVER);
    const denied = await create(await external(), as);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 50013);
    assert.equal((await create({ ...(await external()), entity_type: 2, channel_id: t.world.voiceChannelId }, as)).body.code, 50013);
    // MANAGE_EVENTS still edits and deletes events.
    assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${ext.body.id}`, { method: 'PATCH', ...as, body: { name: 'still editable' } })).status, 200);
    assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${voice.body.id}`, { method: 'DELETE', ...as })).status, 204);
    assert.equal((await create(await external())).status, 200, 'the seed bot holds CREATE_EVENTS');
  } finally {
    await resetClock(t);
  }
});

test('at most 100 SCHEDULED or ACTIVE events (30038)', async () => {
  const db = t.server.ctx.repos.store.db;
  const open = Number(
    (
      await db
        .selectFrom('scheduled_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('guild_id', '=', g())
        .where('status', 'in', [1, 2])
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = Array.from({ length: 100 - open }, (_, i) => ({
    id: t.server.ctx.ids.next(),
    guild_id: g(),
    channel_id: null,
    creator_id: null,
    name: `e${i}`,
    description: null,
    scheduled_start_time: Date.now() + 10 * HOUR,
    scheduled_end_time: Date.now() + 11 * HOUR,
    privacy_level: 2,
    status: 1,
    entity_type: 3,
    entity_id: null,
    entity_metadata: JSON.stringify({ location: 'x' }),
    image: null,
    recurrence_rule: null,
    created_at: 0,
  }));
  await db.insertInto('scheduled_events').values(rows).execute();
  const r = await create(await external());
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 30038);
  await db
    .deleteFrom('scheduled_events')
    .where(
      'id',
      'in',
      rows.map((x) => x.id),
    )
    .execute();
});

test('stage instances: moderators open a stage (150006 when live), edit and end it; a linked stage event starts and completes', async () => {
  const ev = (await create({ ...(await external()), entity_type: 1, channel_id: stageId })).body;
  const notStage = await t.api('/stage-instances', { method: 'POST', ...bot(), body: { channel_id: t.world.voiceChannelId, topic: 'x' } });
  assert.equal(notStage.body.code, 50035);
  assert.equal((await t.api('/stage-instances', { method: 'POST', ...bob(), body: { channel_id: stageId, topic: 'x' } })).body.code, 50013);
  const c = await t.api('/stage-instances', { method: 'POST', ...bot(), body: { channel_id: stageId, topic: 'AMA', guild_scheduled_event_id: ev.id } });
  assert.equal(c.status, 200, c.text);
  assert.equal(c.body.channel_id, stageId);
  assert.equal(c.body.guild_id, g());
  assert.equal(c.body.privacy_level, 2);
  assert.equal(c.body.discoverable_disabled, false);
  assert.equal(c.body.guild_scheduled_event_id, ev.id);
  await gw.dispatch('STAGE_INSTANCE_CREATE', (d) => d.id === c.body.id);
  const live = (await t.api(`/guilds/${g()}/scheduled-events/${ev.id}`, bot())).body;
  assert.equal(live.status, 2);
  assert.equal(live.entity_id, c.body.id);
  const again = await t.api('/stage-instances', { method: 'POST', ...bot(), body: { channel_id: stageId, topic: 'twice' } });
  assert.equal(again.body.code, 150006);
  assert.equal((await t.api(`/stage-instances/${stageId}`, bob())).body.topic, 'AMA');

  // A new session sees the live stage in GUILD_CREATE.
  const gw2 = await RawGateway.connect(t.server.url);
  await gw2.identify(t.world.botToken, { intents: 1 });
  const guild = await gw2.dispatch('GUILD_CREATE');
  assert.ok(guild.stage_instances.some((s: any) => s.id === c.body.id));
  assert.ok(guild.guild_scheduled_events.some((e: any) => e.id === ev.id));
  assert.ok(Array.isArray(guild.soundboard_sounds));
  gw2.close();

  const p = await t.api(`/stage-instances/${stageId}`, { method: 'PATCH', ...bot(), body: { topic: 'AMA, part 2' } });
  assert.equal(p.body.topic, 'AMA, part 2');
  await gw.dispatch('STAGE_INSTANCE_UPDATE', (d) => d.topic === 'AMA, part 2');
  assert.equal((await t.api(`/stage-instances/${stageId}`, { method: 'PATCH', ...bot(), body: { topic: '' } })).body.code, 50035);
  assert.equal((await t.api(`/stage-instances/${stageId}`, { method: 'DELETE', ...bot() })).status, 204);
  await gw.dispatch('STAGE_INSTANCE_DELETE', (d) => d.id === c.body.id);
  assert.equal((await t.api(`/guilds/${g()}/scheduled-events/${ev.id}`, bot())).body.status, 3);
  const gone = await t.api(`/stage-instances/${stageId}`, bot());
  assert.equal(gone.status, 404);
  assert.equal(gone.body.code, 10067);
  assert.equal((await t.api('/stage-instances/99999999999999999999', bot())).body.code, 10067);

  // Deleting a live stage channel ends its stage.
  const ch = (await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...alice(), body: { name: 'Pop-up', type: 13 } })).body;
  const s2 = (await t.api('/stage-instances', { method: 'POST', ...bot(), body: { channel_id: ch.id, topic: 'pop' } })).body;
  assert.equal((await t.api(`/channels/${ch.id}`, { method: 'DELETE', ...alice() })).status, 200);
  await gw.dispatch('STAGE_INSTANCE_DELETE', (d) => d.id === s2.id);
});

test('malformed event and stage bodies never give a 5xx', async () => {
  const fc = (await import('fast-check')).default;
  const garbage = fc.oneof(
    fc.anything(),
    fc.constantFrom(null, '', [], {}, -1, 1e300, '99999999999999999999999', 'not a date', { location: 'x' }, { start: 'x', frequency: 9 }),
  );
  const base = await external();
  const cases: [string, string, Record<string, unknown>, string[]][] = [
    [
      `/guilds/${g()}/scheduled-events`,
      'POST',
      base,
      [
        'name',
        'description',
        'image',
        'scheduled_start_time',
        'scheduled_end_time',
        'privacy_level',
        'entity_type',
        'channel_id',
        'entity_metadata',
        'recurrence_rule',
      ],
    ],
    [
      '/stage-instances',
      'POST',
      { channel_id: stageId, topic: 't' },
      ['channel_id', 'topic', 'privacy_level', 'guild_scheduled_event_id', 'send_start_notification'],
    ],
  ];
  for (const [path, method, b, fields] of cases) {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(fields, { minLength: 1 }),
        fc.array(garbage, { minLength: fields.length, maxLength: fields.length }),
        async (keys, values) => {
          const body: Record<string, unknown> = { ...b };
          keys.forEach((k, i) => {
            body[k] = values[i];
          });
          const r = await t.api(path, { method, ...bot(), body });
          assert.ok(r.status < 500, `${method} ${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
          if (r.status === 200 && path === '/stage-instances') await t.api(`/stage-instances/${r.body.channel_id}`, { method: 'DELETE', ...bot() });
        },
      ),
      { numRuns: 40 },
    );
  }
  for (const q of ['limit=abc', 'before=x', 'after=99999999999999999999', 'with_member=maybe']) {
    const r = await t.api(`/guilds/${g()}/scheduled-events/1/users?${q}`, bot());
    assert.ok(r.status < 500, `${q} -> ${r.status}`);
  }
});
