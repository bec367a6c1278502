/**
 * The audit log: entries written by the routes that must write them (with X-Audit-Log-Reason), the GET filters and
 * ordering, VIEW_AUDIT_LOG, 45-day retention on the server clock, GUILD_AUDIT_LOG_ENTRY_CREATE (GUILD_MODERATION
 * intent plus VIEW_AUDIT_LOG), voice channel status entries 192/193, and guild integrations.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { installBot, resetClock, setClock } from './helpers/fixtures.js';
import { writeAuditLog } from '../src/services/moderation/audit-log.js';
import { gatewaySynced } from './helpers/barriers.js';

const P = { VIEW_CHANNEL: 1n << 10n, SEND_MESSAGES: 1n << 11n, VIEW_AUDIT_LOG: 1n << 7n };

let t: TestServer;
let gw: RawGateway;
const bot = () => ({ token: t.world.botToken, bot: true });
const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });
const g = () => t.world.guildId;
const reason = (text: string) => ({ 'x-audit-log-reason': encodeURIComponent(text) });

async function log(query = '') {
  const r = await t.api(`/guilds/${g()}/audit-logs${query}`, bot());
  assert.equal(r.status, 200, r.text);
  return r.body;
}
/** The newest entry of a type (optionally for a target). */
async function latest(actionType: number, targetId?: string) {
  const body = await log(`?action_type=${actionType}${targetId ? `&target_id=${targetId}` : ''}&limit=1`);
  assert.equal(body.audit_log_entries.length, 1, `no entry of type ${actionType}`);
  return body.audit_log_entries[0];
}
const change = (entry: any, key: string) => entry.changes?.find((c: any) => c.key === key);

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: (1 << 0) | (1 << 2) });
  await gw.dispatch('GUILD_CREATE');
});

after(async () => {
  gw?.close();
  await t?.close();
});

test('the audit log object: every list present, newest first, VIEW_AUDIT_LOG required', async () => {
  const body = await log();
  for (const k of [
    'audit_log_entries',
    'users',
    'integrations',
    'webhooks',
    'guild_scheduled_events',
    'threads',
    'application_commands',
    'auto_moderation_rules',
  ]) {
    assert.ok(Array.isArray(body[k]), k);
  }
  // The seed installed the bot: BOT_ADD (28) and INTEGRATION_CREATE (80) by the owner.
  const botAdd = body.audit_log_entries.find((e: any) => e.action_type === 28);
  assert.equal(botAdd.target_id, t.world.botUserId);
  assert.equal(botAdd.user_id, t.world.users[0].id);
  assert.ok(body.users.some((u: any) => u.id === t.world.botUserId));
  assert.ok(body.integrations.some((i: any) => i.id === t.world.applicationId && i.type === 'discord'));
  const denied = await t.api(`/guilds/${g()}/audit-logs`, bob());
  assert.equal(denied.status, 403);
  assert.equal(denied.body.code, 50013);
  assert.equal((await t.api(`/guilds/${g()}/audit-logs?limit=101`, bot())).body.code, 50035);
  assert.equal((await t.api(`/guilds/${g()}/audit-logs?limit=0`, bot())).body.code, 50035);
  assert.equal((await t.api('/guilds/99999999999999999999/audit-logs', bot())).body.code, 10004);
});

test('guild, channel, overwrite, role and member actions write entries, with the X-Audit-Log-Reason', async () => {
  const gu = await t.api(`/guilds/${g()}`, {
    method: 'PATCH',
    ...bot(),
    headers: reason('Rename: spring édition ✨'),
    body: { name: 'Accord Spring', description: 'hi' },
  });
  assert.equal(gu.status, 200, gu.text);
  const e1 = await latest(1, g());
  assert.equal(e1.user_id, t.world.botUserId);
  assert.equal(e1.reason, 'Rename: spring édition ✨');
  assert.deepEqual(change(e1, 'name'), { key: 'name', old_value: 'Accord Dev', new_value: 'Accord Spring' });
  assert.deepEqual(change(e1, 'description'), { key: 'description', new_value: 'hi' });
  // A PATCH that changes nothing writes nothing.
  const count = (await log('?action_type=1')).audit_log_entries.length;
  await t.api(`/guilds/${g()}`, { method: 'PATCH', ...bot(), body: { name: 'Accord Spring' } });
  assert.equal((await log('?action_type=1')).audit_log_entries.length, count);

  const ch = (await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...bot(), headers: reason('new room'), body: { name: 'audit-room', topic: 't' } })).body;
  const e10 = await latest(10, ch.id);
  assert.equal(e10.reason, 'new room');
  assert.equal(change(e10, 'name').new_value, 'audit-room');
  assert.equal(change(e10, 'type').new_value, 0);
  await t.api(`/channels/${ch.id}`, { method: 'PATCH', ...bot(), body: { topic: 'new topic' } });
  assert.deepEqual(change(await latest(11, ch.id), 'topic'), { key: 'topic', old_value: 't', new_value: 'new topic' });

  const role = (await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...bot(), body: { name: 'Auditors', permissions: '0' } })).body;
  assert.equal(change(await latest(30, role.id), 'name').new_value, 'Auditors');
  await t.api(`/guilds/${g()}/roles/${role.id}`, { method: 'PATCH', ...bot(), body: { name: 'Auditors 2', hoist: true } });
  const e31 = await latest(31, role.id);
  assert.deepEqual(change(e31, 'name'), { key: 'name', old_value: 'Auditors', new_value: 'Auditors 2' });
  assert.deepEqual(change(e31, 'hoist'), { key: 'hoist', old_value: false, new_value: true });

  await t.api(`/channels/${ch.id}/permissions/${role.id}`, { method: 'PUT', ...bot(), body: { type: 0, allow: '1024', deny: '2048' } });
  const e13 = await latest(13, ch.id);
  assert.deepEqual(e13.options, { id: role.id, type: '0', role_name: 'Auditors 2' });
  assert.equal(change(e13, 'allow').new_value, '1024');
  await t.api(`/channels/${ch.id}/permissions/${role.id}`, { method: 'PUT', ...bot(), body: { type: 0, allow: '1024', deny: '0' } });
  assert.deepEqual(change(await latest(14, ch.id), 'deny'), { key: 'deny', old_value: '2048', new_value: '0' });
  await t.api(`/channels/${ch.id}/permissions/${t.world.users[1].id}`, { method: 'PUT', ...bot(), body: { type: 1, deny: '2048' } });
  assert.deepEqual((await latest(13, ch.id)).options, { id: t.world.users[1].id, type: '1' });
  await t.api(`/channels/${ch.id}/permissions/${role.id}`, { method: 'DELETE', ...bot() });
  assert.equal((await latest(15, ch.id)).options.id, role.id);

  const bobId = t.world.users[1].id;
  await t.api(`/guilds/${g()}/members/${bobId}`, { method: 'PATCH', ...bot(), body: { nick: 'Bobby' } });
  assert.deepEqual(change(await latest(24, bobId), 'nick'), { key: 'nick', new_value: 'Bobby' });
  await t.api(`/guilds/${g()}/members/${bobId}/roles/${role.id}`, { method: 'PUT', ...bot() });
  assert.deepEqual((await latest(25, bobId)).changes, [{ key: '$add', new_value: [{ id: role.id, name: 'Auditors 2' }] }]);
  await t.api(`/guilds/${g()}/members/${bobId}`, { method: 'PATCH', ...bot(), body: { roles: [] } });
  assert.deepEqual((await latest(25, bobId)).changes, [{ key: '$remove', new_value: [{ id: role.id, name: 'Auditors 2' }] }]);
  const until = new Date(Date.now() + 3600_000).toISOString();
  await t.api(`/guilds/${g()}/members/${bobId}`, { method: 'PATCH', ...bot(), body: { communication_disabled_until: until } });
  assert.equal(change(await latest(24, bobId), 'communication_disabled_until').new_value, until);
  await t.api(`/guilds/${g()}/members/${bobId}`, { method: 'PATCH', ...bot(), body: { communication_disabled_until: null, nick: null } });

  await t.api(`/guilds/${g()}/roles/${role.id}`, { method: 'DELETE', ...bot() });
  assert.equal(change(await latest(32, role.id), 'name').old_value, 'Auditors 2');
  await t.api(`/channels/${ch.id}`, { method: 'DELETE', ...bot() });
  assert.equal(change(await latest(12, ch.id), 'name').old_value, 'audit-room');
});

test('invites, webhooks, messages (moderator delete, bulk delete, pins) and threads write entries', async () => {
  const ch = t.world.textChannelId;
  const inv = (await t.api(`/channels/${ch}/invites`, { method: 'POST', ...bot(), body: { max_age: 600, unique: true } })).body;
  const e40 = await latest(40);
  assert.equal(change(e40, 'code').new_value, inv.code);
  assert.equal(change(e40, 'channel_id').new_value, ch);
  assert.equal(change(e40, 'max_age').new_value, 600);
  await t.api(`/invites/${inv.code}`, { method: 'DELETE', ...bot() });
  assert.equal(change(await latest(42), 'code').old_value, inv.code);

  const hook = (await t.api(`/channels/${ch}/webhooks`, { method: 'POST', ...bot(), body: { name: 'Hooky' } })).body;
  assert.equal(change(await latest(50, hook.id), 'name').new_value, 'Hooky');
  await t.api(`/webhooks/${hook.id}`, { method: 'PATCH', ...bot(), body: { name: 'Hooky 2' } });
  assert.deepEqual(change(await latest(51, hook.id), 'name'), { key: 'name', old_value: 'Hooky', new_value: 'Hooky 2' });
  const withHook = await log('?action_type=51&limit=1');
  assert.equal(withHook.webhooks[0].id, hook.id);
  assert.equal(withHook.webhooks[0].token, undefined, 'never the token');
  await t.api(`/webhooks/${hook.id}`, { method: 'DELETE', ...bot() });
  assert.equal(change(await latest(52, hook.id), 'name').old_value, 'Hooky 2');

  const post = async () => (await t.api(`/channels/${ch}/messages`, { method: 'POST', ...bob(), body: { content: 'audit me' } })).body;
  const m1 = await post();
  await t.api(`/channels/${ch}/messages/${m1.id}/pins`, { method: 'PUT', ...bot() });
  const pin = await t.api(`/channels/${ch}/messages/pins/${m1.id}`, { method: 'PUT', ...bot() });
  assert.equal(pin.status, 204, pin.text);
  const e74 = await latest(74, t.world.users[1].id);
  assert.deepEqual(e74.options, { channel_id: ch, message_id: m1.id });
  await t.api(`/channels/${ch}/messages/pins/${m1.id}`, { method: 'DELETE', ...bot() });
  assert.equal((await latest(75, t.world.users[1].id)).options.message_id, m1.id);
  await t.api(`/channels/${ch}/messages/${m1.id}`, { method: 'DELETE', ...bot() });
  const e72 = await latest(72, t.world.users[1].id);
  assert.deepEqual(e72.options, { channel_id: ch, count: '1' });
  // Deleting one's own message writes nothing.
  const before72 = (await log('?action_type=72')).audit_log_entries.length;
  const own = await post();
  await t.api(`/channels/${ch}/messages/${own.id}`, { method: 'DELETE', ...bob() });
  assert.equal((await log('?action_type=72')).audit_log_entries.length, before72);
  const [a, b] = [await post(), await post()];
  assert.equal((await t.api(`/channels/${ch}/messages/bulk-delete`, { method: 'POST', ...bot(), body: { messages: [a.id, b.id] } })).status, 204);
  assert.deepEqual((await latest(73, ch)).options, { count: '2' });

  const thread = (await t.api(`/channels/${ch}/threads`, { method: 'POST', ...bot(), body: { name: 'audit thread', type: 11 } })).body;
  const e110 = await latest(110, thread.id);
  assert.equal(change(e110, 'name').new_value, 'audit thread');
  assert.ok((await log('?action_type=110&limit=1')).threads.some((x: any) => x.id === thread.id));
  await t.api(`/channels/${thread.id}`, { method: 'PATCH', ...bot(), body: { name: 'renamed thread', locked: true } });
  const e111 = await latest(111, thread.id);
  assert.deepEqual(change(e111, 'name'), { key: 'name', old_value: 'audit thread', new_value: 'renamed thread' });
  assert.deepEqual(change(e111, 'locked'), { key: 'locked', old_value: false, new_value: true });
  await t.api(`/channels/${thread.id}`, { method: 'DELETE', ...bot() });
  assert.equal(change(await latest(112, thread.id), 'name').old_value, 'renamed thread');
});

test('kicks, bans and unbans write entries with the reason', async () => {
  const victim = await installBot(t, 'Kickable', P.VIEW_CHANNEL);
  const kick = await t.api(`/guilds/${g()}/members/${victim.userId}`, { method: 'DELETE', ...alice(), headers: reason('spam') });
  assert.equal(kick.status, 204, kick.text);
  const e20 = await latest(20, victim.userId);
  assert.equal(e20.user_id, t.world.users[0].id);
  assert.equal(e20.reason, 'spam');
  await t.api(`/guilds/${g()}/bans/${victim.userId}`, { method: 'PUT', ...alice(), headers: reason('more spam'), body: {} });
  const e22 = await latest(22, victim.userId);
  assert.equal(e22.reason, 'more spam');
  const withUsers = await log(`?action_type=22&limit=1`);
  assert.ok(
    withUsers.users.some((u: any) => u.id === victim.userId),
    'the banned user is listed',
  );
  await t.api(`/guilds/${g()}/bans/${victim.userId}`, { method: 'DELETE', ...alice() });
  assert.equal((await latest(23, victim.userId)).user_id, t.world.users[0].id);
});

test('filters: user_id, action_type, target_id; before is newest first, after is oldest first', async () => {
  const all = (await log('?limit=100')).audit_log_entries;
  assert.ok(all.length >= 10);
  const ids = all.map((e: any) => BigInt(e.id));
  assert.deepEqual(
    [...ids].sort((a, b) => (a > b ? -1 : 1)),
    ids,
    'newest first',
  );
  const mid = all[5].id;
  const older = (await log(`?before=${mid}&limit=3`)).audit_log_entries;
  assert.deepEqual(
    older.map((e: any) => e.id),
    all.slice(6, 9).map((e: any) => e.id),
  );
  const newer = (await log(`?after=${mid}&limit=100`)).audit_log_entries;
  assert.deepEqual(
    newer.map((e: any) => e.id),
    all
      .slice(0, 5)
      .map((e: any) => e.id)
      .reverse(),
    'after: ascending',
  );
  const oldest = (await log('?after=0&limit=2')).audit_log_entries;
  assert.deepEqual(
    oldest.map((e: any) => e.id),
    all
      .slice(-2)
      .reverse()
      .map((e: any) => e.id),
  );
  const byAlice = (await log(`?user_id=${t.world.users[0].id}`)).audit_log_entries;
  assert.ok(byAlice.length > 0 && byAlice.every((e: any) => e.user_id === t.world.users[0].id));
  assert.deepEqual((await log('?action_type=999')).audit_log_entries, []);
  assert.equal((await t.api(`/guilds/${g()}/audit-logs?user_id=abc`, bot())).body.code, 50035);
});

test('GUILD_AUDIT_LOG_ENTRY_CREATE reaches GUILD_MODERATION sessions with VIEW_AUDIT_LOG only', async () => {
  const blind = await installBot(t, 'No Audit', P.VIEW_CHANNEL);
  const seeing = await installBot(t, 'Audit Reader', P.VIEW_CHANNEL | P.VIEW_AUDIT_LOG);
  const connect = async (token: string, intents: number) => {
    const c = await RawGateway.connect(t.server.url);
    await c.identify(token, { intents });
    await c.dispatch('GUILD_CREATE');
    return c;
  };
  const gBlind = await connect(blind.token, (1 << 0) | (1 << 2));
  const gSeeing = await connect(seeing.token, (1 << 0) | (1 << 2));
  const gNoIntent = await connect(t.world.botToken, 1 << 0);
  try {
    await t.api(`/guilds/${g()}`, { method: 'PATCH', ...alice(), headers: reason('broadcast'), body: { description: 'events!' } });
    const d = await gw.dispatch('GUILD_AUDIT_LOG_ENTRY_CREATE', (x) => x.reason === 'broadcast');
    assert.equal(d.guild_id, g());
    assert.equal(d.action_type, 1);
    assert.equal(d.user_id, t.world.users[0].id);
    await gSeeing.dispatch('GUILD_AUDIT_LOG_ENTRY_CREATE', (x) => x.reason === 'broadcast');
    await gatewaySynced(t.server, gBlind, gNoIntent);
    assert.ok(!gBlind.frames.some((f) => f.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE'), 'no VIEW_AUDIT_LOG, no entry');
    assert.ok(!gNoIntent.frames.some((f) => f.t === 'GUILD_AUDIT_LOG_ENTRY_CREATE'), 'no GUILD_MODERATION, no entry');
  } finally {
    gBlind.close();
    gSeeing.close();
    gNoIntent.close();
  }
});

test('voice channel status entries: 192 with options.status, 193 when cleared (through writeAuditLog)', async () => {
  const vc = t.world.voiceChannelId;
  const set = await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...bot(), body: { status: 'Raiding 🐉' } });
  if (set.status === 204) {
    const e = await latest(192, vc);
    assert.equal(e.options.status, 'Raiding 🐉');
    await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...bot(), body: { status: '' } });
    assert.equal((await latest(193, vc)).target_id, vc);
  }
  // The writer itself, as the voice-status route calls it.
  await writeAuditLog(t.server.ctx, { guildId: g(), userId: t.world.botUserId, actionType: 192, targetId: vc, options: { status: 'direct', channel_id: vc } });
  const e = await latest(192, vc);
  assert.deepEqual(e.options, { status: 'direct', channel_id: vc });
  await writeAuditLog(t.server.ctx, { guildId: g(), userId: t.world.botUserId, actionType: 193, targetId: vc });
  assert.equal((await latest(193, vc)).options, undefined);
});

test('integrations: installed bots are "discord" integrations; DELETE removes the bot (INTEGRATION_DELETE, entry 82)', async () => {
  const gwi = await RawGateway.connect(t.server.url);
  await gwi.identify(t.world.botToken, { intents: (1 << 0) | (1 << 4) });
  await gwi.dispatch('GUILD_CREATE');
  try {
    const extra = await installBot(t, 'Removable', P.VIEW_CHANNEL | P.SEND_MESSAGES);
    const created = await gwi.dispatch('INTEGRATION_CREATE', (d) => d.id === extra.appId);
    assert.equal(created.guild_id, g());
    assert.equal(created.type, 'discord');
    await gwi.dispatch('GUILD_INTEGRATIONS_UPDATE');
    assert.equal((await latest(80, extra.appId)).user_id, t.world.users[0].id);

    const list = await t.api(`/guilds/${g()}/integrations`, bot());
    assert.equal(list.status, 200);
    const mine = list.body.find((i: any) => i.id === extra.appId);
    assert.equal(mine.type, 'discord');
    assert.equal(mine.enabled, true);
    assert.equal(mine.application.id, extra.appId);
    assert.equal(mine.application.bot.id, extra.userId);
    assert.equal(typeof mine.application.flags, 'number');
    assert.equal(typeof mine.application.flags_new, 'string');
    assert.ok(mine.scopes.includes('bot'));
    assert.equal(mine.user.id, t.world.users[0].id);
    assert.equal(mine.account.id, extra.userId);
    assert.ok(
      list.body.some((i: any) => i.id === t.world.applicationId),
      'the seed bot too',
    );
    assert.equal((await t.api(`/guilds/${g()}/integrations`, bob())).body.code, 50013);

    const del = await t.api(`/guilds/${g()}/integrations/${extra.appId}`, { method: 'DELETE', ...alice(), headers: reason('cleanup') });
    assert.equal(del.status, 204, del.text);
    const gone = await gwi.dispatch('INTEGRATION_DELETE', (d) => d.id === extra.appId);
    assert.equal(gone.application_id, extra.appId);
    assert.equal((await t.api(`/guilds/${g()}/members/${extra.userId}`, bot())).body.code, 10007);
    const roles = (await t.api(`/guilds/${g()}/roles`, bot())).body;
    assert.ok(!roles.some((r: any) => r.tags?.bot_id === extra.userId), 'the managed role goes');
    const e82 = await latest(82, extra.appId);
    assert.equal(e82.reason, 'cleanup');
    assert.equal(change(e82, 'name').old_value, 'Removable');
    assert.equal((await t.api(`/guilds/${g()}/integrations/${extra.appId}`, { method: 'DELETE', ...alice() })).body.code, 10005);
    assert.equal((await t.api(`/guilds/${g()}/integrations/abc`, { method: 'DELETE', ...alice() })).body.code, 10005);
  } finally {
    gwi.close();
  }
});

test('entries are kept 45 days by the server clock', async () => {
  const entry = await writeAuditLog(t.server.ctx, {
    guildId: g(),
    userId: t.world.users[0].id,
    actionType: 1,
    targetId: g(),
    changes: [{ key: 'name', old_value: 'a', new_value: 'b' }],
  });
  assert.ok(entry);
  try {
    await setClock(t, new Date(Date.now() + 44 * 86400_000).toISOString());
    assert.ok((await log('?limit=100')).audit_log_entries.some((e: any) => e.id === entry!.id));
    await setClock(t, new Date(Date.now() + 46 * 86400_000).toISOString());
    assert.ok(!(await log('?limit=100')).audit_log_entries.some((e: any) => e.id === entry!.id));
  } finally {
    await resetClock(t);
  }
});
