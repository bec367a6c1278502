import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DesktopClient } from '../src/client.ts';
import { AutoApprovePrompter } from '../src/consent.ts';
import { encodeFrame } from '../src/transport/framing.ts';
import { RawIpc } from './helpers/raw-ipc.ts';
import { lastSeq, nextPresence, startDesktopWorld, watcher, type DesktopWorld } from './helpers/world.ts';

describe('IPC protocol against the local client', () => {
  let w: DesktopWorld;
  let sock: string;
  before(async () => {
    w = await startDesktopWorld({ websocket: false });
    sock = w.desktop.ipc!.path!;
  });
  after(async () => w?.close());

  it('answers PING with PONG echoing the payload, before and after the handshake', async () => {
    const c = await RawIpc.connect(sock);
    c.send(3, 'ping-uuid-1');
    assert.equal((await c.wait((f) => f.op === 4)).payload, 'ping-uuid-1');
    c.send(0, { v: '1', client_id: w.appId }); // v as a string is accepted too
    await c.wait((f) => f.payload?.evt === 'READY');
    c.send(3, { n: 2 });
    assert.deepEqual((await c.wait((f) => f.op === 4 && f.payload?.n === 2)).payload, { n: 2 });
    c.end();
  });

  it('READY: v 1, the platform hosts and the person', async () => {
    const c = await RawIpc.ready(sock, w.appId);
    const ready = c.frames.find((f) => f.payload?.evt === 'READY')!.payload;
    const host = new URL(w.t.server.url).host;
    assert.deepEqual(ready.data.config, { cdn_host: host, api_endpoint: `//${host}/api`, environment: 'production' });
    assert.equal(ready.data.v, 1);
    assert.equal(ready.data.user.id, w.alice.id);
    assert.equal(ready.data.user.bot, false);
    assert.equal(ready.nonce, null);
    assert.equal(ready.cmd, 'DISPATCH');
    c.end();
  });

  it('refuses a wrong version with CLOSE 4004 and an empty client id with CLOSE 4000', async () => {
    const a = await RawIpc.connect(sock);
    a.send(0, { v: 2, client_id: w.appId });
    assert.deepEqual((await a.wait((f) => f.op === 2)).payload, { code: 4004, message: 'Invalid Version' });
    await a.closed;
    const b = await RawIpc.connect(sock);
    b.send(0, { v: 1, client_id: '' });
    assert.deepEqual((await b.wait((f) => f.op === 2)).payload, { code: 4000, message: 'Invalid Client ID' });
    await b.closed;
  });

  it('handles a handshake split byte by byte and a handshake coalesced with a command', async () => {
    const a = await RawIpc.connect(sock);
    const bytes = encodeFrame(0, { v: 1, client_id: w.appId });
    for (const b of bytes) a.raw(Buffer.from([b]));
    await a.wait((f) => f.payload?.evt === 'READY');
    a.end();

    const b = await RawIpc.connect(sock);
    b.raw(Buffer.concat([encodeFrame(0, { v: 1, client_id: w.appId }), encodeFrame(1, { cmd: 'GET_GUILDS', args: {}, nonce: 'x1' }), encodeFrame(3, 'p')]));
    await b.wait((f) => f.payload?.evt === 'READY');
    assert.equal((await b.wait((f) => f.payload?.nonce === 'x1')).payload.data.code, 4006);
    await b.wait((f) => f.op === 4 && f.payload === 'p');
    b.end();
  });

  it('closes on an unknown opcode (1003) and on a frame before the handshake', async () => {
    const a = await RawIpc.connect(sock);
    a.raw(encodeFrame(7, {}));
    assert.equal((await a.wait((f) => f.op === 2)).payload.code, 1003);
    await a.closed;
    const b = await RawIpc.connect(sock);
    b.send(1, { cmd: 'GET_GUILDS', nonce: 'n' });
    assert.deepEqual((await b.wait((f) => f.op === 2)).payload, { code: 1003, message: 'Handshake required' });
    await b.closed;
  });

  it('answers errors with the real codes', async () => {
    const c = await RawIpc.ready(sock, w.appId);
    c.send(1, { cmd: 'GET_GUILDS', args: {} });
    const noNonce = await c.wait((f) => f.payload?.evt === 'ERROR' && f.payload?.cmd === 'GET_GUILDS');
    assert.deepEqual(noNonce.payload.data, { code: 4000, message: 'Payload requires a nonce' });
    assert.deepEqual((await c.command('FLY_TO_THE_MOON')).data, { code: 4002, message: 'Invalid command: FLY_TO_THE_MOON' });
    assert.deepEqual((await c.command('GET_GUILDS')).data, { code: 4006, message: 'Not authenticated or invalid scope' });
    assert.deepEqual((await c.command('SUBSCRIBE', {}, 'NOT_AN_EVENT')).data, { code: 4004, message: 'Invalid event: NOT_AN_EVENT' });
    assert.deepEqual((await c.command('SUBSCRIBE', {}, 'GUILD_STATUS')).data, { code: 4006, message: 'Not authenticated or invalid scope' });
    assert.deepEqual((await c.command('AUTHENTICATE', { access_token: 'not-a-token' })).data, { code: 4009, message: 'Invalid access token' });
    assert.deepEqual((await c.command('SET_ACTIVITY', { activity: { state: 'No pid' } })).data, { code: 4002, message: 'nonzero pid required' });
    assert.deepEqual((await c.command('SEND_ACTIVITY_JOIN_INVITE', { user_id: w.bob.id })).data.code, 5006);
    // Both names of the Ask to Join dismissal are answered.
    const closeDoc = await c.command('CLOSE_ACTIVITY_REQUEST', { user_id: w.bob.id });
    const closeLib = await c.command('CLOSE_ACTIVITY_JOIN_REQUEST', { user_id: w.bob.id });
    assert.deepEqual([closeDoc.evt, closeDoc.data, closeLib.evt, closeLib.data], [null, null, null, null]);
    // A FRAME whose body is not JSON is an error on that connection only; the connection goes on.
    const head = Buffer.alloc(8);
    head.writeUInt32LE(1, 0);
    head.writeUInt32LE(5, 4);
    c.raw(Buffer.concat([head, Buffer.from('{oops')]));
    assert.equal((await c.wait((f) => f.payload?.data?.message === 'Invalid payload: not JSON')).payload.evt, 'ERROR');
    c.send(3, 'still-here');
    await c.wait((f) => f.op === 4 && f.payload === 'still-here');
    c.end();
  });

  it('scopes: rpc opens guild reads, messages need messages.read, GUILD_STATUS needs a known guild', async () => {
    const c = await RawIpc.ready(sock, w.appId);
    const token = await accessToken(w, ['rpc', 'identify']);
    const auth = await c.command('AUTHENTICATE', { access_token: token });
    assert.equal(auth.evt, null, JSON.stringify(auth));
    assert.deepEqual(auth.data.scopes, ['rpc', 'identify']);
    assert.equal(auth.data.application.id, w.appId);
    assert.equal(auth.data.user.id, w.alice.id);
    const guild = await c.command('GET_GUILD', { guild_id: w.t.world.guildId });
    assert.deepEqual(guild.data, { id: w.t.world.guildId, name: 'Accord Dev', icon_url: null, members: [], vanity_url_code: null });
    assert.deepEqual((await c.command('GET_GUILD', { guild_id: '1' })).data, { code: 4003, message: 'Invalid guild id: 1' });
    assert.deepEqual((await c.command('GET_GUILD', {})).data, { code: 4000, message: 'child "guild_id" fails because ["guild_id" is required]' });
    const channel = await c.command('GET_CHANNEL', { channel_id: w.t.world.voiceChannelId });
    assert.equal(channel.data.type, 2);
    assert.deepEqual(channel.data.messages, []);
    assert.deepEqual((await c.command('GET_CHANNEL', { channel_id: '5' })).data, { code: 4005, message: 'Invalid channel id: 5' });
    assert.deepEqual((await c.command('SUBSCRIBE', { guild_id: '77' }, 'GUILD_STATUS')).data, { code: 4003, message: 'Invalid guild id: 77' });
    const msg = await c.command('SUBSCRIBE', { channel_id: w.t.world.textChannelId }, 'MESSAGE_CREATE');
    assert.deepEqual(msg.data, { code: 4005, message: `Invalid channel id: ${w.t.world.textChannelId}` });
    const unsub = await c.command('UNSUBSCRIBE', {}, 'GUILD_CREATE');
    assert.deepEqual([unsub.evt, unsub.data], ['GUILD_CREATE', { evt: 'GUILD_CREATE' }]);
    c.end();
  });

  it('SELECT_VOICE_CHANNEL joins through the Gateway session; another channel needs force (5003); VOICE_STATE_CREATE', async () => {
    const c = await RawIpc.ready(sock, w.appId);
    await c.command('AUTHENTICATE', { access_token: await accessToken(w, ['rpc']) });
    const sub = await c.command('SUBSCRIBE', { channel_id: w.t.world.voiceChannelId }, 'VOICE_STATE_CREATE');
    assert.equal(sub.evt, 'VOICE_STATE_CREATE', JSON.stringify(sub));
    const joined = await c.command('SELECT_VOICE_CHANNEL', { channel_id: w.t.world.voiceChannelId });
    assert.equal(joined.data.id, w.t.world.voiceChannelId, JSON.stringify(joined));
    assert.ok(joined.data.voice_states.some((v: any) => v.user.id === w.alice.id));
    const created = await c.wait((f) => f.payload?.evt === 'VOICE_STATE_CREATE' && f.payload.cmd === 'DISPATCH');
    assert.equal(created.payload.data.user.id, w.alice.id);
    const selected = await c.command('GET_SELECTED_VOICE_CHANNEL');
    assert.equal(selected.data.id, w.t.world.voiceChannelId);
    const text = await c.command('SELECT_VOICE_CHANNEL', { channel_id: w.t.world.textChannelId, force: true });
    assert.deepEqual(text.data, { code: 4005, message: 'Channel is not a voice channel' });
    const other = await w.t.api(`/guilds/${w.t.world.guildId}/channels`, { method: 'POST', token: w.alice.token, body: { name: 'Lounge', type: 2 } });
    assert.deepEqual((await c.command('SELECT_VOICE_CHANNEL', { channel_id: other.body.id })).data, {
      code: 5003,
      message: 'User is already joined to a voice channel.',
    });
    assert.equal((await c.command('SELECT_VOICE_CHANNEL', { channel_id: null })).data, null);
    c.end();
  });

  it('several apps at once: each app keeps its own activity; one app leaving keeps the other', async () => {
    const second = await w.t.api('/applications', { method: 'POST', token: w.alice.token, body: { name: 'Second Game' } });
    const bob = await watcher(w);
    const a = await RawIpc.ready(sock, w.appId);
    const b = await RawIpc.ready(sock, second.body.id);
    let seq = lastSeq(bob);
    const both = nextPresence(bob, w.alice.id, (d) => d.activities?.length === 2, seq);
    assert.equal((await a.command('SET_ACTIVITY', { pid: 11, activity: { state: 'Game one' } })).data.state, 'Game one');
    assert.equal((await b.command('SET_ACTIVITY', { pid: 12, activity: { state: 'Game two', type: 2 } })).data.name, 'Second Game');
    const d = await both;
    assert.deepEqual(
      d.activities.map((x: any) => [x.name, x.state, x.type]),
      [
        ['Dev Bot', 'Game one', 0],
        ['Second Game', 'Game two', 2],
      ],
    );
    seq = lastSeq(bob);
    const one = nextPresence(bob, w.alice.id, (x) => x.activities?.length === 1, seq);
    a.end();
    assert.equal((await one).activities[0].name, 'Second Game');
    b.end();
    bob.close();
  });

  it('Ask to Join as far as the local client goes: join requests reach subscribed apps; both dismissal names clear them', async () => {
    const c = await RawIpc.ready(sock, w.appId);
    const sub = await c.command('SUBSCRIBE', {}, 'ACTIVITY_JOIN_REQUEST');
    assert.deepEqual([sub.evt, sub.data], ['ACTIVITY_JOIN_REQUEST', { evt: 'ACTIVITY_JOIN_REQUEST' }]);
    await c.command('SUBSCRIBE', {}, 'ACTIVITY_JOIN');
    const user = { id: w.bob.id, username: w.bob.username, discriminator: '0', avatar: null };
    assert.equal(w.desktop.core.activityEvent(w.appId, 'ACTIVITY_JOIN_REQUEST', { user }), 1);
    assert.deepEqual((await c.wait((f) => f.payload?.evt === 'ACTIVITY_JOIN_REQUEST' && f.payload.cmd === 'DISPATCH')).payload.data, { user });
    assert.ok(w.desktop.core.joinRequests.has(`${w.appId}:${w.bob.id}`));
    await c.command('CLOSE_ACTIVITY_JOIN_REQUEST', { user_id: w.bob.id });
    assert.equal(w.desktop.core.joinRequests.size, 0);
    w.desktop.core.activityEvent(w.appId, 'ACTIVITY_JOIN', { secret: 'join-secret-1' });
    assert.deepEqual((await c.wait((f) => f.payload?.evt === 'ACTIVITY_JOIN' && f.payload.cmd === 'DISPATCH')).payload.data, { secret: 'join-secret-1' });
    // Accepting needs an activity with a party and a join secret and a real user; the invite reaches the other person.
    await c.command('SET_ACTIVITY', { pid: 3, activity: { state: 'In a party', party: { id: 'party-9', size: [1, 4] }, secrets: { join: 'secret-9' } } });
    assert.deepEqual((await c.command('SEND_ACTIVITY_JOIN_INVITE', { user_id: '1' })).data, { code: 4010, message: 'Invalid user id: 1' });
    const bob = await watcher(w);
    const sent = await c.command('SEND_ACTIVITY_JOIN_INVITE', { user_id: w.bob.id });
    assert.deepEqual([sent.evt, sent.data], [null, null]);
    const invite = (await bob.wait((f) => f.t === 'MESSAGE_CREATE' && f.d.activity?.type === 1, 10_000)).d;
    assert.deepEqual(invite.activity, { type: 1, party_id: 'party-9' });
    assert.equal(invite.application.id, w.appId);
    assert.equal(invite.author.id, w.alice.id);
    bob.close();
    c.end();
  });

  it('keeps its Gateway session across a drop (RESUME) and presence still flows', async () => {
    const resumes = w.desktop.gateway.resumes;
    const resumed = new Promise((resolve) => w.desktop.gateway.once('ready', resolve));
    w.desktop.gateway.drop();
    assert.equal(await resumed, 'RESUMED');
    assert.equal(w.desktop.gateway.resumes, resumes + 1);
    const bob = await watcher(w);
    const c = await RawIpc.ready(sock, w.appId);
    const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.[0]?.state === 'After resume', lastSeq(bob));
    await c.command('SET_ACTIVITY', { pid: 1, activity: { state: 'After resume' } });
    await seen;
    c.end();
    bob.close();
  });
});

describe('claiming an IPC slot', () => {
  let w: DesktopWorld;
  before(async () => {
    w = await startDesktopWorld({ websocket: false });
  });
  after(async () => w?.close());

  const start = () => new DesktopClient({ server: w.t.server.url, token: w.bob.token, prompter: new AutoApprovePrompter(), websocket: false }).start();

  it('a live socket is never removed: the next client takes the next slot', async () => {
    assert.equal(path.basename(w.desktop.ipc!.path!), 'discord-ipc-0');
    const second = await start();
    try {
      assert.equal(path.basename(second.ipc!.path!), 'discord-ipc-1');
      // The first one still answers on slot 0.
      const c = await RawIpc.connect(w.desktop.ipc!.path!);
      c.send(3, 'alive');
      await c.wait((f) => f.op === 4);
      c.end();
    } finally {
      await second.stop();
    }
  });

  it('a stale socket file (its owner died) is removed and reused; a file that is not a socket is left alone', async () => {
    const dir = w.ipcDir;
    const slot1 = path.join(dir, 'discord-ipc-1');
    const slot2 = path.join(dir, 'discord-ipc-2');
    // A process that listens on slot 1 and is killed: its socket file stays behind, with nobody listening.
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(slot1)}, () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    assert.ok(fs.lstatSync(slot1).isSocket());
    await assert.rejects(new Promise((resolve, reject) => net.createConnection(slot1, () => resolve(null)).once('error', reject)));

    const second = await start();
    try {
      assert.equal(second.ipc!.path, slot1);
    } finally {
      await second.stop();
    }
    fs.writeFileSync(slot1, 'not a socket');
    const third = await start();
    try {
      assert.equal(third.ipc!.path, slot2);
      assert.equal(fs.readFileSync(slot1, 'utf8'), 'not a socket');
    } finally {
      await third.stop();
      fs.rmSync(slot1);
    }
  });
});

/** An access token of the app for alice with `scopes`, through the platform's own consent API and token endpoint. */
async function accessToken(w: DesktopWorld, scopes: string[]): Promise<string> {
  const consent = await w.t.api(`/oauth2/authorize?client_id=${w.appId}&response_type=code&scope=${encodeURIComponent(scopes.join(' '))}`, {
    method: 'POST',
    token: w.alice.token,
    body: { authorize: true },
  });
  assert.equal(consent.status, 200, consent.text);
  const code = new URL(consent.body.location).searchParams.get('code')!;
  const r = await fetch(`${w.t.server.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: w.appId, client_secret: w.clientSecret }),
  });
  const body: any = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.access_token;
}
