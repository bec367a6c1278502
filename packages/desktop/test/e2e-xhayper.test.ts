import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@xhayper/discord-rpc';
import { lastSeq, nextPresence, startDesktopWorld, waitEvent, watcher, type DesktopWorld, type RawGateway } from './helpers/world.ts';

/** @xhayper/discord-rpc 1.5.1 (npm) over IPC against the local client, logged into a real Accord server. */
describe('@xhayper/discord-rpc over IPC', () => {
  let w: DesktopWorld;
  let bob: RawGateway;
  let client: Client;

  before(async () => {
    w = await startDesktopWorld();
    bob = await watcher(w);
    client = new Client({ clientId: w.appId, clientSecret: w.clientSecret });
    // The library hard-codes the platform's REST host for the token exchange; point it at Accord.
    (client as any).rest.options.api = `${w.t.server.url}/api`;
    await client.login();
  });
  after(async () => {
    await client?.destroy().catch(() => {});
    bob?.close();
    await w?.close();
  });

  it('connects: READY carries the logged-in person and the platform hosts', () => {
    assert.equal(client.user?.id, w.alice.id);
    assert.equal(client.user?.username, w.alice.username);
    assert.equal((client as any).rest.options.cdn, new URL(w.t.server.url).host);
    assert.match(w.desktop.ipc!.path!, /discord-ipc-0$/);
  });

  it('SET_ACTIVITY with buttons and a party reaches another person as PRESENCE_UPDATE', async () => {
    const seq = lastSeq(bob);
    const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 1, seq);
    const start = Date.now();
    const echo: any = await client.user!.setActivity({
      details: 'Competitive',
      state: 'In a match',
      type: 0,
      startTimestamp: start,
      partyId: 'party-1234',
      partySize: 2,
      partyMax: 5,
      largeImageKey: 'numbani',
      largeImageText: 'Numbani',
      buttons: [
        { label: 'Watch', url: 'https://example.com/watch' },
        { label: 'Website', url: 'https://example.com' },
      ],
    });
    assert.equal(echo.application_id, w.appId);
    assert.equal(echo.name, 'Dev Bot');
    const d = await seen;
    const a = d.activities[0];
    assert.equal(d.status, 'online');
    assert.equal(a.name, 'Dev Bot');
    assert.equal(a.type, 0);
    assert.equal(a.application_id, w.appId);
    assert.equal(a.details, 'Competitive');
    assert.equal(a.state, 'In a match');
    assert.deepEqual(a.party, { id: 'party-1234', size: [2, 5] });
    assert.deepEqual(a.buttons, ['Watch', 'Website']);
    assert.deepEqual(a.metadata, { button_urls: ['https://example.com/watch', 'https://example.com'] });
    assert.deepEqual(a.timestamps, { start });
    assert.deepEqual(a.assets, { large_image: 'numbani', large_text: 'Numbani' });
  });

  it('clearing removes the activity for others', async () => {
    const seq = lastSeq(bob);
    const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 0, seq);
    await client.user!.clearActivity();
    await seen;
  });

  it('AUTHORIZE (consent asked) and AUTHENTICATE, then GET_GUILDS', async () => {
    await client.login({ scopes: ['rpc', 'identify', 'messages.read'] });
    assert.equal(w.prompter.asked.length, 1);
    assert.deepEqual(w.prompter.asked[0].scopes, ['rpc', 'identify', 'messages.read']);
    assert.equal(w.prompter.asked[0].application.id, w.appId);
    assert.equal(client.application?.id, w.appId);
    assert.equal(client.user?.id, w.alice.id);
    const guilds = await client.user!.fetchGuilds();
    assert.deepEqual(
      guilds.map((g) => [g.id, g.name, g.icon_url]),
      [[w.t.world.guildId, 'Accord Dev', null]],
    );
    const channels = await client.user!.fetchChannels(w.t.world.guildId);
    assert.ok(channels.some((c) => c.id === w.t.world.textChannelId));
  });

  it('SUBSCRIBE GUILD_STATUS sends the guild status', async () => {
    // The library also emits the SUBSCRIBE answer ({evt}) under the event's name: wait for the dispatch itself.
    const status = waitEvent(client, 'GUILD_STATUS', (d: any) => 'guild' in d);
    await client.subscribe('GUILD_STATUS', { guild_id: w.t.world.guildId });
    const [d] = await status;
    assert.deepEqual(d, { guild: { id: w.t.world.guildId, name: 'Accord Dev', icon_url: null }, online: 0 });
  });

  it('SUBSCRIBE MESSAGE_CREATE: a message bob sends arrives', async () => {
    await client.subscribe('MESSAGE_CREATE', { channel_id: w.t.world.textChannelId });
    const got = waitEvent(client, 'MESSAGE_CREATE', (d: any) => d.message?.content === 'gg, rematch?');
    const sent = await w.t.api(`/channels/${w.t.world.textChannelId}/messages`, { method: 'POST', token: w.bob.token, body: { content: 'gg, rematch?' } });
    assert.equal(sent.status, 200, sent.text);
    const [d] = await got;
    assert.equal(d.channel_id, w.t.world.textChannelId);
    assert.equal(d.message.id, sent.body.id);
    assert.equal(d.message.author.id, w.bob.id);
    // With messages.read, GET_CHANNEL carries the channel's recent messages, oldest first.
    const channel = await client.user!.fetchChannel(w.t.world.textChannelId);
    assert.equal(channel.messages?.at(-1)?.content, 'gg, rematch?');
    assert.equal(channel.guild_id, w.t.world.guildId);
  });

  it('an invalid activity type is refused with 4000 and the schema message', async () => {
    await assert.rejects(client.user!.setActivity({ type: 1 as any, details: 'Streaming' }), (err: any) => {
      assert.equal(err.code, 4000);
      assert.equal(err.message, 'child "activity" fails because [child "type" fails because ["type" must be one of [0, 2, 3, 5]]]');
      return true;
    });
  });

  it('an unknown client_id is closed with 4000', async () => {
    const stranger = new Client({ clientId: '123456789012345678' });
    const closed = new Promise<any>((resolve) => stranger.transport.once('close', resolve));
    await assert.rejects(stranger.login());
    const reason = await closed;
    assert.equal(reason.code, 4000);
    assert.equal(reason.message, 'Invalid Client ID');
  });

  it('an app that disconnects takes its activity with it', async () => {
    const other = new Client({ clientId: w.appId });
    await other.login();
    let seq = lastSeq(bob);
    const shown = nextPresence(bob, w.alice.id, (d) => d.activities?.some((a: any) => a.state === 'Leaving soon'), seq);
    await other.user!.setActivity({ state: 'Leaving soon', type: 3 });
    await shown;
    seq = lastSeq(bob);
    const cleared = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 0, seq);
    await other.destroy();
    await cleared;
  });
});
