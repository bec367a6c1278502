/**
 * Social SDK lobbies: create (app) and create-or-join by secret (players), read, edit, delete, members (add, update,
 * bulk, remove, leave), messages (≤ 200 most recent, members only, moderation metadata), channel linking with the
 * bridge to the guild channel and single-use invites, Gateway events to member sessions, webhook events to the app,
 * the idle timeout on the server clock and the 30-day secret.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { sleep, until } from './helpers/wait.js';
import { register } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';

const T = { timeout: 60_000 };

interface Player {
  id: string;
  token: string;
  bearer: string;
}

async function player(t: TestServer, name: string, appId = t.world.applicationId, scopes = ['lobbies.write']): Promise<Player> {
  const username = `${name}_${crypto.randomBytes(3).toString('hex')}`;
  const { token, user } = await register(t.server.ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` });
  const bearer = await issueToken(t.server.ctx, user.id, 'bearer', { applicationId: appId, scopes, expiresAt: t.server.ctx.clock.now() + 365 * 86400_000 });
  return { id: user.id, token, bearer: `Bearer ${bearer}` };
}

/** A bearer token for an existing user (the seeded ones). */
async function bearerFor(t: TestServer, userId: string, scopes = ['lobbies.write'], appId = t.world.applicationId): Promise<string> {
  return `Bearer ${await issueToken(t.server.ctx, userId, 'bearer', { applicationId: appId, scopes, expiresAt: t.server.ctx.clock.now() + 30 * 86400_000 })}`;
}

async function online(t: TestServer, token: string): Promise<RawGateway> {
  const gw = await RawGateway.connect(t.server.url);
  await gw.identify(token, { intents: 0 });
  return gw;
}

/** Waits for a dispatch received after `mark` (a count of frames taken before the action). */
function dispatchAfter(gw: RawGateway, mark: number, t: string, pred: (d: any) => boolean = () => true): Promise<any> {
  return gw.wait((f) => gw.frames.indexOf(f) >= mark && f.op === 0 && f.t === t && pred(f.d)).then((f) => f.d);
}

function expectError(res: { status: number; body: any; text: string }, status: number, code: number) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
}

describe('lobbies: the app side, players, messages, linked channels', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let alice: { id: string; token: string; bearer: string };
  let bob: { id: string; token: string; bearer: string };
  let carol: Player;
  let dave: Player;
  let gwAlice: RawGateway;
  let gwBob: RawGateway;
  let gwCarol: RawGateway;
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
  const as = (auth: string, path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: auth, body });

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    const [a, b] = t.world.users;
    alice = { id: a.id, token: a.token, bearer: await bearerFor(t, a.id, ['lobbies.write', 'guilds']) };
    bob = { id: b.id, token: b.token, bearer: await bearerFor(t, b.id) };
    carol = await player(t, 'carol');
    dave = await player(t, 'dave');
    [gwAlice, gwBob, gwCarol] = await Promise.all([online(t, alice.token), online(t, bob.token), online(t, carol.token)]);
    // The app takes the three lobby message webhook events.
    receiver = await WebhookReceiver.start();
    const me = await t.api(`/applications/${t.world.applicationId}`, { token: a.token });
    receiver.publicKey = me.body.verify_key;
    const r = await t.api(`/applications/${t.world.applicationId}`, {
      method: 'PATCH',
      token: a.token,
      body: {
        event_webhooks_url: receiver.url,
        event_webhooks_status: 2,
        event_webhooks_types: ['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE', 'LOBBY_MESSAGE_DELETE'],
      },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    for (const gw of [gwAlice, gwBob, gwCarol]) gw?.close();
    await receiver?.close();
    await t?.close();
  });

  let lobbyId = '';

  test('POST /lobbies makes a lobby with its members, who get LOBBY_CREATE', T, async () => {
    const r = await bot('/lobbies', 'POST', {
      members: [
        { id: alice.id, flags: 1, metadata: { team: 'red' } },
        { id: bob.id, additional_name: 'Bobby (in game)' },
      ],
      metadata: { mode: 'ranked' },
      idle_timeout_seconds: 3600,
    });
    assert.equal(r.status, 201, r.text);
    lobbyId = r.body.id;
    assert.equal(r.body.application_id, t.world.applicationId);
    assert.deepEqual(r.body.metadata, { mode: 'ranked' });
    assert.equal(r.body.flags, 0);
    assert.equal(r.body.linked_channel, undefined);
    assert.deepEqual(r.body.members, [
      { id: alice.id, metadata: { team: 'red' }, flags: 1 },
      { id: bob.id, metadata: null, flags: 0, additional_name: 'Bobby (in game)' },
    ]);
    const ev = await gwAlice.dispatch('LOBBY_CREATE', (d) => d.id === lobbyId);
    assert.equal(ev.members.length, 2);
    await gwBob.dispatch('LOBBY_CREATE', (d) => d.id === lobbyId);
    assert.equal((await bot(`/lobbies/${lobbyId}`)).body.id, lobbyId);
  });

  test('lobby requests are validated before anything is written', T, async () => {
    const count = async () =>
      Number(
        (
          await t.server.ctx.repos.store.db
            .selectFrom('lobbies')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const lobbiesBefore = await count();
    const bad = async (body: unknown, path: string[]) => {
      const r = await bot('/lobbies', 'POST', body);
      expectError(r, 400, 50035);
      let node = r.body.errors;
      for (const k of path) node = node?.[k];
      assert.ok(node?._errors?.length, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
    };
    await bad({ idle_timeout_seconds: 4 }, ['idle_timeout_seconds']);
    await bad({ idle_timeout_seconds: 604801 }, ['idle_timeout_seconds']);
    await bad({ members: Array.from({ length: 26 }, () => ({ id: alice.id })) }, ['members']);
    await bad({ metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])) }, ['metadata']);
    await bad({ metadata: { k: 'x'.repeat(1025) } }, ['metadata', 'k']);
    await bad({ flags: 2 }, ['flags']);
    await bad({ members: [{ id: alice.id, flags: 4 }] }, ['members', '0', 'flags']);
    await bad({ members: [{ id: alice.id, additional_name: 'x'.repeat(81) }] }, ['members', '0', 'additional_name']);
    await bad({ override_event_webhooks_url: 'not a url' }, ['override_event_webhooks_url']);
    expectError(await bot('/lobbies', 'POST', { members: [{ id: '123456789012345678' }] }), 404, 10013);
    // Who may call: the app's routes want its Bot token; players use Bearer tokens with lobbies.write.
    expectError(await as(alice.bearer, '/lobbies', 'POST', {}), 403, 20002);
    expectError(await as(alice.token, '/lobbies', 'PUT', { secret: 'x' }), 401, 0);
    expectError(await as(await bearerFor(t, alice.id, ['identify']), '/lobbies', 'PUT', { secret: 'x' }), 403, 50026);
    expectError(await as(carol.bearer, '/lobbies', 'PUT', { secret: 'x'.repeat(251) }), 400, 50035);
    expectError(await bot('/lobbies/123', 'GET'), 404, 10031);
    expectError(await bot('/lobbies/not-an-id', 'GET'), 404, 10031);
    assert.equal(await count(), lobbiesBefore, 'no lobby was made by a refused request');
  });

  test('PUT /lobbies creates a lobby for a secret, then joins it; secrets belong to one app', T, async () => {
    const secret = `s-${crypto.randomBytes(4).toString('hex')}`;
    const first = await as(carol.bearer, '/lobbies', 'PUT', { secret, lobby_metadata: { map: 'dust' }, member_metadata: { rank: 'gold' } });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.members, [{ id: carol.id, metadata: { rank: 'gold' }, flags: 0 }]);
    await gwCarol.dispatch('LOBBY_CREATE', (d) => d.id === first.body.id);
    const second = await as(dave.bearer, '/lobbies', 'PUT', { secret });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.id, first.body.id);
    assert.deepEqual(
      second.body.members.map((m: any) => m.id),
      [carol.id, dave.id],
    );
    const add = await gwCarol.dispatch('LOBBY_MEMBER_ADD', (d) => d.lobby_id === first.body.id);
    assert.deepEqual(add, { member: { id: dave.id, metadata: null, flags: 0 }, lobby_id: first.body.id, application_id: t.world.applicationId });
    // Joining again changes the member's metadata: LOBBY_MEMBER_UPDATE.
    const again = await as(dave.bearer, '/lobbies', 'PUT', { secret, member_metadata: { ready: '1' } });
    assert.equal(again.body.members.length, 2);
    await gwCarol.dispatch('LOBBY_MEMBER_UPDATE', (d) => d.member.id === dave.id && d.member.metadata?.ready === '1');
    // Another app's players with the same secret land in another lobby.
    const other = await t.api('/applications', { method: 'POST', token: alice.token, body: { name: 'Other Game' } });
    assert.equal(other.status, 200, other.text);
    const stranger = await player(t, 'erin', other.body.id);
    const elsewhere = await as(stranger.bearer, '/lobbies', 'PUT', { secret });
    assert.equal(elsewhere.status, 200, elsewhere.text);
    assert.notEqual(elsewhere.body.id, first.body.id);
    expectError(await as(stranger.bearer, `/lobbies/${first.body.id}`), 404, 10031);
    // A lobby made by POST /lobbies cannot be joined by secret: it has none.
    const viaPut = await as(dave.bearer, '/lobbies', 'PUT', { secret: lobbyId });
    assert.notEqual(viaPut.body.id, lobbyId);
  });

  test('GET /lobbies/{id}: the app and members; players outside get 50001', T, async () => {
    const r = await as(alice.bearer, `/lobbies/${lobbyId}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.override_event_webhooks_url, undefined);
    expectError(await as(carol.bearer, `/lobbies/${lobbyId}`), 403, 50001);
  });

  test('PATCH /lobbies/{id} edits fields and replaces the member list', T, async () => {
    // The override is used for this lobby's webhook events from now on: the same receiver on another path.
    const override = receiver.url.replace(/\/events$/, '/lobby-events');
    const r = await bot(`/lobbies/${lobbyId}`, 'PATCH', {
      metadata: { mode: 'casual' },
      override_event_webhooks_url: override,
      members: [{ id: alice.id }, { id: carol.id, metadata: { seat: '2' } }],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.metadata, { mode: 'casual' });
    assert.equal(r.body.override_event_webhooks_url, override);
    // Omitted member fields keep their values (alice keeps CAN_LINK_LOBBY and her metadata).
    assert.deepEqual(r.body.members, [
      { id: alice.id, metadata: { team: 'red' }, flags: 1 },
      { id: carol.id, metadata: { seat: '2' }, flags: 0 },
    ]);
    assert.deepEqual(await gwBob.dispatch('LOBBY_DELETE', (d) => d.id === lobbyId), { id: lobbyId, reason: 'removed' });
    await gwCarol.dispatch('LOBBY_CREATE', (d) => d.id === lobbyId);
    const upd = await gwAlice.dispatch('LOBBY_UPDATE', (d) => d.id === lobbyId && d.metadata?.mode === 'casual');
    assert.equal(upd.override_event_webhooks_url, undefined);
    await gwAlice.dispatch('LOBBY_MEMBER_REMOVE', (d) => d.lobby_id === lobbyId && d.member.id === bob.id);
    await gwAlice.dispatch('LOBBY_MEMBER_ADD', (d) => d.lobby_id === lobbyId && d.member.id === carol.id);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}`, 'PATCH', {}), 403, 20002);
  });

  test('members: PUT adds or updates, bulk adds, updates and removes up to 25, DELETE removes', T, async () => {
    const put = await bot(`/lobbies/${lobbyId}/members/${bob.id}`, 'PUT', { metadata: { back: 'yes' }, additional_name: 'Bobby' });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, { id: bob.id, metadata: { back: 'yes' }, flags: 0, additional_name: 'Bobby' });
    await gwBob.dispatch('LOBBY_CREATE', (d) => d.id === lobbyId && d.members.length === 3);
    const upd = await bot(`/lobbies/${lobbyId}/members/${bob.id}`, 'PUT', { flags: 1 });
    assert.deepEqual(upd.body, { id: bob.id, metadata: { back: 'yes' }, flags: 1, additional_name: 'Bobby' });
    await gwAlice.dispatch('LOBBY_MEMBER_UPDATE', (d) => d.member.id === bob.id && d.member.flags === 1);
    expectError(await bot(`/lobbies/${lobbyId}/members/123456789012345678`, 'PUT', {}), 404, 10013);

    const bulk = await bot(`/lobbies/${lobbyId}/members/bulk`, 'POST', [
      { id: dave.id, metadata: { via: 'bulk' } },
      { id: carol.id, remove_member: true },
      { id: bob.id, additional_name: null },
    ]);
    assert.equal(bulk.status, 200, bulk.text);
    assert.deepEqual(bulk.body, [
      { id: dave.id, metadata: { via: 'bulk' }, flags: 0 },
      { id: bob.id, metadata: { back: 'yes' }, flags: 1 },
    ]);
    await gwCarol.dispatch('LOBBY_DELETE', (d) => d.id === lobbyId && d.reason === 'removed');
    const members = (await bot(`/lobbies/${lobbyId}`)).body.members.map((m: any) => m.id).sort();
    assert.deepEqual(members, [alice.id, bob.id, dave.id].sort());
    expectError(
      await bot(
        `/lobbies/${lobbyId}/members/bulk`,
        'POST',
        Array.from({ length: 26 }, () => ({ id: dave.id })),
      ),
      400,
      50035,
    );
    expectError(await bot(`/lobbies/${lobbyId}/members/bulk`, 'POST', [{ id: dave.id }, { id: dave.id }]), 400, 50035);

    assert.equal((await bot(`/lobbies/${lobbyId}/members/${dave.id}`, 'DELETE')).status, 204);
    assert.equal((await bot(`/lobbies/${lobbyId}/members/${dave.id}`, 'DELETE')).status, 204); // not a member any more: no change
    await gwAlice.dispatch('LOBBY_MEMBER_REMOVE', (d) => d.member.id === dave.id);
  });

  test('messages: members and the app send (201) and read the most recent first; others get 50001', T, async () => {
    const sent = await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'gg', metadata: { kind: 'chat' } });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.lobby_id, lobbyId);
    assert.equal(sent.body.channel_id, lobbyId, 'channel_id is the lobby id while no channel is linked');
    assert.equal(sent.body.author.id, alice.id);
    assert.equal(sent.body.type, 0);
    assert.deepEqual(sent.body.metadata, { kind: 'chat' });
    assert.equal(sent.body.application_id, t.world.applicationId);
    const ev = await gwBob.dispatch('LOBBY_MESSAGE_CREATE', (d) => d.id === sent.body.id);
    assert.equal(ev.content, 'gg');
    const fromBob = await as(bob.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'hi' });
    assert.equal(fromBob.status, 201, fromBob.text);
    assert.equal(fromBob.body.lobby_member, undefined, 'bob has no additional_name any more');
    const fromApp = await bot(`/lobbies/${lobbyId}/messages`, 'POST', { content: 'round 2 starts' });
    assert.equal(fromApp.status, 201, fromApp.text);

    expectError(await as(carol.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'let me in' }), 403, 50001);
    expectError(await as(carol.bearer, `/lobbies/${lobbyId}/messages`), 403, 50001);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: '   ' }), 400, 50006);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'x'.repeat(4001) }), 400, 50035);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'x', embeds: [{ title: 'no' }] }), 400, 50035);
    assert.equal((await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'x'.repeat(4000) })).status, 201);

    const list = await as(bob.bearer, `/lobbies/${lobbyId}/messages?limit=3`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.map((m: any) => m.content.slice(0, 14)),
      ['x'.repeat(14), 'round 2 starts', 'hi'],
    );
    expectError(await bot(`/lobbies/${lobbyId}/messages?limit=0`), 400, 50035);
    expectError(await bot(`/lobbies/${lobbyId}/messages?limit=201`), 400, 50035);

    // Webhook events: the app receives LOBBY_MESSAGE_CREATE for each message.
    await until(() => receiver.events('LOBBY_MESSAGE_CREATE').some((r) => r.body.event.data.id === sent.body.id), 15_000, 'LOBBY_MESSAGE_CREATE webhook');
    const data = receiver.events('LOBBY_MESSAGE_CREATE').find((r) => r.body.event.data.id === sent.body.id)!.body.event.data;
    assert.equal(data.lobby_id, lobbyId);
    assert.equal(data.content, 'gg');
  });

  test('at most the 200 most recent messages are returned', T, async () => {
    const burst = (await bot('/lobbies', 'POST', { members: [{ id: alice.id }] })).body.id;
    for (let i = 0; i < 205; i++) assert.equal((await bot(`/lobbies/${burst}/messages`, 'POST', { content: `m${i}` })).status, 201);
    const all = await bot(`/lobbies/${burst}/messages?limit=200`);
    assert.equal(all.body.length, 200);
    assert.equal(all.body[0].content, 'm204');
    assert.equal(all.body[199].content, 'm5');
    assert.equal((await bot(`/lobbies/${burst}/messages`)).body.length, 50, 'default limit');
    assert.equal((await bot(`/lobbies/${burst}`, 'DELETE')).status, 204);
  });

  test('moderation metadata: the app sets up to 5 keys; players never see it; no event', T, async () => {
    const m = await bot(`/lobbies/${lobbyId}/messages`, 'POST', { content: 'moderate me' });
    await until(() => receiver.events('LOBBY_MESSAGE_CREATE').some((r) => r.body.event.data.id === m.body.id), 15_000, 'webhook of the message');
    const ok = await bot(`/lobbies/${lobbyId}/messages/${m.body.id}/moderation-metadata`, 'PUT', { verdict: 'allowed', score: '0.1' });
    assert.equal(ok.status, 204, ok.text);
    const form = new FormData();
    form.append('verdict', 'flagged');
    const multipart = await t.api(`/lobbies/${lobbyId}/messages/${m.body.id}/moderation-metadata`, {
      method: 'PUT',
      token: t.world.botToken,
      bot: true,
      body: form,
    });
    assert.equal(multipart.status, 204, multipart.text);
    const seenByApp = (await bot(`/lobbies/${lobbyId}/messages?limit=1`)).body[0];
    assert.deepEqual(seenByApp.moderation_metadata, { verdict: 'flagged' });
    assert.equal((await as(alice.bearer, `/lobbies/${lobbyId}/messages?limit=1`)).body[0].moderation_metadata, undefined);
    expectError(
      await bot(
        `/lobbies/${lobbyId}/messages/${m.body.id}/moderation-metadata`,
        'PUT',
        Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v'])),
      ),
      400,
      50035,
    );
    expectError(await bot(`/lobbies/${lobbyId}/messages/${m.body.id}/moderation-metadata`, 'PUT', { k: 'x'.repeat(2001) }), 400, 50035);
    expectError(await bot(`/lobbies/${lobbyId}/messages/123456789012345678/moderation-metadata`, 'PUT', { k: 'v' }), 404, 10008);
    // Barrier: a later message's webhook event is queued after anything the edits could have queued.
    const later = await bot(`/lobbies/${lobbyId}/messages`, 'POST', { content: 'sentinel' });
    const queued = () => t.server.ctx.repos.store.db.selectFrom('event_webhook_outbox').select(['event_type', 'body']).execute();
    await until(async () => (await queued()).some((r) => JSON.parse(r.body).event.data.id === later.body.id), 10_000, 'the sentinel queued');
    assert.deepEqual(
      (await queued()).filter((r) => JSON.parse(r.body).event.data.id === m.body.id).map((r) => r.event_type),
      ['LOBBY_MESSAGE_CREATE'],
      'moderation edits make no webhook event',
    );
  });

  test('channel linking: CAN_LINK_LOBBY members link a text channel; messages cross both ways; single-use invites', T, async () => {
    const text = t.world.textChannelId;
    // carol comes back without CAN_LINK_LOBBY: she may not link.
    await bot(`/lobbies/${lobbyId}/members/${carol.id}`, 'PUT', {});
    expectError(await as(carol.bearer, `/lobbies/${lobbyId}/channel-linking`, 'PATCH', { channel_id: text }), 403, 50013);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/channel-linking`, 'PATCH', { channel_id: t.world.voiceChannelId }), 400, 50024);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/members/@me/invites`, 'POST'), 404, 10003);
    const linked = await as(alice.bearer, `/lobbies/${lobbyId}/channel-linking`, 'PATCH', { channel_id: text });
    assert.equal(linked.status, 200, linked.text);
    assert.equal(linked.body.linked_channel.id, text);
    assert.equal(linked.body.linked_channel.guild_id, t.world.guildId);
    await gwBob.dispatch('LOBBY_UPDATE', (d) => d.id === lobbyId && d.linked_channel?.id === text);
    // One lobby per channel.
    const other = (await bot('/lobbies', 'POST', {})).body.id;
    expectError(await bot(`/lobbies/${other}/channel-linking`, 'PATCH', { channel_id: text }), 400, 50035);

    // Lobby → channel: the message is posted in the channel too, with one id; mentions never ping.
    const sent = await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'from the game @everyone' });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.channel_id, text);
    const inChannel = await bot(`/channels/${text}/messages/${sent.body.id}`);
    assert.equal(inChannel.status, 200, inChannel.text);
    assert.equal(inChannel.body.content, 'from the game @everyone');
    assert.equal(inChannel.body.mention_everyone, false);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'x'.repeat(2001) }), 400, 50035);

    // Channel → lobby: a guild message reaches the lobby; edits and deletions follow (Gateway and webhook events).
    const post = await t.api(`/channels/${text}/messages`, { method: 'POST', token: bob.token, body: { content: 'from discord' } });
    assert.equal(post.status, 200, post.text);
    const created = await gwCarol.dispatch('LOBBY_MESSAGE_CREATE', (d) => d.id === post.body.id);
    assert.equal(created.channel_id, text);
    assert.equal(created.lobby_id, lobbyId);
    assert.equal(created.content, 'from discord');
    const recent = await as(carol.bearer, `/lobbies/${lobbyId}/messages?limit=1`);
    assert.equal(recent.body[0].id, post.body.id);
    assert.equal(recent.body[0].lobby_member?.additional_name, undefined);
    await t.api(`/channels/${text}/messages/${post.body.id}`, { method: 'PATCH', token: bob.token, body: { content: 'from discord (edited)' } });
    const updated = await gwCarol.dispatch('LOBBY_MESSAGE_UPDATE', (d) => d.id === post.body.id);
    assert.equal(updated.content, 'from discord (edited)');
    assert.ok(updated.edited_timestamp);
    await t.api(`/channels/${text}/messages/${post.body.id}`, { method: 'DELETE', token: bob.token });
    assert.deepEqual(await gwCarol.dispatch('LOBBY_MESSAGE_DELETE', (d) => d.id === post.body.id), { id: post.body.id, lobby_id: lobbyId });
    await until(() => receiver.events('LOBBY_MESSAGE_UPDATE').some((r) => r.body.event.data.id === post.body.id), 15_000, 'LOBBY_MESSAGE_UPDATE webhook');
    await until(() => receiver.events('LOBBY_MESSAGE_DELETE').some((r) => r.body.event.data.id === post.body.id), 15_000, 'LOBBY_MESSAGE_DELETE webhook');
    const upd = receiver.events('LOBBY_MESSAGE_UPDATE').find((r) => r.body.event.data.id === post.body.id)!.body.event.data;
    assert.ok(upd.timestamp && upd.edited_timestamp);

    // Invites: a guild invite to the linked channel, for one member, one use, one hour.
    const mine = await as(carol.bearer, `/lobbies/${lobbyId}/members/@me/invites`, 'POST');
    assert.equal(mine.status, 200, mine.text);
    assert.match(mine.body.code, /^[A-Za-z0-9]+$/);
    const info = await t.api(`/invites/${mine.body.code}`, { token: carol.token });
    assert.equal(info.status, 200, info.text);
    assert.equal(info.body.guild.id, t.world.guildId);
    assert.equal(info.body.channel.id, text);
    const row = await t.server.ctx.repos.store.db.selectFrom('invites').selectAll().where('code', '=', mine.body.code).executeTakeFirstOrThrow();
    assert.equal(Number(row.max_age), 3600);
    assert.equal(Number(row.max_uses), 1);
    const stranger = await player(t, 'frank');
    assert.notEqual((await t.api(`/invites/${mine.body.code}`, { method: 'POST', token: stranger.token })).status, 200, 'only carol may use it');
    const joined = await t.api(`/invites/${mine.body.code}`, { method: 'POST', token: carol.token });
    assert.equal(joined.status, 200, joined.text);
    assert.equal((await t.api(`/invites/${mine.body.code}`, { token: carol.token })).status, 404, 'used up');
    const forDave = await bot(`/lobbies/${lobbyId}/members/${dave.id}/invites`, 'POST');
    expectError(forDave, 404, 10007);
    const forBob = await bot(`/lobbies/${lobbyId}/members/${bob.id}/invites`, 'POST');
    assert.equal(forBob.status, 200, forBob.text);
    expectError(await as(dave.bearer, `/lobbies/${lobbyId}/members/@me/invites`, 'POST'), 403, 50001);

    // Unlinking (null): back to lobby-only messages.
    const unlinked = await as(alice.bearer, `/lobbies/${lobbyId}/channel-linking`, 'PATCH', { channel_id: null });
    assert.equal(unlinked.status, 200, unlinked.text);
    assert.equal(unlinked.body.linked_channel, undefined);
    const after = await as(alice.bearer, `/lobbies/${lobbyId}/messages`, 'POST', { content: 'lobby only' });
    assert.equal(after.body.channel_id, lobbyId);
    const quiet = await t.api(`/channels/${text}/messages`, { method: 'POST', token: bob.token, body: { content: 'not bridged' } });
    // The bridge decides when MESSAGE_CREATE is published (the in-process bus calls it synchronously, inside the POST):
    // an unlinked channel schedules nothing, so there is nothing to wait for.
    assert.ok(!(await as(alice.bearer, `/lobbies/${lobbyId}/messages?limit=5`)).body.some((m: any) => m.id === quiet.body.id));
    assert.equal((await bot(`/lobbies/${other}`, 'DELETE')).status, 204);
  });

  test('a linked channel that is deleted is unlinked', T, async () => {
    const ch = await t.api(`/guilds/${t.world.guildId}/channels`, { method: 'POST', token: t.world.botToken, bot: true, body: { name: 'lobby-room' } });
    assert.ok(ch.status === 200 || ch.status === 201, ch.text);
    assert.equal((await bot(`/lobbies/${lobbyId}/channel-linking`, 'PATCH', { channel_id: ch.body.id })).status, 200);
    const mark = gwAlice.frames.length;
    assert.equal((await bot(`/channels/${ch.body.id}`, 'DELETE')).status, 200);
    await dispatchAfter(gwAlice, mark, 'LOBBY_UPDATE', (d) => d.id === lobbyId && !d.linked_channel);
    assert.equal((await bot(`/lobbies/${lobbyId}`)).body.linked_channel, undefined);
  });

  test("leaving: players leave lobbies made by secret, not the app's", T, async () => {
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/members/@me`, 'DELETE'), 403, 50001);
    const secret = `leave-${crypto.randomBytes(3).toString('hex')}`;
    const l = (await as(carol.bearer, '/lobbies', 'PUT', { secret })).body.id;
    await as(dave.bearer, '/lobbies', 'PUT', { secret });
    assert.equal((await as(carol.bearer, `/lobbies/${l}/members/@me`, 'DELETE')).status, 204);
    await gwCarol.dispatch('LOBBY_DELETE', (d) => d.id === l && d.reason === 'removed');
    assert.deepEqual(
      (await bot(`/lobbies/${l}`)).body.members.map((m: any) => m.id),
      [dave.id],
    );
    assert.equal((await as(carol.bearer, `/lobbies/${l}/members/@me`, 'DELETE')).status, 204, 'leaving twice is harmless');
  });

  test('DELETE /lobbies/{id}: members get LOBBY_DELETE; deleting again is harmless (404 10031, as GET)', T, async () => {
    assert.equal((await bot(`/lobbies/${lobbyId}`, 'DELETE')).status, 204);
    assert.deepEqual(await gwAlice.dispatch('LOBBY_DELETE', (d) => d.id === lobbyId && d.reason === 'deleted'), { id: lobbyId, reason: 'deleted' });
    expectError(await bot(`/lobbies/${lobbyId}`, 'DELETE'), 404, 10031);
    expectError(await bot(`/lobbies/${lobbyId}`), 404, 10031);
    expectError(await as(alice.bearer, `/lobbies/${lobbyId}/messages`), 404, 10031);
  });
});

describe('lobbies: the idle timeout and the secret run on the server clock', () => {
  let t: TestServer;
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
  const advance = async (ms: number) => {
    const r = await fetch(`${t.server.url}/__dev/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...devHeaders(t) },
      body: JSON.stringify({ advance_ms: ms }),
    });
    assert.equal(r.status, 200);
  };
  const gone = (id: string) => until(async () => (await bot(`/lobbies/${id}`)).status === 404, 10_000, `lobby ${id} deleted`);
  /**
   * A barrier for "the sweep ran and kept it": a lobby of an offline player with the shortest timeout (5 s), made
   * before a clock move, is deleted by the sweep that move triggers; once it is gone, that sweep has looked at the rest.
   */
  const sentinel = async () => {
    const p = await player(t, `sentinel_${crypto.randomBytes(2).toString('hex')}`);
    return (await bot('/lobbies', 'POST', { members: [{ id: p.id }], idle_timeout_seconds: 5 })).body.id as string;
  };

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
  });
  after(async () => {
    await t?.close();
  });

  test('a lobby nobody is connected to goes away after idle_timeout_seconds; activity pushes the deadline', T, async () => {
    const p = await player(t, 'idler');
    const id = (await bot('/lobbies', 'POST', { members: [{ id: p.id }], idle_timeout_seconds: 60 })).body.id;
    const other = (await bot('/lobbies', 'POST', { members: [{ id: p.id }], idle_timeout_seconds: 600 })).body.id;
    await advance(40_000);
    await bot(`/lobbies/${id}/messages`, 'POST', { content: 'still here' }); // activity: 60 s from now
    const swept = await sentinel();
    await advance(40_000);
    await gone(swept);
    assert.equal((await bot(`/lobbies/${id}`)).status, 200, 'activity kept it');
    await advance(25_000);
    await gone(id);
    assert.equal((await bot(`/lobbies/${other}`)).status, 200, 'a longer timeout is still running');
  });

  test('a lobby with a connected member stays; it times out once the last member disconnects', T, async () => {
    const p = await player(t, 'stayer');
    const gw = await online(t, p.token);
    const id = (await bot('/lobbies', 'POST', { members: [{ id: p.id }], idle_timeout_seconds: 30 })).body.id;
    const swept = await sentinel();
    await advance(120_000);
    await gone(swept);
    assert.equal((await bot(`/lobbies/${id}`)).status, 200, 'a member is connected');
    gw.close();
    await gw.closed;
    await sleep(300);
    await advance(31_000);
    await gone(id);
  });

  test('a secret finds its lobby for 30 days, then makes a new one', T, async () => {
    const p = await player(t, 'seeker');
    const gw = await online(t, p.token); // keeps the lobby alive across the clock jump
    const secret = 'thirty-days';
    const first = (await t.api('/lobbies', { method: 'PUT', token: p.bearer, body: { secret, idle_timeout_seconds: 604800 } })).body.id;
    await advance(29 * 86400_000);
    assert.equal((await t.api('/lobbies', { method: 'PUT', token: p.bearer, body: { secret } })).body.id, first);
    await advance(2 * 86400_000);
    const next = await t.api('/lobbies', { method: 'PUT', token: p.bearer, body: { secret } });
    assert.equal(next.status, 200, next.text);
    assert.notEqual(next.body.id, first);
    assert.equal((await bot(`/lobbies/${first}`)).status, 200, 'the old lobby lives on without its secret');
    gw.close();
  });
});
