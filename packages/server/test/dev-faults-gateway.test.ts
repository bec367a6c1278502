// engine-independent: the faults act on Gateway sessions in memory; storage only seeds the world
/**
 * Dev faults on one application's Gateway sessions, each shown with two halves under the same fault: a naive client
 * fails, a robust one passes.
 * - gateway.close (4000, 1006): a raw client with no reconnect logic is left closed and misses what follows; discord.js
 *   resumes (RESUMED, no second READY) and misses nothing.
 * - gateway.reconnect (op 7): a raw client that ignores op 7 gets nothing more and is closed; discord.js resumes.
 * - gateway.invalid_session: raw clients that ignore op 9 or answer it with a Resume get nothing; discord.js identifies
 *   again (a new READY) and gets the next message.
 * - gateway.dispatch drop: a discord.js bot that trusts messageCreate misses the message; one that reads the channel's
 *   history since the last message it handled finds it.
 * - gateway.dispatch delay: a discord.js bot that times answers by when their event arrives misses one; one that judges
 *   by the message's own timestamp, from history, counts it.
 * Another app's session is untouched throughout.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway, type Frame } from './helpers/gateway-client.js';
import { installBot } from './helpers/fixtures.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';
import { waitEvent, until, sleep } from './helpers/wait.js';

const T = { timeout: 30_000 };
/** GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_REACTIONS (message content is privileged: ids are enough here) */
const INTENTS = 1 | 512 | 1024;

let t: TestServer;
let other: { appId: string; userId: string; token: string };
let bystander: RawGateway;

const app = () => t.world.applicationId;
const alice = () => t.world.users[0];
async function userPost(content: string): Promise<{ id: string }> {
  const r = await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', token: alice().token, body: { content } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}
const raws: RawGateway[] = [];
/** A raw Gateway client (no reconnect logic at all), closed after the test. */
async function connect(): Promise<RawGateway> {
  const gw = await RawGateway.connect(t.server.url);
  raws.push(gw);
  return gw;
}
async function rawBot(token = t.world.botToken): Promise<{ gw: RawGateway; ready: any }> {
  const gw = await connect();
  const ready = await gw.identify(token, { intents: INTENTS });
  return { gw, ready };
}
/** The bystander app's session saw this message: a fault on the other app left it alone. */
const bystanderSees = (id: string) => bystander.dispatch('MESSAGE_CREATE', (d) => d.id === id);
/** The last seq a raw client received. */
const lastSeq = (gw: RawGateway) => Math.max(...gw.frames.filter((f) => typeof f.s === 'number').map((f) => f.s as number));

const clients: Client[] = [];
/** A discord.js bot logged in to the server, with every Gateway packet it received; destroyed after the test. */
async function discordBot(): Promise<{ client: Client; raw: Frame[] }> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: `${t.server.url}/api` },
  });
  clients.push(client);
  const raw: Frame[] = [];
  client.on(Events.Raw, (p: Frame) => raw.push(p));
  await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  return { client, raw };
}
/** Where the MESSAGE_CREATE of message `id` is among received packets (-1: not among them). */
const createIndex = (packets: readonly Frame[], id: string) => packets.findIndex((p) => p.t === 'MESSAGE_CREATE' && p.d.id === id);
const got = (packets: readonly Frame[], id: string) => createIndex(packets, id) >= 0;
const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1);

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  other = await installBot(t, 'bystander', 2048n | 1024n);
  bystander = await RawGateway.connect(t.server.url);
  await bystander.identify(other.token, { intents: INTENTS });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.destroy()));
  await Promise.all(
    raws.splice(0).map((gw) => {
      gw.close();
      return gw.closed;
    }),
  );
  await clearFaults(t);
});
after(async () => {
  bystander?.close();
  await t?.close();
});

test('gateway.close 4000: naive raw client is left closed and misses the next message; discord.js resumes and misses nothing', T, async () => {
  const { client, raw } = await discordBot();
  const naive = await rawBot();
  const resumed = waitEvent(client, Events.ShardResume, () => true, 20_000);
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.close', close_code: 4000 });
  assert.equal(answer.sessions, 2, "the raw session and discord.js's");
  assert.deepEqual([answer.kind, answer.close_code, answer.remaining, answer.expires_at], ['gateway.close', 4000, null, null]);
  assert.equal(await naive.gw.closed, 4000);
  const missed = await userPost('while away');
  await resumed;
  const later = await userPost('after the resume');
  await until(() => got(raw, later.id), 10_000, 'the message after the resume');
  assert.ok(got(raw, missed.id), 'the message sent while away was replayed');
  assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
  assert.ok(raw.some((p) => p.t === 'RESUMED'));
  await bystanderSees(later.id);
  assert.equal(bystander.ws.readyState, 1, "the other app's session is still open");
  assert.equal(naive.gw.frames.filter((f) => f.t === 'MESSAGE_CREATE').length, 0, 'the raw client got nothing after its close');
});

test('gateway.close 1006: naive raw client is left closed and misses the next message; discord.js resumes and gets it', T, async () => {
  const { client, raw } = await discordBot();
  const naive = await rawBot();
  const resumed = waitEvent(client, Events.ShardResume, () => true, 20_000);
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.close', close_code: 1006 });
  assert.equal(answer.sessions, 2);
  assert.equal(await naive.gw.closed, 1006, 'dropped with no close frame');
  const missed = await userPost('posted during the drop');
  await bystanderSees(missed.id);
  // Naive: nothing reopens its socket, so the message never reaches it.
  assert.equal(naive.gw.ws.readyState, naive.gw.ws.CLOSED);
  assert.ok(!got(naive.gw.frames, missed.id));
  // Robust: discord.js resumes the same session and gets the message, without a second READY.
  await resumed;
  await until(() => got(raw, missed.id), 10_000, 'the message posted during the drop');
  assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
  assert.ok(raw.some((p) => p.t === 'RESUMED'));
  // The naive client's session was kept too: resuming it by hand replays the message before RESUMED.
  const again = await connect();
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: naive.ready.session_id, seq: lastSeq(naive.gw) });
  await again.dispatch('RESUMED');
  const replayed = createIndex(again.frames, missed.id);
  assert.ok(replayed >= 0 && replayed < again.frames.findIndex((f) => f.t === 'RESUMED'), 'replayed with the resume');
});

test('gateway.reconnect: naive raw client ignoring op 7 gets nothing more and is closed; discord.js resumes and gets the next message', T, async () => {
  const { client, raw } = await discordBot();
  const naive = await rawBot();
  const resumed = waitEvent(client, Events.ShardResume, () => true, 20_000);
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.reconnect' });
  assert.equal(answer.sessions, 2);
  await naive.gw.wait((f) => f.op === 7, 5000, 'op 7');
  // Robust: discord.js closes, resumes, and gets a message posted after the resume; no second READY.
  await resumed;
  const next = await userPost('after op 7');
  await until(() => got(raw, next.id), 10_000, 'the message after the resume');
  assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
  // Naive: its socket carries nothing after op 7 (the platform is about to take it away), then it is closed.
  await bystanderSees(next.id);
  assert.ok(!got(naive.gw.frames, next.id), 'the naive client never got the message');
  assert.equal(await naive.gw.closed, 1012, 'closed by the server after the grace');
});

test('gateway.invalid_session: naive raw clients that ignore op 9 or resume get nothing; discord.js identifies again and gets the message', T, async () => {
  const { client, raw } = await discordBot();
  const ignores = await rawBot();
  const resumes = await rawBot();
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: false });
  assert.equal(answer.sessions, 3);
  assert.equal((await ignores.gw.wait((f) => f.op === 9, 5000, 'op 9')).d, false);
  assert.equal((await resumes.gw.wait((f) => f.op === 9, 5000, 'op 9')).d, false);
  // Naive (2): resumes anyway, on a new socket; the session is gone, so the Resume is refused.
  resumes.gw.close(4900);
  await resumes.gw.closed;
  const again = await connect();
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: resumes.ready.session_id, seq: lastSeq(resumes.gw) });
  assert.equal((await again.wait((f) => f.op === 9, 5000, 'op 9 for the resume')).d, false, 'the session cannot be resumed');
  // Robust: discord.js identifies again (a new session) and gets the next message.
  const readies = () => raw.filter((p) => p.t === 'READY').map((p) => p.d.session_id);
  await until(() => readies().length === 2, 20_000, 'a new READY');
  assert.notEqual(readies()[1], readies()[0], 'a new session');
  const seen = waitEvent<[Message]>(client, Events.MessageCreate, (m) => m.content === 'after op 9');
  const next = await userPost('after op 9');
  await seen;
  await bystanderSees(next.id);
  assert.ok(!got(ignores.gw.frames, next.id), 'the client that ignored op 9 got nothing');
  assert.ok(!got(again.frames, next.id), 'the client whose Resume was refused got nothing');

  // resumable: true is op 9 with d = true, and the session lives on.
  const { gw: kept } = await rawBot();
  await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: true });
  assert.equal((await kept.wait((f) => f.op === 9, 5000, 'op 9')).d, true);
});

test('gateway.dispatch drop: naive discord.js bot relying on messageCreate misses the message; one reconciling from history finds it', T, async () => {
  const { client, raw } = await discordBot();
  const inChannel = (m: Message) => m.channelId === t.world.textChannelId;
  // Naive: handles what messageCreate brings.
  const naive: string[] = [];
  client.on(Events.MessageCreate, (m) => inChannel(m) && naive.push(m.id));
  // Robust: on each message, first handles those posted since the last one it handled (history fills a lost event).
  const robust: string[] = [];
  let queue = Promise.resolve();
  const handle = (id: string) => {
    if (!robust.includes(id)) robust.push(id);
  };
  client.on(Events.MessageCreate, (m) => {
    if (!inChannel(m)) return;
    queue = queue.then(async () => {
      const last = robust.at(-1);
      if (last) for (const id of [...(await m.channel.messages.fetch({ after: last })).keys()].sort(byId)) handle(id);
      handle(m.id);
    });
  });

  const first = await userPost('before the fault');
  await until(() => robust.includes(first.id), 10_000, 'the first message');
  const rule = await addFault(t, { application_id: app(), kind: 'gateway.dispatch', drop: true, events: ['MESSAGE_CREATE'] });
  const lost = await userPost('lost');
  await bystanderSees(lost.id);
  assert.equal((await faultsApi(t, 'DELETE', `/${rule.id}`)).status, 204);
  const next = await userPost('next');
  await until(() => robust.includes(next.id), 10_000, 'the next message');
  assert.deepEqual(naive, [first.id, next.id], 'the naive bot never saw the dropped message');
  assert.deepEqual(robust, [first.id, lost.id, next.id], 'the robust bot found it in the history, in order');
  // Dropped, not a gap: the next dispatch took the next seq, so a seq-checking client sees nothing amiss.
  const seqOf = (id: string) => raw[createIndex(raw, id)].s!;
  assert.equal(seqOf(next.id), seqOf(first.id) + 1);
});

test('gateway.dispatch delay: naive discord.js bot timing answers by arrival misses one; one judging by timestamps counts it', T, async () => {
  const { client, raw } = await discordBot();
  const channel = (await client.channels.fetch(t.world.textChannelId)) as TextChannel;
  const WINDOW = 2000;
  await addFault(t, { application_id: app(), kind: 'gateway.dispatch', delay_ms: WINDOW + 1000, events: ['MESSAGE_CREATE'] });
  const fromAlice = (m: Message) => m.author.id === alice().id;
  const prompt = await channel.send('Quick: 6 × 7? You have 2 s.');
  // Naive: the discord.js guide's collector, which counts an answer only if its event arrives within the window.
  const naive = channel.awaitMessages({ filter: fromAlice, max: 1, time: WINDOW });
  // Robust: at the deadline, reads the answers posted in time (by their timestamp) from the channel's history.
  const robust = sleep(WINDOW)
    .then(() => channel.messages.fetch({ after: prompt.id }))
    .then((ms) => ms.filter((m) => fromAlice(m) && m.createdTimestamp <= prompt.createdTimestamp + WINDOW));
  const answer = await userPost('42');
  assert.equal((await naive).size, 0, 'the answer had not arrived when the window closed');
  assert.deepEqual([...(await robust).keys()], [answer.id]);
  // The event does come, later, after the prompt's own (order is kept). Raw packets: discord.js emits no messageCreate
  // for a message its cache already holds, and the robust bot's fetch put it there.
  await until(() => got(raw, answer.id), 10_000, 'the delayed answer');
  assert.ok(got(raw, prompt.id) && createIndex(raw, prompt.id) < createIndex(raw, answer.id));
});
