// engine-independent: the faults act on Gateway sessions in memory; storage only seeds the world
/**
 * Dev faults on one application's Gateway sessions: a close with a chosen code, op 7 RECONNECT, op 9 INVALID_SESSION,
 * and dispatches dropped or delayed. A raw client with no reconnect logic is left closed or misses the event;
 * discord.js resumes (RESUMED, nothing missed) or identifies again. Another app's session is untouched throughout.
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
async function rawBot(token = t.world.botToken): Promise<{ gw: RawGateway; ready: any }> {
  const gw = await RawGateway.connect(t.server.url);
  const ready = await gw.identify(token, { intents: INTENTS });
  return { gw, ready };
}
/** The bystander app's session saw this message: a fault on the other app left it alone. */
const bystanderSees = (id: string) => bystander.dispatch('MESSAGE_CREATE', (d) => d.id === id);
/** The last seq a raw client received. */
const lastSeq = (gw: RawGateway) => Math.max(...gw.frames.filter((f) => typeof f.s === 'number').map((f) => f.s as number));

function newClient(): Client {
  return new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: `${t.server.url}/api` },
  });
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  other = await installBot(t, 'bystander', 2048n | 1024n);
  ({ gw: bystander } = await rawBot(other.token));
});
afterEach(() => clearFaults(t));
after(async () => {
  bystander?.close();
  await t?.close();
});

test('gateway.close 4000: a raw client is left closed; discord.js resumes and misses nothing', T, async () => {
  const client = newClient();
  const raw: { t: string; d: any }[] = [];
  client.on(Events.Raw, (p: any) => raw.push(p));
  try {
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
    const naive = await rawBot();
    const resumed = waitEvent(client, Events.ShardResume, () => true, 20_000);
    const answer = await addFault(t, { application_id: app(), kind: 'gateway.close', close_code: 4000 });
    assert.equal(answer.sessions, 2, "the raw session and discord.js's");
    assert.deepEqual([answer.kind, answer.close_code, answer.remaining, answer.expires_at], ['gateway.close', 4000, null, null]);
    assert.equal(await naive.gw.closed, 4000);
    const missed = await userPost('while away');
    await resumed;
    const after = await userPost('after the resume');
    await until(() => raw.some((p) => p.t === 'MESSAGE_CREATE' && p.d.id === after.id), 10_000, 'the message after the resume');
    assert.ok(
      raw.some((p) => p.t === 'MESSAGE_CREATE' && p.d.id === missed.id),
      'the message sent while away was replayed',
    );
    assert.equal(raw.filter((p) => p.t === 'READY').length, 1, 'resumed, not identified again');
    assert.ok(raw.some((p) => p.t === 'RESUMED'));
    await bystanderSees(after.id);
    assert.equal(bystander.ws.readyState, 1, "the other app's session is still open");
    assert.equal(naive.gw.frames.filter((f) => f.t === 'MESSAGE_CREATE').length, 0, 'the raw client got nothing after its close');
  } finally {
    await client.destroy();
  }
});

test('gateway.close 1006 drops the connection without a close frame; the session stays resumable', T, async () => {
  const { gw, ready } = await rawBot();
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.close', close_code: 1006 });
  assert.equal(answer.sessions, 1);
  assert.equal(await gw.closed, 1006);
  const missed = await userPost('missed during the drop');
  const again = await RawGateway.connect(t.server.url);
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: lastSeq(gw) });
  await again.dispatch('MESSAGE_CREATE', (d) => d.id === missed.id);
  await again.dispatch('RESUMED');
  again.close();
});

test('gateway.reconnect sends op 7; the client that reconnects and resumes keeps its session', T, async () => {
  const { gw, ready } = await rawBot();
  const answer = await addFault(t, { application_id: app(), kind: 'gateway.reconnect' });
  assert.equal(answer.sessions, 1);
  await gw.wait((f) => f.op === 7, 5000, 'op 7');
  gw.close(4900); // as clients do before reconnecting: not 1000, which would end the session
  await gw.closed;
  const again = await RawGateway.connect(t.server.url);
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: lastSeq(gw) });
  await again.dispatch('RESUMED');
  const next = await userPost('after op 7');
  await again.dispatch('MESSAGE_CREATE', (d) => d.id === next.id);
  again.close();

  // discord.js follows op 7 by resuming.
  const client = newClient();
  try {
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
    const resumed = waitEvent(client, Events.ShardResume, () => true, 20_000);
    await addFault(t, { application_id: app(), kind: 'gateway.reconnect' });
    await resumed;
  } finally {
    await client.destroy();
  }
});

test('gateway.invalid_session: resumable false ends the session (a Resume is refused); discord.js identifies again', T, async () => {
  const { gw, ready } = await rawBot();
  await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: false });
  const op9 = await gw.wait((f) => f.op === 9, 5000, 'op 9');
  assert.equal(op9.d, false);
  gw.close(4900);
  await gw.closed;
  const again = await RawGateway.connect(t.server.url);
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: lastSeq(gw) });
  const refused = await again.wait((f) => f.op === 9, 5000, 'op 9 for the resume');
  assert.equal(refused.d, false, 'the session cannot be resumed');
  again.close();

  const { gw: kept } = await rawBot();
  await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: true });
  assert.equal((await kept.wait((f) => f.op === 9, 5000, 'op 9')).d, true);
  kept.close();

  const client = newClient();
  try {
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
    const readies: string[] = [];
    client.on(Events.Raw, (p: any) => p.t === 'READY' && readies.push(p.d.session_id));
    await addFault(t, { application_id: app(), kind: 'gateway.invalid_session', resumable: false });
    await until(() => readies.length === 1, 20_000, 'a new READY');
    const seen = waitEvent<[Message]>(client, Events.MessageCreate, (m) => m.content === 'after op 9');
    await userPost('after op 9');
    await seen;
  } finally {
    await client.destroy();
  }
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
