import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import type { BusEvent } from '../src/bus/bus.js';
import { setClock } from './helpers/fixtures.js';
import { P } from '@accord/protocol';

/**
 * Channel obfuscation, each rule on both sides of its date (2026-11-16 by the server clock, moved through the dev API).
 */
let t: TestServer;
const events: BusEvent[] = [];
const alice = () => t.world.users[0];
const bob = () => t.world.users[1];
const asAlice = () => ({ token: alice().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const show = (r: { body: unknown }) => JSON.stringify(r.body);
const VIEW = String(P.VIEW_CHANNEL);
const CAPABILITY = 1 << 15;
const OBFUSCATED = 1 << 17;
const BEFORE = '2026-11-15T23:59:59.000Z';
const CUTOVER = '2026-11-16T00:00:00.000Z';
const gateways: RawGateway[] = [];

/** A channel the bot cannot view (a member overwrite denies it VIEW_CHANNEL). */
async function hiddenChannel(name: string, extra: Record<string, unknown> = {}, overwrites: unknown[] = []): Promise<any> {
  const r = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asAlice(),
    body: { name, topic: 'secret plans', ...extra, permission_overwrites: [{ id: t.world.botUserId, type: 1, deny: VIEW }, ...overwrites] },
  });
  assert.equal(r.status, 201, show(r));
  return r.body;
}

async function botGateway(capabilities?: number, token = t.world.botToken): Promise<{ gw: RawGateway; guild: any }> {
  const gw = await RawGateway.connect(t.server.url);
  gateways.push(gw);
  await gw.identify(token, { intents: 1, ...(capabilities === undefined ? {} : { capabilities }) });
  const guild = await gw.dispatch('GUILD_CREATE', (d) => d.id === g());
  return { gw, guild };
}

function assertObfuscated(c: any, guildId: string) {
  assert.equal(c.name, '___hidden___');
  assert.equal(c.flags & OBFUSCATED, OBFUSCATED, 'CHANNEL_OBFUSCATED');
  assert.deepEqual(
    c.permission_overwrites.map((o: any) => ({ id: o.id, type: o.type, allow: o.allow, deny: o.deny })),
    [{ id: guildId, type: 0, allow: '0', deny: VIEW }],
  );
  if ('topic' in c) assert.equal(c.topic, null);
  assert.equal(c.last_message_id ?? null, null);
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => {
  for (const gw of gateways) gw.close();
  await t.close();
});

test('channel obfuscation: bots lacking VIEW_CHANNEL see name "___hidden___", flag 1<<17, the single deny overwrite of @everyone, other sensitive fields nulled', async () => {
  await setClock(t, '2026-11-01T00:00:00.000Z');
  const secret = await hiddenChannel('secret-plans', { nsfw: true, rate_limit_per_user: 30 });
  await t.api(`/channels/${secret.id}/messages`, { method: 'POST', ...asAlice(), body: { content: 'x' } });
  const { gw, guild } = await botGateway(CAPABILITY);
  const c = guild.channels.find((x: any) => x.id === secret.id);
  assert.ok(c, 'the hidden channel is in GUILD_CREATE');
  assertObfuscated(c, g());
  assert.equal(c.type, 0);
  assert.equal(c.guild_id, g());
  assert.equal(c.position, secret.position);
  assert.equal(c.parent_id, secret.parent_id);
  assert.equal(c.nsfw, false);
  assert.equal(c.rate_limit_per_user, 0);
  // Visible channels are untouched.
  const general = guild.channels.find((x: any) => x.id === t.world.textChannelId);
  assert.equal(general.name, 'general');
  assert.equal(general.flags & OBFUSCATED, 0);

  // CHANNEL_CREATE and CHANNEL_UPDATE of a hidden channel go out obfuscated too.
  const made = await hiddenChannel('more-secrets');
  assertObfuscated(await gw.dispatch('CHANNEL_CREATE', (d) => d.id === made.id), g());
  await t.api(`/channels/${made.id}`, { method: 'PATCH', ...asAlice(), body: { topic: 'new secret' } });
  assertObfuscated(await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === made.id), g());
  // The HTTP API never obfuscates: before the cutover the bot lists it in full.
  const listed = (await t.api(`/guilds/${g()}/channels`, asBot())).body.find((x: any) => x.id === made.id);
  assert.equal(listed.name, 'more-secrets');
  assert.equal(listed.flags & OBFUSCATED, 0);
  gw.close();
});

test('channel obfuscation: GET /guilds/{id}/channels omits channels the bot cannot view from 2026-11-16 (server clock), both sides', async () => {
  const cat = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asAlice(),
    body: { name: 'locked-cat', type: 4, permission_overwrites: [{ id: t.world.botUserId, type: 1, deny: VIEW }] },
  });
  const open = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asAlice(),
    body: { name: 'open-child', parent_id: cat.body.id, permission_overwrites: [] },
  });
  const secret = await hiddenChannel('omitted-later');
  const ids = async () => new Set((await t.api(`/guilds/${g()}/channels`, asBot())).body.map((c: any) => c.id));

  await setClock(t, BEFORE);
  let seen = await ids();
  assert.ok(seen.has(secret.id), 'the day before: listed');
  assert.ok(seen.has(cat.body.id));

  await setClock(t, CUTOVER);
  seen = await ids();
  assert.ok(!seen.has(secret.id), 'from the cutover: omitted');
  assert.ok(seen.has(open.body.id));
  assert.ok(seen.has(cat.body.id), 'a category with a viewable channel stays');
  assert.ok(seen.has(t.world.textChannelId));
  // People keep what they can see (the owner sees everything).
  assert.ok((await t.api(`/guilds/${g()}/channels`, asAlice())).body.some((c: any) => c.id === secret.id));
});

test('channel obfuscation: opt-in through Identify capability 1<<15 or the app toggle before 2026-11-16, mandatory for bots from then', async () => {
  const secret = await hiddenChannel('opt-in-check');
  const has = (guild: any) => guild.channels.find((c: any) => c.id === secret.id);

  await setClock(t, BEFORE);
  // Without the capability: the old rule, the channel is not sent at all.
  let { gw, guild } = await botGateway();
  assert.equal(has(guild), undefined);
  gw.close();
  ({ gw, guild } = await botGateway(CAPABILITY));
  assertObfuscated(has(guild), g());
  gw.close();
  // The app-level toggle ("Private Channel Obfuscation") does the same without the capability.
  const on = await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', ...asAlice(), body: { private_channel_obfuscation: true } });
  assert.equal(on.status, 200, show(on));
  ({ gw, guild } = await botGateway());
  assertObfuscated(has(guild), g());
  gw.close();
  await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', ...asAlice(), body: { private_channel_obfuscation: false } });

  // From the cutover every bot gets it.
  await setClock(t, CUTOVER);
  ({ gw, guild } = await botGateway());
  assertObfuscated(has(guild), g());
  gw.close();
  // People never get obfuscated channels: bob cannot view it and does not receive it.
  await t.api(`/channels/${secret.id}/permissions/${bob().id}`, { method: 'PUT', ...asAlice(), body: { type: 1, deny: VIEW } });
  const human = await RawGateway.connect(t.server.url);
  gateways.push(human);
  await human.identify(bob().token, { capabilities: CAPABILITY });
  const hg = await human.dispatch('GUILD_CREATE', (d) => d.id === g());
  assert.equal(
    hg.channels.find((c: any) => c.id === secret.id),
    undefined,
  );
  human.close();
});

test('channel obfuscation: CHANNEL_UPDATE with full data when access is gained (overwrite change, role change), also for the parent category', async () => {
  await setClock(t, BEFORE);
  const cat = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asAlice(),
    body: { name: 'vault', type: 4, permission_overwrites: [{ id: t.world.botUserId, type: 1, deny: VIEW }] },
  });
  const child = await hiddenChannel('vault-room', { parent_id: cat.body.id });
  const role = (await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asAlice(), body: { name: 'insider', permissions: '0' } })).body;
  const byRole = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asAlice(),
    body: {
      name: 'insiders',
      permission_overwrites: [
        { id: g(), type: 0, deny: VIEW },
        { id: role.id, type: 0, allow: VIEW },
      ],
    },
  });
  const { gw, guild } = await botGateway(CAPABILITY);
  assertObfuscated(
    guild.channels.find((c: any) => c.id === cat.body.id),
    g(),
  );
  assertObfuscated(
    guild.channels.find((c: any) => c.id === child.id),
    g(),
  );
  assertObfuscated(
    guild.channels.find((c: any) => c.id === byRole.body.id),
    g(),
  );

  // Overwrite change: the channel's own CHANNEL_UPDATE carries full data, and the parent category follows.
  assert.equal(
    (await t.api(`/channels/${child.id}/permissions/${t.world.botUserId}`, { method: 'PUT', ...asAlice(), body: { type: 1, allow: VIEW } })).status,
    204,
  );
  const full = await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === child.id);
  assert.equal(full.name, 'vault-room');
  assert.equal(full.topic, 'secret plans');
  assert.equal(full.flags & OBFUSCATED, 0);
  const parent = await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === cat.body.id);
  assert.equal(parent.name, 'vault', 'the parent category, now viewable through its channel, in full');
  assert.equal(parent.flags & OBFUSCATED, 0);

  // Role change: the bot is given the role that may view the channel.
  assert.equal((await t.api(`/guilds/${g()}/members/${t.world.botUserId}/roles/${role.id}`, { method: 'PUT', ...asAlice() })).status, 204);
  const viaRole = await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === byRole.body.id);
  assert.equal(viaRole.name, 'insiders');
  assert.equal(viaRole.permission_overwrites.length, 2);
  // …and losing it again obfuscates the channel again.
  assert.equal((await t.api(`/guilds/${g()}/members/${t.world.botUserId}/roles/${role.id}`, { method: 'DELETE', ...asAlice() })).status, 204);
  assertObfuscated(await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === byRole.body.id && d.name === '___hidden___'), g());
  // A second role that may view the channel (an overwrite added for it, then the role given to the bot).
  const viewer = (await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asAlice(), body: { name: 'viewer', permissions: '0' } })).body;
  await t.api(`/channels/${byRole.body.id}/permissions/${viewer.id}`, { method: 'PUT', ...asAlice(), body: { type: 0, allow: VIEW } });
  await t.api(`/guilds/${g()}/members/${t.world.botUserId}/roles/${viewer.id}`, { method: 'PUT', ...asAlice() });
  await gw.dispatch('CHANNEL_UPDATE', (d) => d.id === byRole.body.id && d.name === 'insiders' && d.permission_overwrites.length === 3);
  gw.close();
});

test('channel obfuscation: interaction payloads are never obfuscated', async () => {
  await setClock(t, CUTOVER);
  const secret = await hiddenChannel('cmd-room');
  const put = await t.api(`/applications/${t.world.applicationId}/commands`, {
    method: 'PUT',
    ...asBot(),
    body: [{ name: 'where', description: 'a channel', options: [{ type: 7, name: 'ch', description: 'c' }] }],
  });
  assert.equal(put.status, 200, show(put));
  const cmd = put.body[0];
  const { gw } = await botGateway(CAPABILITY);
  const from = events.length;
  const r = await t.api('/interactions', {
    method: 'POST',
    ...asAlice(),
    body: {
      type: 2,
      application_id: t.world.applicationId,
      guild_id: g(),
      channel_id: secret.id,
      session_id: 's',
      nonce: '77',
      data: { id: cmd.id, name: 'where', type: 1, version: cmd.version, options: [{ type: 7, name: 'ch', value: secret.id }] },
    },
  });
  assert.equal(r.status, 204, show(r));
  await until(() => events.slice(from).find((e) => e.t === 'INTERACTION_CREATE' && e.d.token), 3000, 'the interaction');
  const i = await gw.dispatch('INTERACTION_CREATE', (d) => d.data?.name === 'where');
  assert.equal(i.channel.name, 'cmd-room');
  assert.equal((i.channel.flags ?? 0) & OBFUSCATED, 0);
  const resolved = i.data.resolved.channels[secret.id];
  assert.equal(resolved.name, 'cmd-room');
  assert.equal((resolved.flags ?? 0) & OBFUSCATED, 0);
  gw.close();
});
