/**
 * Apps installed to a guild with `applications.commands` only (no bot): the usual install of an HTTP-interactions
 * app. Their commands are in the guild's command index, people can invoke them, the app gets `authorizing_integration_owners`
 * and `app_permissions` for a guild install, and answers through the interaction webhook, all without its bot
 * ever joining the guild.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyKey } from 'discord-interactions';
import { P } from '@accord/protocol';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { expectError } from './helpers/fixtures.js';
import type { BusEvent } from '../src/bus/bus.js';

describe('commands-only installs', { timeout: 60_000 }, () => {
  let t: TestServer;
  const events: BusEvent[] = [];
  let appId: string;
  let botId: string;
  let botToken: string;
  let channelId: string;
  const alice = () => t.world.users[0];
  const bob = () => t.world.users[1];
  const guildId = () => t.world.guildId;

  before(async () => {
    t = await startTestServer();
    t.server.ctx.bus.subscribe((e) => events.push(e));
    const app = await t.api('/applications', { method: 'POST', token: alice().token, body: { name: 'Hooks Only' } });
    assert.equal(app.status, 200, app.text);
    appId = app.body.id;
    botToken = (await t.api(`/applications/${appId}/bot/reset`, { method: 'POST', token: alice().token })).body.token;
    botId = (await t.api('/users/@me', { token: botToken, bot: true })).body.id;
    // A channel whose @everyone overwrite takes EMBED_LINKS away: the app's permissions follow it.
    const ch = await t.api(`/guilds/${guildId()}/channels`, {
      method: 'POST',
      token: alice().token,
      body: { name: 'no-embeds', type: 0, permission_overwrites: [{ id: guildId(), type: 0, allow: '0', deny: String(P.EMBED_LINKS) }] },
    });
    assert.equal(ch.status, 201, ch.text);
    channelId = ch.body.id;
  });
  after(async () => {
    await t?.close();
  });

  /** Bob runs a chat command in the channel; resolves with the payload the app received. */
  async function invoke(cmd: { id: string; name: string }): Promise<any> {
    const from = events.length;
    const r = await t.api('/interactions', {
      method: 'POST',
      token: bob().token,
      body: { type: 2, application_id: appId, guild_id: guildId(), channel_id: channelId, session_id: 's1', data: { id: cmd.id, name: cmd.name, type: 1 } },
    });
    assert.equal(r.status, 204, r.text);
    return until(
      () => events.slice(from).find((e) => e.t === 'INTERACTION_CREATE' && e.user_ids?.includes(botId) && e.d.token)?.d,
      3000,
      "the app's interaction",
    );
  }

  test('a commands-only install: the index lists its commands, people invoke them, the app answers; the bot never joins', async () => {
    const install = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'applications.commands' })}`, {
      method: 'POST',
      token: alice().token,
      body: { authorize: true, guild_id: guildId() },
    });
    assert.equal(install.status, 200, install.text);
    expectError(await t.api(`/guilds/${guildId()}/members/${botId}`, { token: alice().token }), 404, 10007);

    const global = await t.api(`/applications/${appId}/commands`, {
      method: 'POST',
      token: botToken,
      bot: true,
      body: { name: 'hello', description: 'says hello', integration_types: [0], contexts: [0] },
    });
    assert.equal(global.status, 201, global.text);
    // Guild commands need the app installed in the guild, which a commands-only install is.
    const local = await t.api(`/applications/${appId}/guilds/${guildId()}/commands`, {
      method: 'POST',
      token: botToken,
      bot: true,
      body: { name: 'local', description: 'this guild only' },
    });
    assert.equal(local.status, 201, local.text);

    const index = await t.api(`/guilds/${guildId()}/application-command-index`, { token: bob().token });
    assert.equal(index.status, 200, index.text);
    assert.ok(
      index.body.applications.some((a: any) => a.id === appId),
      'the app is in the index',
    );
    assert.deepEqual(
      index.body.application_commands
        .filter((c: any) => c.application_id === appId)
        .map((c: any) => c.name)
        .sort(),
      ['hello', 'local'],
    );
    // The channel index of a guild channel is the guild's.
    const byChannel = await t.api(`/channels/${channelId}/application-command-index`, { token: bob().token });
    assert.deepEqual(
      byChannel.body.application_commands
        .filter((c: any) => c.application_id === appId)
        .map((c: any) => c.name)
        .sort(),
      ['hello', 'local'],
    );

    const i = await invoke(global.body);
    assert.deepEqual(i.authorizing_integration_owners, { '0': guildId() });
    // The app acts as the integration: @everyone's permissions with the channel's overwrites, not the user-app mask.
    const roles = (await t.api(`/guilds/${guildId()}/roles`, { token: alice().token })).body;
    const everyone = BigInt(roles.find((x: any) => x.id === guildId()).permissions);
    assert.equal(i.app_permissions, String(everyone & ~P.EMBED_LINKS));

    const cb = await t.api(`/interactions/${i.id}/${i.token}/callback`, { method: 'POST', body: { type: 4, data: { content: 'hello from the app' } } });
    assert.equal(cb.status, 204, cb.text);
    const original = await t.api(`/webhooks/${appId}/${i.token}/messages/@original`);
    assert.equal(original.status, 200, original.text);
    assert.equal(original.body.content, 'hello from the app');
    const followup = await t.api(`/webhooks/${appId}/${i.token}`, { method: 'POST', body: { content: 'and a follow-up' } });
    assert.equal(followup.status, 200, followup.text);
    assert.equal(followup.body.channel_id, channelId);

    // The guild command too.
    const i2 = await invoke(local.body);
    assert.deepEqual(i2.authorizing_integration_owners, { '0': guildId() });

    // Still no bot in the guild.
    expectError(await t.api(`/guilds/${guildId()}/members/${botId}`, { token: alice().token }), 404, 10007);
  });

  test('as an HTTP-interactions app: the command reaches its endpoint, signed, and the inline answer is posted', async () => {
    const me = await t.api('/applications/@me', { token: botToken, bot: true });
    const seen: any[] = [];
    const endpoint = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const ok = await verifyKey(raw, String(req.headers['x-signature-ed25519']), String(req.headers['x-signature-timestamp']), me.body.verify_key);
        if (!ok) return void res.writeHead(401).end();
        const body = JSON.parse(raw.toString());
        seen.push(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body.type === 1 ? { type: 1 } : { type: 4, data: { content: `sunny for ${body.member.user.username}` } }));
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`;
      const set = await t.api('/applications/@me', { method: 'PATCH', token: botToken, bot: true, body: { interactions_endpoint_url: url } });
      assert.equal(set.status, 200, set.text);
      const cmd = (await t.api(`/applications/${appId}/commands`, { token: botToken, bot: true })).body.find((c: any) => c.name === 'hello');
      const r = await t.api('/interactions', {
        method: 'POST',
        token: bob().token,
        body: { type: 2, application_id: appId, guild_id: guildId(), channel_id: channelId, session_id: 's1', data: { id: cmd.id, name: 'hello', type: 1 } },
      });
      assert.equal(r.status, 204, r.text);
      const posted = await until(
        async () => {
          const msgs = (await t.api(`/channels/${channelId}/messages?limit=5`, { token: bob().token })).body;
          return msgs.find((m: any) => m.content === `sunny for ${bob().username}`);
        },
        3000,
        'the inline answer',
        100,
      );
      assert.equal(posted.application_id, appId);
      assert.deepEqual(seen.find((b) => b.type === 2).authorizing_integration_owners, { '0': guildId() });
    } finally {
      await t.api('/applications/@me', { method: 'PATCH', token: botToken, bot: true, body: { interactions_endpoint_url: null } });
      await new Promise<void>((r) => endpoint.close(() => r()));
    }
  });

  test("the app's guild count includes commands-only installs", async () => {
    const count = async () => (await t.api(`/applications/${appId}`, { token: alice().token })).body.approximate_guild_count;
    assert.equal(await count(), 1);
    // Another guild, installed with the bot this time; then the bot leaves it and the commands stay.
    const other = await t.api('/guilds', { method: 'POST', token: alice().token, body: { name: 'Second' } });
    const withBot = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: appId, scope: 'bot applications.commands' })}`, {
      method: 'POST',
      token: alice().token,
      body: { authorize: true, guild_id: other.body.id, permissions: '0' },
    });
    assert.equal(withBot.status, 200, withBot.text);
    assert.equal(await count(), 2);
    const leave = await t.api(`/users/@me/guilds/${other.body.id}`, { method: 'DELETE', token: botToken, bot: true });
    assert.equal(leave.status, 204, leave.text);
    assert.equal(await count(), 2);
  });

  test('removing the integration takes its commands out of the index', async () => {
    const del = await t.api(`/guilds/${guildId()}/integrations/${appId}`, { method: 'DELETE', token: alice().token });
    assert.equal(del.status, 204, del.text);
    const index = await t.api(`/guilds/${guildId()}/application-command-index`, { token: bob().token });
    assert.equal(
      index.body.applications.some((a: any) => a.id === appId),
      false,
    );
    assert.equal(
      index.body.application_commands.some((c: any) => c.application_id === appId),
      false,
    );
  });
});
