import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import type { BusEvent } from '../src/bus/bus.js';
import { expectError, register, setClock } from './helpers/fixtures.js';
import { P } from '@accord/protocol';

/**
 * Guild extras of issue 4: templates, welcome screen, onboarding, widget, vanity URL, prune, voice regions, voice
 * channel status, user connections (with their dated rule), Modify Current Member, member banner, guild tags.
 */
let t: TestServer;
const events: BusEvent[] = [];
const owner = () => t.world.users[0];
const bob = () => t.world.users[1];
const asOwner = () => ({ token: owner().token });
const asBob = () => ({ token: bob().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const show = (r: { body: unknown }) => JSON.stringify(r.body);
const seen = (name: string) => events.filter((e) => e.t === name);

/** A role with these permissions, given to `userId`. */
async function grant(userId: string, perms: bigint, name = 'r'): Promise<string> {
  const role = await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asOwner(), body: { name, permissions: perms.toString() } });
  assert.equal(role.status, 200, show(role));
  assert.equal((await t.api(`/guilds/${g()}/members/${userId}/roles/${role.body.id}`, { method: 'PUT', ...asOwner() })).status, 204);
  return role.body.id;
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => {
  await t.close();
});

test('guild templates: create (one per guild), read by code, sync, edit, create a guild from it, delete', async () => {
  expectError(await t.api(`/guilds/${g()}/templates`, { method: 'POST', ...asBob(), body: { name: 'T' } }), 403, 50013);
  const made = await t.api(`/guilds/${g()}/templates`, { method: 'POST', ...asBot(), body: { name: 'Starter', description: 'base layout' } });
  assert.equal(made.status, 200, show(made));
  const tpl = made.body;
  assert.match(tpl.code, /^[A-Za-z0-9]{12}$/);
  assert.equal(tpl.source_guild_id, g());
  assert.equal(tpl.usage_count, 0);
  assert.equal(tpl.creator_id, t.world.botUserId);
  assert.equal(tpl.is_dirty, null);
  const snap = tpl.serialized_source_guild;
  assert.equal(snap.name, 'Accord Dev');
  assert.equal(snap.roles[0].id, 0, '@everyone is role 0');
  assert.equal(snap.roles[0].name, '@everyone');
  assert.ok(snap.channels.some((c: any) => c.name === 'general' && c.type === 0 && c.parent_id != null));
  expectError(await t.api(`/guilds/${g()}/templates`, { method: 'POST', ...asBot(), body: { name: 'Again' } }), 400, 30031);

  // Anyone may read a template by code, without a token.
  const pub = await t.api(`/guilds/templates/${tpl.code}`);
  assert.equal(pub.status, 200);
  assert.equal(pub.body.name, 'Starter');
  expectError(await t.api('/guilds/templates/nope0000nope'), 404, 10057);

  // A change makes it dirty; sync clears that.
  const ch = await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asBot(), body: { name: 'added-later' } });
  assert.equal(ch.status, 201);
  assert.equal((await t.api(`/guilds/${g()}/templates`, asBot())).body[0].is_dirty, true);
  const synced = await t.api(`/guilds/${g()}/templates/${tpl.code}`, { method: 'PUT', ...asBot() });
  assert.equal(synced.status, 200);
  assert.equal(synced.body.is_dirty, null);
  assert.ok(synced.body.serialized_source_guild.channels.some((c: any) => c.name === 'added-later'));

  const edited = await t.api(`/guilds/${g()}/templates/${tpl.code}`, { method: 'PATCH', ...asBot(), body: { name: 'Renamed', description: null } });
  assert.equal(edited.body.name, 'Renamed');
  assert.equal(edited.body.description, null);

  // People create guilds from a template; bots cannot.
  expectError(await t.api(`/guilds/templates/${tpl.code}`, { method: 'POST', ...asBot(), body: { name: 'From bot' } }), 403, 20001);
  const fromTpl = await t.api(`/guilds/templates/${tpl.code}`, { method: 'POST', ...asBob(), body: { name: 'From template' } });
  assert.equal(fromTpl.status, 201, show(fromTpl));
  assert.equal(fromTpl.body.owner_id, bob().id);
  const chans = await t.api(`/guilds/${fromTpl.body.id}/channels`, asBob());
  assert.ok(chans.body.some((c: any) => c.name === 'added-later'));
  const general = chans.body.find((c: any) => c.name === 'general');
  assert.ok(
    chans.body.some((c: any) => c.id === general.parent_id && c.type === 4),
    'parents are rebuilt',
  );
  assert.equal((await t.api(`/guilds/templates/${tpl.code}`)).body.usage_count, 1);

  const del = await t.api(`/guilds/${g()}/templates/${tpl.code}`, { method: 'DELETE', ...asBot() });
  assert.equal(del.status, 200);
  assert.equal(del.body.code, tpl.code);
  expectError(await t.api(`/guilds/templates/${tpl.code}`), 404, 10057);
});

test("welcome screen: MANAGE_GUILD to edit, members read it once enabled, channels must be the guild's", async () => {
  expectError(await t.api(`/guilds/${g()}/welcome-screen`, asBob()), 404, 10069);
  const bad = await t.api(`/guilds/${g()}/welcome-screen`, {
    method: 'PATCH',
    ...asBot(),
    body: { welcome_channels: [{ channel_id: '123', description: 'x' }] },
  });
  expectError(bad, 400, 50035);
  assert.equal(bad.body.errors.welcome_channels['0'].channel_id._errors[0].code, 'CHANNEL_INVALID');
  expectError(await t.api(`/guilds/${g()}/welcome-screen`, { method: 'PATCH', ...asBob(), body: { enabled: true } }), 403, 50013);
  const set = await t.api(`/guilds/${g()}/welcome-screen`, {
    method: 'PATCH',
    ...asBot(),
    body: { enabled: false, description: 'Hello', welcome_channels: [{ channel_id: t.world.textChannelId, description: 'Chat here', emoji_name: '👋' }] },
  });
  assert.equal(set.status, 200, show(set));
  assert.deepEqual(set.body, {
    description: 'Hello',
    welcome_channels: [{ channel_id: t.world.textChannelId, description: 'Chat here', emoji_id: null, emoji_name: '👋' }],
  });
  expectError(await t.api(`/guilds/${g()}/welcome-screen`, asBob()), 403, 50013);
  await t.api(`/guilds/${g()}/welcome-screen`, { method: 'PATCH', ...asBot(), body: { enabled: true } });
  const read = await t.api(`/guilds/${g()}/welcome-screen`, asBob());
  assert.equal(read.status, 200);
  assert.equal(read.body.description, 'Hello');
});

test('onboarding: read by members; PUT needs MANAGE_GUILD and MANAGE_ROLES; ids are checked and minted', async () => {
  const empty = await t.api(`/guilds/${g()}/onboarding`, asBob());
  assert.deepEqual(empty.body, { guild_id: g(), prompts: [], default_channel_ids: [], enabled: false, mode: 0 });
  const body = {
    prompts: [
      {
        id: '0',
        type: 0,
        title: 'What brings you here?',
        single_select: true,
        options: [{ id: '1', title: 'Chat', channel_ids: [t.world.textChannelId], role_ids: [] }],
      },
    ],
    default_channel_ids: [t.world.textChannelId],
    enabled: true,
    mode: 0,
  };
  expectError(await t.api(`/guilds/${g()}/onboarding`, { method: 'PUT', ...asBob(), body }), 403, 50013);
  const bad = await t.api(`/guilds/${g()}/onboarding`, { method: 'PUT', ...asBot(), body: { ...body, default_channel_ids: ['42'] } });
  expectError(bad, 400, 50035);
  const put = await t.api(`/guilds/${g()}/onboarding`, { method: 'PUT', ...asBot(), body });
  assert.equal(put.status, 200, show(put));
  assert.match(put.body.prompts[0].id, /^\d{17,20}$/, 'placeholder ids become snowflakes');
  assert.deepEqual(put.body.prompts[0].options[0].emoji, { id: null, name: null, animated: false });
  assert.equal(put.body.enabled, true);
  assert.equal(seen('GUILD_ONBOARDING_UPDATE').at(-1)?.guild_id, g());
  assert.deepEqual((await t.api(`/guilds/${g()}/onboarding`, asBob())).body, put.body);
});

test('widget: settings (MANAGE_GUILD), widget.json and widget.png only when enabled (50004), a drawn PNG', async () => {
  assert.deepEqual((await t.api(`/guilds/${g()}/widget`, asBot())).body, { enabled: false, channel_id: null });
  expectError(await t.api(`/guilds/${g()}/widget`, asBob()), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/widget.json`), 403, 50004);
  expectError(await t.api(`/guilds/${g()}/widget.png`), 403, 50004);
  const set = await t.api(`/guilds/${g()}/widget`, { method: 'PATCH', ...asBot(), body: { enabled: true, channel_id: t.world.textChannelId } });
  assert.deepEqual(set.body, { enabled: true, channel_id: t.world.textChannelId });
  const json = await t.api(`/guilds/${g()}/widget.json`);
  assert.equal(json.status, 200, show(json));
  assert.equal(json.body.id, g());
  assert.equal(json.body.name, 'Accord Dev');
  assert.match(json.body.instant_invite, /\/invite\/[A-Za-z0-9x]{8}$/);
  assert.ok(
    json.body.channels.some((c: any) => c.id === t.world.voiceChannelId),
    'voice channels @everyone can see',
  );
  assert.deepEqual(json.body.members, []);
  assert.equal(json.body.presence_count, 0);
  const png = await fetch(`${t.server.url}/api/v10/guilds/${g()}/widget.png`);
  assert.equal(png.status, 200);
  assert.equal(png.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await png.arrayBuffer());
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  assert.ok(bytes.readUInt32BE(16) > 100, 'the shield badge is drawn, not a 1x1 placeholder');
  assert.equal(bytes.readUInt32BE(20), 20, 'shield height');
});

test('vanity URL: read with MANAGE_GUILD; a set code resolves and joins like an invite', async () => {
  assert.deepEqual((await t.api(`/guilds/${g()}/vanity-url`, asBot())).body, { code: null, uses: 0 });
  expectError(await t.api(`/guilds/${g()}/vanity-url`, asBob()), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/vanity-url`, { method: 'PATCH', ...asOwner(), body: { code: 'Bad Code' } }), 400, 50035);
  const set = await t.api(`/guilds/${g()}/vanity-url`, { method: 'PATCH', ...asOwner(), body: { code: 'accord-dev' } });
  assert.deepEqual(set.body, { code: 'accord-dev', uses: 0 });
  const inv = await t.api('/invites/accord-dev');
  assert.equal(inv.status, 200, show(inv));
  assert.equal(inv.body.guild.id, g());
  const carol = await register(t, 'carol_vanity');
  const join = await t.api('/invites/accord-dev', { method: 'POST', token: carol.token });
  assert.equal(join.status, 200, show(join));
  assert.equal(join.body.new_member, true);
  assert.deepEqual((await t.api(`/guilds/${g()}/vanity-url`, asBot())).body, { code: 'accord-dev', uses: 1 });
});

test('prune: count and begin need MANAGE_GUILD and KICK_MEMBERS; inactive role-less members go', async () => {
  const kicker = await register(t, 'kicker_only');
  const dave = await register(t, 'dave_idle');
  const code = (await t.api(`/channels/${t.world.textChannelId}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0 } })).body.code;
  for (const u of [kicker, dave]) assert.equal((await t.api(`/invites/${code}`, { method: 'POST', token: u.token })).status, 200);
  await grant(kicker.id, P.KICK_MEMBERS, 'kick only');
  // KICK_MEMBERS alone is not enough; MANAGE_GUILD is needed too.
  expectError(await t.api(`/guilds/${g()}/prune?days=1`, { token: kicker.token }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/prune`, { method: 'POST', token: kicker.token, body: { days: 1 } }), 403, 50013);
  await grant(kicker.id, P.MANAGE_GUILD, 'manage only');
  // Fresh members are not pruned; two days later, the silent ones without roles are.
  assert.deepEqual((await t.api(`/guilds/${g()}/prune?days=1`, asBot())).body, { pruned: 0 });
  t.server.ctx.clock.advance(2 * 86400_000);
  assert.equal((await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', ...asBob(), body: { content: 'still here' } })).status, 200);
  const count = await t.api(`/guilds/${g()}/prune?days=1`, { token: kicker.token });
  assert.equal(count.status, 200, show(count));
  assert.ok(count.body.pruned >= 1);
  expectError(await t.api(`/guilds/${g()}/prune?days=31`, asBot()), 400, 50035);
  const done = await t.api(`/guilds/${g()}/prune`, { method: 'POST', ...asBot(), body: { days: 1 } });
  assert.equal(done.status, 200, show(done));
  assert.equal(done.body.pruned, count.body.pruned);
  const members = new Set((await t.api(`/guilds/${g()}/members?limit=100`, asBot())).body.map((m: any) => m.user.id));
  assert.ok(!members.has(dave.id), 'the idle member is pruned');
  assert.ok(members.has(bob().id), 'a member who posted stays');
  assert.ok(members.has(kicker.id), 'members with roles stay');
  const entries = await t.server.ctx.repos.store.db
    .selectFrom('audit_log_entries')
    .selectAll()
    .where('guild_id', '=', g())
    .where('action_type', '=', 21)
    .execute();
  assert.equal(entries.length, 1, 'MEMBER_PRUNE audit entry');
  assert.equal((await t.api(`/guilds/${g()}/prune`, { method: 'POST', ...asBot(), body: { days: 1, compute_prune_count: false } })).body.pruned, null);
});

test('voice regions: GET /voice/regions and GET /guilds/{id}/regions', async () => {
  const all = await t.api('/voice/regions', asBot());
  assert.equal(all.status, 200);
  assert.deepEqual(all.body, [{ id: 'local', name: 'Local', custom: false, deprecated: false, optimal: true }]);
  assert.deepEqual((await t.api(`/guilds/${g()}/regions`, asBot())).body, all.body);
  expectError(await t.api('/guilds/1/regions', asBot()), 404, 10004);
});

test('voice channel status: SET_VOICE_CHANNEL_STATUS, plus MANAGE_CHANNELS when not connected; ≤500; event, op 43, audit 192/193', async () => {
  const vc = t.world.voiceChannelId;
  const gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: 1 });
  await gw.dispatch('GUILD_CREATE');
  // bob has neither permission.
  expectError(await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...asBob(), body: { status: 'x' } }), 403, 50013);
  // With SET_VOICE_CHANNEL_STATUS only, a caller who is not connected is refused.
  const setter = await register(t, 'status_setter');
  const code = (await t.api(`/channels/${t.world.textChannelId}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0 } })).body.code;
  await t.api(`/invites/${code}`, { method: 'POST', token: setter.token });
  await grant(setter.id, P.SET_VOICE_CHANNEL_STATUS | P.CONNECT, 'status');
  expectError(await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', token: setter.token, body: { status: 'x' } }), 403, 50013);
  // Connected to the channel (main gateway op 4), SET_VOICE_CHANNEL_STATUS is enough.
  const voice = await RawGateway.connect(t.server.url);
  await voice.identify(setter.token);
  voice.send(4, { guild_id: g(), channel_id: vc, self_mute: false, self_deaf: false });
  await voice.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === setter.id && d.channel_id === vc);
  assert.equal((await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', token: setter.token, body: { status: 'connected' } })).status, 204);
  voice.send(4, { guild_id: g(), channel_id: null, self_mute: false, self_deaf: false });
  await voice.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === setter.id && d.channel_id === null);
  voice.close();
  expectError(await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', token: setter.token, body: { status: 'x' } }), 403, 50013);
  // Not connected, MANAGE_CHANNELS makes up for it.
  await grant(setter.id, P.MANAGE_CHANNELS, 'manage channels');
  assert.equal((await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', token: setter.token, body: { status: 'x' } })).status, 204);

  expectError(await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...asBot(), body: { status: 'x'.repeat(501) } }), 400, 50035);
  expectError(await t.api(`/channels/${t.world.textChannelId}/voice-status`, { method: 'PUT', ...asBot(), body: { status: 'x' } }), 400, 50024);
  assert.equal((await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...asBot(), body: { status: 'Playing chess' } })).status, 204);
  const ev = await gw.dispatch('VOICE_CHANNEL_STATUS_UPDATE', (d) => d.status === 'Playing chess');
  assert.deepEqual(ev, { id: vc, guild_id: g(), status: 'Playing chess' });
  gw.send(43, { guild_id: g(), fields: ['status'] });
  const info = await gw.dispatch('CHANNEL_INFO');
  assert.equal(info.channels.find((c: any) => c.id === vc).status, 'Playing chess');
  assert.equal((await t.api(`/channels/${vc}/voice-status`, { method: 'PUT', ...asBot(), body: { status: null } })).status, 204);
  await gw.dispatch('VOICE_CHANNEL_STATUS_UPDATE', (d) => d.status === null);
  gw.close();

  const entries = await t.server.ctx.repos.store.db
    .selectFrom('audit_log_entries')
    .selectAll()
    .where('guild_id', '=', g())
    .where('action_type', 'in', [192, 193])
    .orderBy('id')
    .execute();
  const bot = entries.filter((e) => String(e.user_id) === t.world.botUserId);
  assert.deepEqual(
    bot.map((e) => Number(e.action_type)),
    [192, 193],
  );
  assert.equal(JSON.parse(String(bot[0].options)).status, 'Playing chess');
});

test('connections: the list, and the Riot Games rule of 2026-07-10 on both sides of the date', async () => {
  const me = owner();
  const add = async (body: Record<string, unknown>) => {
    const r = await fetch(`${t.server.url}/__dev/users/${me.id}/connections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...devHeaders(t) },
      body: JSON.stringify(body),
    });
    assert.equal(r.status, 200, await r.clone().text());
    return (await r.json()) as Record<string, unknown>;
  };
  const list = async () => (await t.api('/users/@me/connections', asOwner())).body.map((c: any) => `${c.type}:${c.id}`).sort();
  const bad = await fetch(`${t.server.url}/__dev/users/${me.id}/connections`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ type: 'myspace', id: '1' }),
  });
  assert.equal(bad.status, 400);

  await setClock(t, '2026-07-01T00:00:00.000Z');
  const gh = await add({ type: 'github', id: 'gh1', name: 'octo' });
  assert.deepEqual(Object.keys(gh).sort(), [
    'friend_sync',
    'id',
    'integrations',
    'name',
    'revoked',
    'show_activity',
    'two_way_link',
    'type',
    'verified',
    'visibility',
  ]);
  await add({ type: 'riotgames', id: 'riot-legacy' });
  await add({ type: 'leagueoflegends', id: 'lol-legacy' });
  await setClock(t, '2026-07-08T00:00:00.000Z');
  await add({ type: 'riotgames', id: 'riot-new' }); // created after the 2026-07-07 announcement: never listed

  // The day before the cutover: legacy Riot Games and League of Legends connections are still listed.
  await setClock(t, '2026-07-09T23:59:59.000Z');
  assert.deepEqual(await list(), ['github:gh1', 'leagueoflegends:lol-legacy', 'riotgames:riot-legacy']);
  // From 2026-07-10 they are not.
  await setClock(t, '2026-07-10T00:00:00.000Z');
  assert.deepEqual(await list(), ['github:gh1']);
  await setClock(t, '2026-11-20T00:00:00.000Z');
  assert.deepEqual(await list(), ['github:gh1']);
  // Bots have no connections.
  assert.deepEqual((await t.api('/users/@me/connections', asBot())).body, []);
  await t.server.ctx.clock.set(Date.now());
});

test('Modify Current Member: bots set nick, avatar, banner and bio; the member carries banner', async () => {
  const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=';
  const r = await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...asBot(), body: { nick: 'Helper', avatar: png, banner: png, bio: 'I help' } });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.body.nick, 'Helper');
  assert.match(r.body.avatar, /^[0-9a-f]{32}$/);
  assert.match(r.body.banner, /^[0-9a-f]{32}$/);
  assert.equal(r.body.user.id, t.world.botUserId);
  const ev = seen('GUILD_MEMBER_UPDATE').at(-1)!;
  assert.equal(ev.d.banner, r.body.banner);
  const read = await t.api(`/guilds/${g()}/members/${t.world.botUserId}`, asBob());
  assert.equal(read.body.banner, r.body.banner, 'member banner on the wire');
  const row = await t.server.ctx.repos.store.db
    .selectFrom('members')
    .select('bio')
    .where('guild_id', '=', g())
    .where('user_id', '=', t.world.botUserId)
    .executeTakeFirst();
  assert.equal(row?.bio, 'I help');
  const cleared = await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...asBot(), body: { banner: null } });
  assert.equal(cleared.body.banner, null);
  assert.equal(cleared.body.nick, 'Helper');
  expectError(await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...asBot(), body: { bio: 'x'.repeat(191) } }), 400, 50035);
});

test('primary_guild: a guild tag of 1–4 characters that members adopt', async () => {
  expectError(await t.api(`/guilds/${g()}/profile`, { method: 'PATCH', ...asBot(), body: { tag: 'TOOLONG' } }), 400, 50035);
  expectError(await t.api(`/guilds/${g()}/profile`, { method: 'PATCH', ...asBob(), body: { tag: 'ACD' } }), 403, 50013);
  // No tag yet: nobody can adopt it.
  expectError(await t.api('/users/@me/clan', { method: 'PUT', ...asBob(), body: { identity_guild_id: g(), identity_enabled: true } }), 400, 50035);
  const set = await t.api(`/guilds/${g()}/profile`, { method: 'PATCH', ...asBot(), body: { tag: 'ACD' } });
  assert.equal(set.status, 200, show(set));
  assert.equal(set.body.tag, 'ACD');
  assert.ok((await t.api(`/guilds/${g()}`, asBob())).body.features.includes('GUILD_TAGS'));
  expectError(await t.api('/users/@me/clan', { method: 'PUT', ...asBot(), body: { identity_guild_id: g() } }), 403, 20001);
  const adopt = await t.api('/users/@me/clan', { method: 'PUT', ...asBob(), body: { identity_guild_id: g(), identity_enabled: true } });
  assert.equal(adopt.status, 200, show(adopt));
  assert.deepEqual(adopt.body, { identity_guild_id: g(), identity_enabled: true, tag: 'ACD', badge: 'default' });
  const seenBy = await t.api(`/users/${bob().id}`, asBot());
  assert.deepEqual(seenBy.body.primary_guild, adopt.body);
  // The guild renames its tag: adopters follow; four characters are fine, counted as characters.
  await t.api(`/guilds/${g()}/profile`, { method: 'PATCH', ...asBot(), body: { tag: 'ÄCDé' } });
  assert.equal((await t.api(`/users/${bob().id}`, asBot())).body.primary_guild.tag, 'ÄCDé');
  assert.equal((await t.api('/users/@me', asBob())).body.primary_guild.tag, 'ÄCDé');
  const drop = await t.api('/users/@me/clan', { method: 'PUT', ...asBob(), body: { identity_guild_id: null } });
  assert.equal(drop.body, null);
  assert.equal((await t.api(`/users/${bob().id}`, asBot())).body.primary_guild, null);
});
