/**
 * Auto Moderation: rules of every trigger type with their limits, PATCH, the MANAGE_GUILD-only gateway events, and
 * enforcement: BLOCK_MESSAGE (200000), SEND_ALERT_MESSAGE, TIMEOUT, BLOCK_MEMBER_INTERACTION, with
 * AUTO_MODERATION_ACTION_EXECUTION and audit entries; exemptions and allow lists.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { installBot } from './helpers/fixtures.js';
import { automodBlocks } from '../src/services/moderation/automod.js';

const P = { VIEW_CHANNEL: 1n << 10n, MANAGE_GUILD: 1n << 5n };
const INTENTS = (1 << 0) | (1 << 20) | (1 << 21);
const MESSAGE_CONTENT = 1 << 15;

let t: TestServer;
let gw: RawGateway;
let alertChannel: string;
const bot = () => ({ token: t.world.botToken, bot: true });
const alice = () => ({ token: t.world.users[0].token });
const bob = () => ({ token: t.world.users[1].token });
const g = () => t.world.guildId;
const rules = `/guilds/${'{g}'}/auto-moderation/rules`;
const url = (suffix = '') => rules.replace('{g}', g()) + suffix;
const createRule = (body: unknown, who: { token: string; bot?: boolean } = bot()) => t.api(url(), { method: 'POST', ...who, body });
const send = (content: string, who = bob(), channel = t.world.textChannelId) =>
  t.api(`/channels/${channel}/messages`, { method: 'POST', ...who, body: { content } });
const keyword = (extra: Record<string, unknown> = {}) => ({
  name: 'No crypto',
  event_type: 1,
  trigger_type: 1,
  trigger_metadata: { keyword_filter: ['crypto*', 'nft'] },
  actions: [{ type: 1, metadata: { custom_message: 'Not here' } }],
  enabled: true,
  ...extra,
});

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  alertChannel = (await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...alice(), body: { name: 'mod-log' } })).body.id;
  gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: INTENTS | MESSAGE_CONTENT });
  await gw.dispatch('GUILD_CREATE');
});

after(async () => {
  gw?.close();
  await t?.close();
});

beforeEach(async () => {
  for (const r of (await t.api(url(), bot())).body ?? []) await t.api(url(`/${r.id}`), { method: 'DELETE', ...bot() });
});

test('rules of every trigger type, each with its trigger metadata shape; rules start disabled', async () => {
  const kw = await createRule(keyword({ enabled: undefined, trigger_metadata: { keyword_filter: ['a*'], regex_patterns: ['b+c'], allow_list: ['ab'] } }));
  assert.equal(kw.status, 200, kw.text);
  assert.equal(kw.body.enabled, false, 'enabled defaults to false');
  assert.deepEqual(kw.body.trigger_metadata, { keyword_filter: ['a*'], regex_patterns: ['b+c'], allow_list: ['ab'] });
  assert.deepEqual(kw.body.actions, [{ type: 1, metadata: { custom_message: 'Not here' } }]);
  assert.equal(kw.body.creator_id, t.world.botUserId);
  assert.equal(kw.body.guild_id, g());
  const spam = await createRule({ name: 'spam', event_type: 1, trigger_type: 3, actions: [{ type: 1 }, { type: 2, metadata: { channel_id: alertChannel } }] });
  assert.equal(spam.status, 200, spam.text);
  assert.deepEqual(spam.body.trigger_metadata, {});
  assert.deepEqual(spam.body.actions[0], { type: 1, metadata: {} });
  assert.deepEqual(spam.body.actions[1], { type: 2, metadata: { channel_id: alertChannel } });
  const preset = await createRule({
    name: 'presets',
    event_type: 1,
    trigger_type: 4,
    trigger_metadata: { presets: [1, 3], allow_list: ['scunthorpe'] },
    actions: [{ type: 1 }],
  });
  assert.deepEqual(preset.body.trigger_metadata, { allow_list: ['scunthorpe'], presets: [1, 3] });
  const mention = await createRule({
    name: 'mentions',
    event_type: 1,
    trigger_type: 5,
    trigger_metadata: { mention_total_limit: 5 },
    actions: [{ type: 3, metadata: { duration_seconds: 60 } }],
  });
  assert.deepEqual(mention.body.trigger_metadata, { mention_total_limit: 5, mention_raid_protection_enabled: false });
  assert.deepEqual(mention.body.actions, [{ type: 3, metadata: { duration_seconds: 60 } }]);
  const profile = await createRule({ name: 'names', event_type: 2, trigger_type: 6, trigger_metadata: { keyword_filter: ['admin'] }, actions: [{ type: 4 }] });
  assert.equal(profile.status, 200, profile.text);
  assert.deepEqual(profile.body.actions, [{ type: 4, metadata: {} }]);
  assert.equal(profile.body.event_type, 2);

  // One rule per type, six KEYWORD rules.
  for (const body of [spam, preset, mention, profile].map((r) => r.body)) {
    const again = await createRule({ ...body, name: 'again' });
    assert.equal(again.body.code, 50035, body.trigger_type);
    assert.equal(again.body.errors.trigger_type._errors[0].code, 'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED');
  }
  for (let i = 0; i < 5; i++) assert.equal((await createRule(keyword({ name: `k${i}` }))).status, 200);
  assert.equal((await createRule(keyword({ name: 'k7' }))).body.code, 50035);

  const list = await t.api(url(), bot());
  assert.equal(list.body.length, 10);
  assert.equal((await t.api(url(`/${profile.body.id}`), bot())).body.name, 'names');
  assert.equal((await t.api(url('/12345'), bot())).status, 404);
});

test('validation: event type per trigger, actions per trigger, metadata limits, referenced ids', async () => {
  const bad = async (body: unknown, path: string) => {
    const r = await createRule(body);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.code, 50035, r.text);
    assert.ok(JSON.stringify(r.body.errors).includes(path), `${path}: ${r.text}`);
  };
  await bad(keyword({ event_type: 2 }), 'event_type');
  await bad({ name: 'n', event_type: 2, trigger_type: 6, trigger_metadata: { keyword_filter: ['x'] }, actions: [{ type: 1 }] }, 'actions');
  await bad(
    { name: 'p', event_type: 1, trigger_type: 4, trigger_metadata: { presets: [1] }, actions: [{ type: 3, metadata: { duration_seconds: 5 } }] },
    'actions',
  );
  await bad(keyword({ actions: [{ type: 4 }] }), 'actions');
  await bad(keyword({ actions: [] }), 'actions');
  await bad(keyword({ actions: Array.from({ length: 6 }, () => ({ type: 1 })) }), 'actions');
  await bad(keyword({ actions: [{ type: 2, metadata: { channel_id: '12345' } }] }), 'channel_id');
  await bad(keyword({ actions: [{ type: 2, metadata: { channel_id: t.world.voiceChannelId } }] }), 'channel_id');
  await bad(keyword({ actions: [{ type: 3, metadata: {} }] }), 'duration_seconds');
  await bad(keyword({ actions: [{ type: 3, metadata: { duration_seconds: 2419201 } }] }), 'duration_seconds');
  await bad(keyword({ actions: [{ type: 1, metadata: { custom_message: 'x'.repeat(301) } }] }), 'custom_message');
  await bad(keyword({ trigger_metadata: { keyword_filter: ['x'.repeat(61)] } }), 'keyword_filter');
  await bad(keyword({ trigger_metadata: { keyword_filter: Array.from({ length: 1001 }, (_, i) => `w${i}`) } }), 'keyword_filter');
  await bad(keyword({ trigger_metadata: { regex_patterns: Array.from({ length: 11 }, () => 'a') } }), 'regex_patterns');
  await bad(keyword({ trigger_metadata: { regex_patterns: ['(unclosed'] } }), 'regex_patterns');
  await bad(keyword({ trigger_metadata: { allow_list: Array.from({ length: 101 }, (_, i) => `a${i}`) } }), 'allow_list');
  await bad({ name: 'p', event_type: 1, trigger_type: 4, trigger_metadata: {}, actions: [{ type: 1 }] }, 'presets');
  await bad({ name: 'm', event_type: 1, trigger_type: 5, trigger_metadata: { mention_total_limit: 51 }, actions: [{ type: 1 }] }, 'mention_total_limit');
  await bad({ name: 'm', event_type: 1, trigger_type: 5, trigger_metadata: {}, actions: [{ type: 1 }] }, 'mention_total_limit');
  await bad(keyword({ exempt_roles: ['12345'] }), 'exempt_roles');
  await bad(keyword({ exempt_roles: Array.from({ length: 21 }, () => g()) }), 'exempt_roles');
  await bad(keyword({ exempt_channels: ['12345'] }), 'exempt_channels');
  await bad(keyword({ trigger_type: 2 }), 'trigger_type');
  // A KEYWORD_PRESET allow list may hold 1000 entries.
  const big = await createRule({
    name: 'p',
    event_type: 1,
    trigger_type: 4,
    trigger_metadata: { presets: [1], allow_list: Array.from({ length: 1000 }, (_, i) => `w${i}`) },
    actions: [{ type: 1 }],
  });
  assert.equal(big.status, 200, big.text);
});

test('permissions: MANAGE_GUILD for everything, MODERATE_MEMBERS for TIMEOUT actions', async () => {
  assert.equal((await createRule(keyword(), bob())).body.code, 50013);
  assert.equal((await t.api(url(), bob())).body.code, 50013);
  const manager = await installBot(t, 'Guild Manager', P.VIEW_CHANNEL | P.MANAGE_GUILD);
  const as = { token: manager.token, bot: true };
  assert.equal((await createRule(keyword(), as)).status, 200);
  const timeout = await createRule(keyword({ name: 'to', actions: [{ type: 3, metadata: { duration_seconds: 60 } }] }), as);
  assert.equal(timeout.status, 403);
  assert.equal(timeout.body.code, 50013);
});

test('PATCH edits every field but the trigger type; events go to MANAGE_GUILD sessions only; entries 140-142', async () => {
  const blind = await installBot(t, 'Not a manager', P.VIEW_CHANNEL);
  const gBlind = await RawGateway.connect(t.server.url);
  await gBlind.identify(blind.token, { intents: INTENTS });
  await gBlind.dispatch('GUILD_CREATE');
  try {
    const r = (await createRule(keyword({ enabled: false }))).body;
    await gw.dispatch('AUTO_MODERATION_RULE_CREATE', (d) => d.id === r.id);
    const p = await t.api(url(`/${r.id}`), {
      method: 'PATCH',
      ...bot(),
      body: { name: 'No NFTs', enabled: true, trigger_type: 4, trigger_metadata: { keyword_filter: ['nft*'] }, exempt_channels: [alertChannel] },
    });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.body.name, 'No NFTs');
    assert.equal(p.body.enabled, true);
    assert.equal(p.body.trigger_type, 1, 'trigger_type is fixed');
    assert.deepEqual(p.body.trigger_metadata.keyword_filter, ['nft*']);
    assert.deepEqual(p.body.exempt_channels, [alertChannel]);
    assert.deepEqual(p.body.actions, r.actions, 'untouched fields stay');
    await gw.dispatch('AUTO_MODERATION_RULE_UPDATE', (d) => d.id === r.id && d.name === 'No NFTs');
    assert.equal((await t.api(url(`/${r.id}`), { method: 'PATCH', ...bot(), body: { event_type: 2 } })).body.code, 50035);
    assert.equal((await t.api(url(`/${r.id}`), { method: 'PATCH', ...bot(), body: { actions: [{ type: 4 }] } })).body.code, 50035);
    const audit = (await t.api(`/guilds/${g()}/audit-logs?target_id=${r.id}`, bot())).body;
    assert.deepEqual(
      audit.audit_log_entries.map((e: any) => e.action_type),
      [141, 140],
    );
    assert.ok(audit.auto_moderation_rules.some((x: any) => x.id === r.id));
    assert.deepEqual(
      audit.audit_log_entries[0].changes.find((c: any) => c.key === 'name'),
      { key: 'name', old_value: 'No crypto', new_value: 'No NFTs' },
    );
    assert.equal((await t.api(url(`/${r.id}`), { method: 'DELETE', ...bot() })).status, 204);
    await gw.dispatch('AUTO_MODERATION_RULE_DELETE', (d) => d.id === r.id);
    assert.equal((await t.api(`/guilds/${g()}/audit-logs?action_type=142&limit=1`, bot())).body.audit_log_entries[0].target_id, r.id);
    assert.ok(!gBlind.frames.some((f) => f.t?.startsWith('AUTO_MODERATION_RULE_')), 'no MANAGE_GUILD, no rule events');
  } finally {
    gBlind.close();
  }
});

test('KEYWORD rules block messages and edits (200000), run every action, and honour allow lists and exemptions', async () => {
  const rule = (
    await createRule(
      keyword({
        trigger_metadata: { keyword_filter: ['crypto*', 'nft'], allow_list: ['cryptography'] },
        actions: [{ type: 1 }, { type: 2, metadata: { channel_id: alertChannel } }],
      }),
    )
  ).body;
  // A session without MESSAGE_CONTENT gets the execution without content.
  const noContent = await RawGateway.connect(t.server.url);
  await noContent.identify(t.world.botToken, { intents: INTENTS });
  await noContent.dispatch('GUILD_CREATE');
  const blocked = await send('buy CRYPTOcoins now');
  assert.equal(blocked.status, 400, blocked.text);
  assert.equal(blocked.body.code, 200000);
  const exec = await gw.dispatch('AUTO_MODERATION_ACTION_EXECUTION', (d) => d.rule_id === rule.id && d.action.type === 1);
  assert.equal(exec.user_id, t.world.users[1].id);
  assert.equal(exec.channel_id, t.world.textChannelId);
  assert.equal(exec.matched_keyword, 'crypto*');
  assert.equal(exec.matched_content, 'CRYPTO');
  assert.equal(exec.content, 'buy CRYPTOcoins now');
  assert.equal(exec.rule_trigger_type, 1);
  const blank = await noContent.dispatch('AUTO_MODERATION_ACTION_EXECUTION', (d) => d.rule_id === rule.id && d.action.type === 1);
  assert.equal(blank.content, '');
  assert.equal(blank.matched_content, null);
  assert.equal(blank.matched_keyword, 'crypto*');
  noContent.close();
  const alert = await gw.dispatch('AUTO_MODERATION_ACTION_EXECUTION', (d) => d.rule_id === rule.id && d.action.type === 2);
  assert.ok(alert.alert_system_message_id);
  const notice = await t.api(`/channels/${alertChannel}/messages/${alert.alert_system_message_id}`, bot());
  assert.equal(notice.body.type, 24);
  assert.equal(notice.body.author.id, t.world.users[1].id);
  assert.ok(notice.body.embeds[0].fields.some((f: any) => f.name === 'rule_name' && f.value === 'No crypto'));
  const audit = (await t.api(`/guilds/${g()}/audit-logs?user_id=${t.world.users[1].id}&limit=5`, bot())).body.audit_log_entries;
  const e143 = audit.find((e: any) => e.action_type === 143);
  assert.deepEqual(e143.options, { channel_id: t.world.textChannelId, auto_moderation_rule_name: 'No crypto', auto_moderation_rule_trigger_type: '1' });
  assert.equal(e143.target_id, t.world.users[1].id);
  assert.ok(audit.some((e: any) => e.action_type === 144));

  assert.equal((await send('I study cryptography')).status, 200, 'allow list');
  assert.equal((await send('nftish is not a whole word')).status, 200, 'whole words without a wildcard');
  assert.equal((await send('an nft drop')).body.code, 200000);
  assert.equal((await send('crypto in the alert channel', bob(), alertChannel)).status, 400);
  await t.api(url(`/${rule.id}`), { method: 'PATCH', ...bot(), body: { exempt_channels: [alertChannel] } });
  assert.equal((await send('crypto in the alert channel', bob(), alertChannel)).status, 200, 'exempt channel');

  const ok = (await send('hello there')).body;
  const edit = await t.api(`/channels/${t.world.textChannelId}/messages/${ok.id}`, { method: 'PATCH', ...bob(), body: { content: 'hello crypto' } });
  assert.equal(edit.body.code, 200000, 'edits are checked too');

  const role = (await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...alice(), body: { name: 'Trusted' } })).body;
  await t.api(`/guilds/${g()}/members/${t.world.users[1].id}/roles/${role.id}`, { method: 'PUT', ...alice() });
  await t.api(url(`/${rule.id}`), { method: 'PATCH', ...bot(), body: { exempt_roles: [role.id] } });
  assert.equal((await send('crypto for the trusted')).status, 200, 'exempt role');
  await t.api(`/guilds/${g()}/members/${t.world.users[1].id}/roles/${role.id}`, { method: 'DELETE', ...alice() });
  await t.api(url(`/${rule.id}`), { method: 'PATCH', ...bot(), body: { enabled: false } });
  assert.equal((await send('crypto while disabled')).status, 200, 'disabled rules do nothing');
  // The function other services call keeps its contract.
  await t.api(url(`/${rule.id}`), { method: 'PATCH', ...bot(), body: { enabled: true, exempt_roles: [], exempt_channels: [] } });
  assert.equal(await automodBlocks(t.server.ctx, g(), 'nft', { channelId: t.world.textChannelId }), true);
  assert.equal(await automodBlocks(t.server.ctx, g(), 'nft', { channelId: t.world.textChannelId, roleIds: [] }), true);
  assert.equal(await automodBlocks(t.server.ctx, g(), 'fine', {}), false);
  assert.equal(await automodBlocks(t.server.ctx, null, 'nft'), false);
});

test('alert-only rules let the message through; TIMEOUT times the member out (entry 145)', async () => {
  await createRule(
    keyword({ name: 'Alert only', trigger_metadata: { keyword_filter: ['heads up'] }, actions: [{ type: 2, metadata: { channel_id: alertChannel } }] }),
  );
  const through = await send('heads up everyone');
  assert.equal(through.status, 200, through.text);
  await gw.dispatch('AUTO_MODERATION_ACTION_EXECUTION', (d) => d.action.type === 2 && d.content === 'heads up everyone');

  await createRule(
    keyword({ name: 'Cool down', trigger_metadata: { keyword_filter: ['rage'] }, actions: [{ type: 1 }, { type: 3, metadata: { duration_seconds: 600 } }] }),
  );
  assert.equal((await send('so much rage')).body.code, 200000);
  const member = await t.api(`/guilds/${g()}/members/${t.world.users[1].id}`, bot());
  assert.ok(member.body.communication_disabled_until, 'timed out');
  assert.ok(Date.parse(member.body.communication_disabled_until) > Date.now() + 500_000);
  const e145 = (await t.api(`/guilds/${g()}/audit-logs?action_type=145&limit=1`, bot())).body.audit_log_entries[0];
  assert.equal(e145.target_id, t.world.users[1].id);
  assert.equal(e145.options.auto_moderation_rule_name, 'Cool down');
  // Timed out: bob cannot send at all now.
  assert.equal((await send('hello?')).status, 403);
  await t.api(`/guilds/${g()}/members/${t.world.users[1].id}`, { method: 'PATCH', ...alice(), body: { communication_disabled_until: null } });
  // The owner is never timed out (the block still applies).
  assert.equal((await send('owner rage', alice())).body.code, 200000);
  assert.equal((await t.api(`/guilds/${g()}/members/${t.world.users[0].id}`, bot())).body.communication_disabled_until, null);
});

test('KEYWORD_PRESET, MENTION_SPAM and SPAM rules', async () => {
  await createRule({
    name: 'Profanity',
    event_type: 1,
    trigger_type: 4,
    trigger_metadata: { presets: [1], allow_list: ['shitake'] },
    actions: [{ type: 1 }],
    enabled: true,
  });
  assert.equal((await send('well shit')).body.code, 200000);
  assert.equal((await send('shitake mushrooms')).status, 200);
  await createRule({ name: 'Mentions', event_type: 1, trigger_type: 5, trigger_metadata: { mention_total_limit: 2 }, actions: [{ type: 1 }], enabled: true });
  const [a, b] = t.world.users.map((u) => u.id);
  assert.equal((await send(`<@${a}> <@!${b}>`)).status, 200, 'two unique mentions');
  assert.equal((await send(`<@${a}> <@${b}> <@&${g()}>`)).body.code, 200000);
  assert.equal((await send(`<@${a}> <@${a}> <@!${a}>`)).status, 200, 'duplicates count once');
  await createRule({ name: 'Spam', event_type: 1, trigger_type: 3, actions: [{ type: 1 }], enabled: true });
  assert.equal((await send(Array.from({ length: 5 }, (_, i) => `https://spam.example/${i}`).join(' '))).body.code, 200000);
  assert.equal((await send('a'.repeat(40))).body.code, 200000);
  assert.equal((await send('a normal message with https://one.example')).status, 200);
});

test('MEMBER_PROFILE rules quarantine matching names (member flag 128, entry 146)', async () => {
  await createRule({
    name: 'Impersonation',
    event_type: 2,
    trigger_type: 6,
    trigger_metadata: { keyword_filter: ['*moderator*'] },
    actions: [{ type: 4 }, { type: 2, metadata: { channel_id: alertChannel } }],
    enabled: true,
  });
  const bobId = t.world.users[1].id;
  const r = await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...bob(), body: { nick: 'Real Moderator' } });
  assert.equal(r.status, 200, r.text);
  const m = await t.api(`/guilds/${g()}/members/${bobId}`, bot());
  assert.equal(m.body.flags & 128, 128);
  const e146 = (await t.api(`/guilds/${g()}/audit-logs?action_type=146&limit=1`, bot())).body.audit_log_entries[0];
  assert.equal(e146.target_id, bobId);
  const exec = await gw.dispatch('AUTO_MODERATION_ACTION_EXECUTION', (d) => d.rule_trigger_type === 6 && d.action.type === 4);
  assert.equal(exec.matched_keyword, '*moderator*');
});

test('malformed rule bodies never give a 5xx', async () => {
  const fc = (await import('fast-check')).default;
  const garbage = fc.oneof(
    fc.anything(),
    fc.constantFrom(
      null,
      '',
      [],
      {},
      -1,
      1e300,
      '99999999999999999999999',
      [{ type: 2 }],
      [{ type: 3, metadata: null }],
      { presets: ['x'] },
      { keyword_filter: [null] },
    ),
  );
  const base = keyword();
  const fields = ['name', 'event_type', 'trigger_type', 'trigger_metadata', 'actions', 'enabled', 'exempt_roles', 'exempt_channels'];
  const r0 = (await createRule(keyword({ name: 'fuzz target' }))).body;
  await fc.assert(
    fc.asyncProperty(fc.subarray(fields, { minLength: 1 }), fc.array(garbage, { minLength: fields.length, maxLength: fields.length }), async (keys, values) => {
      const body: Record<string, unknown> = { ...base };
      keys.forEach((k, i) => {
        body[k] = values[i];
      });
      for (const [method, path] of [
        ['POST', url()],
        ['PATCH', url(`/${r0.id}`)],
      ] as const) {
        const r = await t.api(path, { method, ...bot(), body });
        assert.ok(r.status < 500, `${method} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
        if (method === 'POST' && r.status === 200) await t.api(url(`/${r.body.id}`), { method: 'DELETE', ...bot() });
      }
    }),
    { numRuns: 60 },
  );
});
