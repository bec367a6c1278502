import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { lastSeq, nextPresence, startDesktopWorld, waitEvent, watcher, type DesktopWorld, type RawGateway } from './helpers/world.ts';

const require = createRequire(import.meta.url);
const RPC = require('discord-rpc');

/** discord-rpc 4.0.1 (npm, discordjs/RPC) against the local client, over IPC and over the WebSocket transport. */
for (const transport of ['ipc', 'websocket'] as const) {
  describe(`discord-rpc over ${transport}`, () => {
    let w: DesktopWorld;
    let bob: RawGateway;
    let client: any;

    before(async () => {
      w = await startDesktopWorld();
      bob = await watcher(w);
      client = new RPC.Client({ transport });
      // The library hard-codes the platform's API host for the token exchange; point it at Accord.
      client.fetch.endpoint = `${w.t.server.url}/api`;
      await client.login({ clientId: w.appId });
    });
    after(async () => {
      await Promise.race([client?.destroy(), new Promise((r) => setTimeout(r, 1000))]).catch(() => {});
      bob?.close();
      await w?.close();
    });

    it('connects and gets READY with the logged-in person', () => {
      assert.equal(client.user.id, w.alice.id);
      assert.equal(client.user.username, w.alice.username);
    });

    it('SET_ACTIVITY with buttons and a party reaches another person as PRESENCE_UPDATE', async () => {
      const seq = lastSeq(bob);
      const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 1, seq);
      const echo = await client.setActivity({
        details: 'Ranked',
        state: 'In a group',
        startTimestamp: Math.floor(Date.now() / 1000),
        partyId: 'lobby-42',
        partySize: 3,
        partyMax: 4,
        instance: true,
        buttons: [{ label: 'Join the fun', url: 'https://example.com/join' }],
      });
      assert.equal(echo.application_id, w.appId);
      const a = (await seen).activities[0];
      assert.equal(a.type, 0); // discord-rpc sends no type: Playing
      assert.equal(a.name, 'Dev Bot');
      assert.equal(a.details, 'Ranked');
      assert.deepEqual(a.party, { id: 'lobby-42', size: [3, 4] });
      assert.deepEqual(a.buttons, ['Join the fun']);
      assert.deepEqual(a.metadata, { button_urls: ['https://example.com/join'] });
      assert.equal(a.flags, 1); // INSTANCE
      // Seconds were turned into milliseconds, as the platform's client does.
      assert.ok(a.timestamps.start > 1e12, String(a.timestamps.start));
    });

    it('clearing removes it', async () => {
      const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 0, lastSeq(bob));
      assert.equal(await client.clearActivity(), null);
      await seen;
    });

    it('AUTHORIZE and AUTHENTICATE, GET_GUILDS, GUILD_STATUS and MESSAGE_CREATE', async () => {
      await client.login({ clientId: w.appId, clientSecret: w.clientSecret, scopes: ['rpc', 'identify', 'messages.read'] });
      assert.equal(client.application.id, w.appId);
      assert.equal(client.user.id, w.alice.id);
      assert.equal(w.prompter.asked.at(-1)?.transport, transport);
      const { guilds } = await client.getGuilds();
      assert.deepEqual(
        guilds.map((g: any) => g.id),
        [w.t.world.guildId],
      );

      const status = waitEvent(client, 'GUILD_STATUS', (d: any) => 'guild' in d);
      await client.subscribe('GUILD_STATUS', { guild_id: w.t.world.guildId });
      assert.equal((await status)[0].guild.name, 'Accord Dev');

      await client.subscribe('MESSAGE_CREATE', { channel_id: w.t.world.textChannelId });
      const got = waitEvent(client, 'MESSAGE_CREATE', (d: any) => d.message?.content === `hello from bob (${transport})`);
      const sent = await w.t.api(`/channels/${w.t.world.textChannelId}/messages`, {
        method: 'POST',
        token: w.bob.token,
        body: { content: `hello from bob (${transport})` },
      });
      assert.equal(sent.status, 200, sent.text);
      const [d] = await got;
      assert.equal(d.channel_id, w.t.world.textChannelId);
      assert.equal(d.message.author.id, w.bob.id);
    });

    it('an invalid activity type is refused with 4000', async () => {
      await assert.rejects(client.request('SET_ACTIVITY', { pid: process.pid, activity: { type: 4, state: 'Custom' } }), (err: any) => {
        assert.equal(err.code, 4000);
        assert.match(err.message, /"type" must be one of \[0, 2, 3, 5\]/);
        return true;
      });
    });

    it('an unknown client_id is closed with 4000', async () => {
      const stranger = new RPC.Client({ transport });
      const closed = new Promise<any>((resolve) => stranger.transport.once('close', resolve));
      await assert.rejects(stranger.login({ clientId: '123456789012345678' }), /connection closed/);
      const reason = await closed;
      if (transport === 'ipc') assert.deepEqual(reason, { code: 4000, message: 'Invalid Client ID' });
      else assert.equal(reason.code, 4000);
    });
  });
}

describe('WebSocket transport details', () => {
  let w: DesktopWorld;
  before(async () => {
    w = await startDesktopWorld();
  });
  after(async () => w?.close());

  const open = (query: string, origin?: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${w.desktop.ws!.port}/${query}`, origin ? { origin } : {});
    const messages: any[] = [];
    ws.on('message', (m) => messages.push(JSON.parse(m.toString())));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    return { ws, messages, closed };
  };

  it('plain HTTP on the port answers 404 (discord-rpc probes for it)', async () => {
    const r = await fetch(`http://127.0.0.1:${w.desktop.ws!.port}/`);
    assert.equal(r.status, 404);
  });

  it('refuses a bad version (4004), an unknown app (4000) and a foreign encoding (4005)', async () => {
    assert.equal((await open(`?v=2&client_id=${w.appId}`).closed).code, 4004);
    assert.equal((await open('?v=1&client_id=42').closed).code, 4000);
    assert.equal((await open('?v=1').closed).code, 4000);
    assert.equal((await open(`?v=1&client_id=${w.appId}&encoding=etf`).closed).code, 4005);
  });

  it("checks the Origin against the app's rpc_origins (4001), and an allowed origin still needs AUTHENTICATE", async () => {
    const refused = open(`?v=1&client_id=${w.appId}`, 'https://evil.example');
    assert.deepEqual(await refused.closed, { code: 4001, reason: 'Invalid Origin' });

    // The developer lists the app's RPC origins (as in the portal).
    const patched = await w.t.api(`/applications/${w.appId}`, { method: 'PATCH', token: w.alice.token, body: { rpc_origins: ['https://game.example'] } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.rpc_origins, ['https://game.example']);
    // The local client remembers apps for a minute; a fresh one sees the new origins.
    (w.desktop.core as any).apps.clear();

    const c = open(`?v=1&client_id=${w.appId}&encoding=json`, 'https://game.example');
    await new Promise<void>((resolve) => c.ws.once('open', () => resolve()));
    await waitFor(() => c.messages.find((m) => m.evt === 'READY'));
    c.ws.send(JSON.stringify({ cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { state: 'Browsing' } }, nonce: 'n1' }));
    const err = await waitFor(() => c.messages.find((m) => m.nonce === 'n1'));
    assert.deepEqual(err, { cmd: 'SET_ACTIVITY', evt: 'ERROR', nonce: 'n1', data: { code: 4006, message: 'Not authenticated or invalid scope' } });
    c.ws.close();
  });
});

async function waitFor<T>(f: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
