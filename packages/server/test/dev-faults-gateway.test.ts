// engine-independent: the faults act on Gateway sessions in memory; storage only seeds the world
/**
 * Dev faults on one application's Gateway sessions, each shown with two halves under the same fault: a naive client
 * fails, a robust one passes.
 * - gateway.close (4000, 1006): a raw client with no reconnect logic is left closed and misses what follows; discord.js
 *   resumes (RESUMED, no second READY) and misses nothing.
 * - gateway.reconnect (op 7): a raw client that ignores op 7 gets nothing more and is closed; discord.js resumes.
 * - gateway.invalid_session: raw clients that ignore op 9 or answer it with a Resume get nothing; discord.js identifies
 *   again (a new READY) and gets the next message.
 * - gateway.dispatch: a dropped event never arrives (seqs stay contiguous); a delayed one arrives later, in order.
 * Another app's session is untouched throughout.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Events, GatewayIntentBits, type Message } from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { installBot } from './helpers/fixtures.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';
import { waitEvent, until } from './helpers/wait.js';

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

type Packet = { t: string | null; s: number | null; op: number; d: any };
const clients: Client[] = [];
/** A discord.js bot logged in to the server, with every Gateway packet it received; destroyed after the test. */
async function discordBot(): Promise<{ client: Client; raw: Packet[] }> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: `${t.server.url}/api` },
  });
  clients.push(client);
  const raw: Packet[] = [];
  client.on(Events.Raw, (p: Packet) => raw.push(p));
  await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  return { client, raw };
}
const gotMessage = (raw: Packet[], id: string) => raw.some((p) => p.t === 'MESSAGE_CREATE' && p.d.id === id);
const gotFrame = (gw: RawGateway, id: string) => gw.frames.some((f) => f.t === 'MESSAGE_CREATE' && f.d.id === id);

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
  await until(() => gotMessage(raw, later.id), 10_000, 'the message after the resume');
  assert.ok(gotMessage(raw, missed.id), 'the message sent while away was replayed');
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
  assert.ok(!gotFrame(naive.gw, missed.id));
  // Robust: discord.js resumes the same session and gets the message, without a second READY.
  await resumed;
  await until(() => gotMessage(raw, missed.id), 10_000, 'the message posted during the drop');
  assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
  assert.ok(raw.some((p) => p.t === 'RESUMED'));
  // The naive client's session was kept too: resuming it by hand replays the message before RESUMED.
  const again = await connect();
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: naive.ready.session_id, seq: lastSeq(naive.gw) });
  await again.dispatch('RESUMED');
  const replayed = again.frames.findIndex((f) => f.t === 'MESSAGE_CREATE' && f.d.id === missed.id);
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
  await until(() => gotMessage(raw, next.id), 10_000, 'the message after the resume');
  assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
  // Naive: its socket carries nothing after op 7 (the platform is about to take it away), then it is closed.
  await bystanderSees(next.id);
  assert.ok(!gotFrame(naive.gw, next.id), 'the naive client never got the message');
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
  assert.ok(!gotFrame(ignores.gw, next.id), 'the client that ignored op 9 got nothing');
  assert.ok(!gotFrame(again, next.id), 'the client whose Resume was refused got nothing');

  // resumable: true is op 9 with d = true, and the session lives on.
  const { gw: kept } = await rawBot();
  await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: true });
  assert.equal((await kept.wait((f) => f.op === 9, 5000, 'op 9')).d, true);
});

test('gateway.dispatch drop: the event never arrives and seqs stay contiguous; the other app gets it; deleting the rule restores', T, async () => {
  const { gw } = await rawBot();
  const rule = await addFault(t, { application_id: app(), kind: 'gateway.dispatch', drop: true, events: ['MESSAGE_CREATE'] });
  const before = lastSeq(gw);
  const lost = await userPost('lost');
  await bystanderSees(lost.id);
  const r = await t.api(`/channels/${t.world.textChannelId}/messages/${lost.id}/reactions/%F0%9F%91%8D/@me`, { method: 'PUT', token: alice().token });
  assert.equal(r.status, 204, r.text);
  const reaction = await gw.wait((f) => f.t === 'MESSAGE_REACTION_ADD' && f.d.message_id === lost.id, 5000, 'the reaction');
  assert.equal(reaction.s, before + 1, 'the next dispatch takes the next seq: no gap');
  assert.ok(!gw.frames.some((f) => f.t === 'MESSAGE_CREATE' && f.d.id === lost.id), 'the message was never dispatched to the bot');
  // A robust bot fills the hole from REST (the channel's history has it).
  const history = await t.api(`/channels/${t.world.textChannelId}/messages?limit=5`, { token: t.world.botToken, bot: true });
  assert.ok(history.body.some((m: any) => m.id === lost.id));

  assert.equal((await faultsApi(t, 'DELETE', `/${rule.id}`)).status, 204);
  const back = await userPost('back');
  await gw.dispatch('MESSAGE_CREATE', (d) => d.id === back.id);
  gw.close();
});

test('gateway.dispatch delay: held-back events keep their order and seqs; count ends the rule', T, async () => {
  const { gw } = await rawBot();
  await addFault(t, { application_id: app(), kind: 'gateway.dispatch', delay_ms: 300, events: ['MESSAGE_CREATE'], count: 1 });
  const before = lastSeq(gw);
  const first = await userPost('held back');
  const r = await t.api(`/channels/${t.world.textChannelId}/messages/${first.id}/reactions/%F0%9F%91%8D/@me`, { method: 'PUT', token: alice().token });
  assert.equal(r.status, 204);
  const reaction = await gw.wait((f) => f.t === 'MESSAGE_REACTION_ADD' && f.d.message_id === first.id, 5000, 'the reaction');
  const created = gw.frames.find((f) => f.t === 'MESSAGE_CREATE' && f.d.id === first.id);
  assert.ok(created, 'the delayed message came before the reaction behind it');
  assert.deepEqual([created.s, reaction.s], [before + 1, before + 2]);
  const second = await userPost('not held');
  await gw.dispatch('MESSAGE_CREATE', (d) => d.id === second.id);
  gw.close();
});
