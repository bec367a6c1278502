/**
 * Social SDK players on the server: relationships on the official client's routes (requests sent, accepted, ignored,
 * cancelled; blocks; nicknames) with RELATIONSHIP_* on the Gateway and in READY; game friends per app; blocks honoured
 * in DMs, friend requests and activity invites; game DMs with history and moderation metadata; rich presence validated
 * and delivered to friends and guild members; activity invites; SDK sessions (Bearer, AUTO_LOBBY_CONNECT) with lobbies
 * in READY, LOBBY_MEMBER_CONNECT and lobby calls (op 17).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Capability } from '@accord/protocol';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { register } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { recordGrant } from '../src/services/identity/oauth2/grants.js';
import { getApplication } from '../src/services/identity/applications.js';

const T = { timeout: 60_000 };
const SDK_SCOPES = [
  'openid',
  'sdk.social_layer',
  'identify',
  'relationships.read',
  'relationships.write',
  'presences.read',
  'presences.write',
  'activities.read',
  'activities.write',
  'gateway.connect',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'lobbies.write',
  'guilds',
];

interface Person {
  id: string;
  token: string;
  bearer: string;
}

function expectError(res: { status: number; body: any; text: string }, status: number, code: number) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
}

describe('Social SDK players', () => {
  let t: TestServer;
  let ann: Person;
  let ben: Person;
  let cat: Person;
  const api = (token: string, path: string, method = 'GET', body?: unknown) => t.api(path, { method, token, body });

  async function person(name: string): Promise<Person> {
    const ctx = t.server.ctx;
    const username = `${name}_${crypto.randomBytes(3).toString('hex')}`;
    const { token, user } = await register(ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` });
    const app = (await getApplication(ctx, t.world.applicationId))!;
    await recordGrant(ctx, app, user, ['openid', 'sdk.social_layer'], 1);
    const bearer = await issueToken(ctx, user.id, 'bearer', { applicationId: app.id, scopes: SDK_SCOPES, expiresAt: ctx.clock.now() + 7 * 86400_000 });
    return { id: user.id, token, bearer: `Bearer ${bearer}` };
  }

  async function sdkSession(p: Person, capabilities = Capability.AUTO_LOBBY_CONNECT) {
    const gw = await RawGateway.connect(t.server.url);
    const ready = await gw.identify(p.bearer, { capabilities, properties: { os: 'linux', browser: 'Discord Social SDK', sdk_version: '1.10.18687' } });
    return { gw, ready };
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    [ann, ben, cat] = [await person('ann'), await person('ben'), await person('cat')];
  });
  after(async () => t?.close());

  test('friend requests: sent, accepted, nicknamed, removed; ignored; cancelled — each side hears RELATIONSHIP_*', T, async () => {
    const a = await RawGateway.connect(t.server.url);
    await a.identify(ann.token);
    const b = await RawGateway.connect(t.server.url);
    await b.identify(ben.token);
    assert.equal((await api(ann.token, `/users/@me/relationships/${ben.id}`, 'PUT', {})).status, 204);
    assert.equal((await a.dispatch('RELATIONSHIP_ADD', (d) => d.id === ben.id)).type, 4);
    const incoming = await b.dispatch('RELATIONSHIP_ADD', (d) => d.id === ann.id);
    assert.equal(incoming.type, 3);
    assert.equal(incoming.user.id, ann.id);
    assert.equal((await api(ben.token, `/users/@me/relationships/${ann.id}`, 'PUT', {})).status, 204);
    await a.dispatch('RELATIONSHIP_ADD', (d) => d.id === ben.id && d.type === 1);
    await b.dispatch('RELATIONSHIP_ADD', (d) => d.id === ann.id && d.type === 1);
    assert.equal((await api(ann.token, `/users/@me/relationships/${ben.id}`, 'PATCH', { nickname: 'Benny' })).status, 204);
    assert.deepEqual(await a.dispatch('RELATIONSHIP_UPDATE'), { id: ben.id, type: 1, nickname: 'Benny' });
    const list = await api(ann.token, '/users/@me/relationships');
    assert.deepEqual(
      list.body.map((r: any) => [r.id, r.type, r.nickname]),
      [[ben.id, 1, 'Benny']],
    );
    const ready = await (await RawGateway.connect(t.server.url)).identify(ann.token);
    assert.deepEqual(
      ready.relationships.map((r: any) => [r.id, r.type]),
      [[ben.id, 1]],
      'READY carries relationships',
    );

    // By username; ignored (the recipient deletes it); then sent again and cancelled by the sender.
    const catName = (await api(cat.token, '/users/@me')).body.username;
    assert.equal((await api(ann.token, '/users/@me/relationships', 'POST', { username: catName })).status, 204);
    assert.equal((await api(cat.token, `/users/@me/relationships/${ann.id}`, 'DELETE')).status, 204);
    assert.equal((await a.dispatch('RELATIONSHIP_REMOVE', (d) => d.id === cat.id)).type, 4);
    assert.equal((await api(ann.token, `/users/@me/relationships/${cat.id}`, 'PUT', {})).status, 204);
    assert.equal((await api(ann.token, `/users/@me/relationships/${cat.id}`, 'DELETE')).status, 204);
    assert.equal((await api(cat.token, '/users/@me/relationships')).body.length, 0);
    expectError(await api(ann.token, '/users/@me/relationships', 'POST', { username: 'nobody_here_at_all' }), 400, 80004);
    expectError(await api(ann.token, `/users/@me/relationships/${ann.id}`, 'PUT', {}), 400, 80003);
    assert.equal((await api(ann.token, `/users/@me/relationships/${ben.id}`, 'DELETE')).status, 204);
    await b.dispatch('RELATIONSHIP_REMOVE', (d) => d.id === ann.id);
    a.close();
    b.close();
  });

  test('blocks: DMs, friend requests and activity invites are refused either way; unblocking restores DMs', T, async () => {
    const dm = await api(ben.bearer, `/users/@me/dms/${cat.id}/messages`, 'POST', { content: 'before the block' });
    assert.equal(dm.status, 201, dm.text);
    assert.equal((await api(cat.token, `/users/@me/relationships/${ben.id}`, 'PUT', { type: 2 })).status, 204);
    expectError(await api(ben.bearer, `/users/@me/dms/${cat.id}/messages`, 'POST', { content: 'blocked' }), 403, 50007);
    expectError(await api(ben.token, `/channels/${dm.body.channel_id}/messages`, 'POST', { content: 'blocked too' }), 403, 50007);
    expectError(await api(ben.token, `/users/@me/relationships/${cat.id}`, 'PUT', {}), 400, 80000);
    expectError(await api(ben.bearer, `/users/@me/game-relationships/${cat.id}`, 'PUT'), 400, 80000);
    expectError(await api(ben.bearer, '/users/@me/activity-invites', 'POST', { recipient_id: cat.id, party_id: 'p', join_secret: 's' }), 403, 50007);
    assert.equal((await api(cat.token, `/users/@me/relationships/${ben.id}`, 'DELETE')).status, 204);
    assert.equal((await api(ben.bearer, `/users/@me/dms/${cat.id}/messages`, 'POST', { content: 'after' })).status, 201);
  });

  test('game friends per app, rich presence to friends and guild members, and READY presences', T, async () => {
    const ann1 = await sdkSession(ann);
    const ben1 = await sdkSession(ben);
    assert.equal((await api(ann.bearer, `/users/@me/game-relationships/${ben.id}`, 'PUT')).status, 204);
    assert.equal((await ben1.gw.dispatch('GAME_RELATIONSHIP_ADD', (d) => d.id === ann.id)).type, 3);
    assert.equal((await api(ben.bearer, `/users/@me/game-relationships/${ann.id}`, 'PUT')).status, 204);
    const added = await ann1.gw.dispatch('GAME_RELATIONSHIP_ADD', (d) => d.id === ben.id && d.type === 1);
    assert.equal(added.application_id, t.world.applicationId);

    // Ann's game sets rich presence: ben (a game friend) gets PRESENCE_UPDATE with the validated activity.
    ann1.gw.send(3, {
      since: null,
      afk: false,
      status: 'online',
      activities: [
        {
          name: 'ignored-by-sdk',
          type: 0,
          application_id: '1',
          state: 'In a match',
          state_url: 'https://game.example/state',
          details: 'Ranked',
          details_url: 'javascript:alert(1)',
          status_display_type: 1,
          secrets: { join: 'secret-123' },
          unknown_field: true,
          assets: {
            large_image: 'map',
            large_url: 'https://game.example/map',
            small_url: 'https://game.example/rank',
            invite_cover_image: 'https://game.example/cover.png',
          },
          party: { id: 'party-1', size: [1, 4], privacy: 1 },
        },
      ],
    });
    const p = await ben1.gw.dispatch('PRESENCE_UPDATE', (d) => d.user.id === ann.id && d.activities.length > 0);
    const act = p.activities[0];
    assert.equal(act.application_id, t.world.applicationId, "an SDK session's activity is its app's");
    assert.equal(act.state_url, 'https://game.example/state');
    assert.equal(act.details_url, undefined, 'a bad URL is dropped');
    assert.equal(act.status_display_type, 1);
    assert.deepEqual(act.party, { id: 'party-1', size: [1, 4], privacy: 1 });
    assert.equal(act.assets.invite_cover_image, 'https://game.example/cover.png');
    assert.equal(act.assets.large_url, 'https://game.example/map');
    assert.equal(act.secrets, undefined, 'secrets never leave the server');
    assert.equal(act.unknown_field, undefined);
    const ben2 = await sdkSession(ben);
    assert.ok(
      ben2.ready.presences.some((x: any) => x.user.id === ann.id && x.activities[0]?.state === 'In a match'),
      "READY carries friends' presences",
    );
    assert.deepEqual(
      ben2.ready.game_relationships.map((r: any) => r.id),
      [ann.id],
    );

    // Guild members still get it (with guild_id): the seed guild's owner shares a guild with ann once she joins.
    const inviteCode = (await api(t.world.users[0].token, `/channels/${t.world.textChannelId}/invites`, 'POST', {})).body.code;
    assert.equal((await api(ann.token, `/invites/${inviteCode}`, 'POST', {})).status, 200);
    const member = await RawGateway.connect(t.server.url);
    await member.identify(t.world.users[0].token, { intents: 0 });
    // As a real client does, ann's game sets its presence once its session has the guild.
    await ann1.gw.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId);
    ann1.gw.send(3, { since: null, afk: false, status: 'online', activities: [{ name: 'x', type: 0, state: 'Lobby' }] });
    const guildPresence = await member.dispatch('PRESENCE_UPDATE', (d) => d.user.id === ann.id && d.guild_id === t.world.guildId);
    assert.equal(guildPresence.activities[0].state, 'Lobby');
    for (const s of [ann1, ben1, ben2]) s.gw.close();
    member.close();
  });

  test('game DMs: history (newest first), summaries, metadata, moderation metadata, edits and deletes', T, async () => {
    const sent: any[] = [];
    for (const content of ['one', 'two', 'three'])
      sent.push((await api(ann.bearer, `/users/@me/dms/${ben.id}/messages`, 'POST', { content, metadata: { n: content } })).body);
    assert.equal(sent[0].application_id, t.world.applicationId);
    assert.deepEqual(sent[0].metadata, { n: 'one' });
    assert.deepEqual(sent[0].channel.recipients.sort(), [ann.id, ben.id].sort());
    const history = await api(ben.bearer, `/users/@me/dms/${ann.id}/messages?limit=2`);
    assert.deepEqual(
      history.body.map((m: any) => m.content),
      ['three', 'two'],
    );
    const summaries = await api(ben.bearer, '/users/@me/dms');
    assert.ok(summaries.body.some((s: any) => s.user_id === ann.id && s.last_message_id === sent[2].id));
    const edited = await api(ann.bearer, `/users/@me/dms/${ben.id}/messages/${sent[0].id}`, 'PATCH', { content: 'one!' });
    assert.equal(edited.body.content, 'one!');
    expectError(await api(ben.bearer, `/users/@me/dms/${ann.id}/messages/${sent[0].id}`, 'PATCH', { content: 'not mine' }), 403, 50005);
    assert.equal((await api(ann.bearer, `/users/@me/dms/${ben.id}/messages/${sent[1].id}`, 'DELETE')).status, 204);
    const mod = await t.api(`/partner-sdk/dms/${ann.id}/${ben.id}/messages/${sent[2].id}/moderation-metadata`, {
      method: 'PUT',
      token: t.world.botToken,
      bot: true,
      body: { verdict: 'ok' },
    });
    assert.equal(mod.status, 204, mod.text);
    expectError(
      await t.api(`/partner-sdk/dms/${ann.id}/${ben.id}/messages/${sent[2].id}/moderation-metadata`, {
        method: 'PUT',
        token: t.world.botToken,
        bot: true,
        body: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' },
      }),
      400,
      50035,
    );
    expectError(await api(ann.bearer, `/users/@me/dms/${t.world.users[1].id}/messages`), 404, 10003);
  });

  test("activity invites: sent as a DM, accepted once for the join secret, heard on the recipient's other session", T, async () => {
    const benPhone = await sdkSession(ben);
    const benPc = await sdkSession(ben);
    const sent = await api(ann.bearer, '/users/@me/activity-invites', 'POST', {
      recipient_id: ben.id,
      party_id: 'party-1',
      join_secret: 'join-me',
      content: 'come play',
    });
    assert.equal(sent.status, 201, sent.text);
    const msg = await benPc.gw.dispatch('MESSAGE_CREATE', (d) => d.id === sent.body.message_id);
    assert.deepEqual(msg.activity, { type: 1, party_id: 'party-1' });
    assert.equal(msg.application.id, t.world.applicationId);
    const accepted = await api(ben.bearer, `/users/@me/activity-invites/${sent.body.message_id}/accept`, 'POST');
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.join_secret, 'join-me');
    for (const s of [benPhone, benPc]) assert.equal((await s.gw.dispatch('ACTIVITY_INVITE_CREATE')).message_id, sent.body.message_id);
    expectError(await api(ben.bearer, `/users/@me/activity-invites/${sent.body.message_id}/accept`, 'POST'), 400, 10006);
    expectError(await api(cat.bearer, `/users/@me/activity-invites/${sent.body.message_id}/accept`, 'POST'), 404, 10006);
    benPhone.gw.close();
    benPc.gw.close();
  });

  test("activity invites from the person's own client (user token): the app is named, Ask to Join then invite, accepted", T, async () => {
    const appId = t.world.applicationId;
    expectError(await api(ann.token, '/users/@me/activity-invites', 'POST', { recipient_id: ben.id, party_id: 'p', join_secret: 's' }), 400, 50035);
    expectError(
      await api(ann.token, '/users/@me/activity-invites', 'POST', { recipient_id: ben.id, application_id: '1234567890123', party_id: 'p', join_secret: 's' }),
      404,
      10002,
    );
    expectError(
      await api(ann.bearer, '/users/@me/activity-invites', 'POST', { recipient_id: ben.id, application_id: '1234567890123', party_id: 'p', join_secret: 's' }),
      400,
      50035,
    );
    expectError(
      await t.api('/users/@me/activity-invites', {
        method: 'POST',
        token: t.world.botToken,
        bot: true,
        body: { recipient_id: ben.id, application_id: appId, party_id: 'p', join_secret: 's' },
      }),
      403,
      20001,
    );
    // Ben asks to join Ann's party (no secret); Ann's client answers with an invite carrying the join secret.
    const ask = await api(ben.token, '/users/@me/activity-invites', 'POST', { recipient_id: ann.id, application_id: appId, type: 5, party_id: 'party-9' });
    assert.equal(ask.status, 201, ask.text);
    assert.equal(ask.body.type, 5);
    const invite = await api(ann.token, '/users/@me/activity-invites', 'POST', {
      recipient_id: ben.id,
      application_id: appId,
      party_id: 'party-9',
      join_secret: 'secret-9',
    });
    assert.equal(invite.status, 201, invite.text);
    const accepted = await api(ben.token, `/users/@me/activity-invites/${invite.body.message_id}/accept`, 'POST');
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.join_secret, 'secret-9');
    expectError(await api(ann.token, `/users/@me/activity-invites/${ask.body.message_id}/accept`, 'POST'), 404, 10006);
  });

  test('SDK sessions: lobbies in READY, LOBBY_MEMBER_CONNECT, and a lobby call through op 17', T, async () => {
    const lobby = (await api(ann.bearer, '/lobbies', 'PUT', { secret: 'meet-here' })).body;
    await api(ben.bearer, '/lobbies', 'PUT', { secret: 'meet-here' });
    const ann1 = await sdkSession(ann);
    assert.deepEqual(
      ann1.ready.lobbies.map((l: any) => l.id),
      [lobby.id],
    );
    assert.deepEqual(ann1.ready.lobbies[0].voice_states, []);
    const plain = await sdkSession(ann, 0);
    assert.equal(plain.ready.lobbies, undefined, 'without AUTO_LOBBY_CONNECT there are no lobbies in READY');
    const ben1 = await sdkSession(ben);
    const connected = await ann1.gw.dispatch('LOBBY_MEMBER_CONNECT', (d) => d.member.id === ben.id);
    assert.equal(connected.lobby_id, lobby.id);
    ben1.gw.send(17, { lobby_id: lobby.id, self_mute: false, self_deaf: false });
    const server = await ben1.gw.dispatch('LOBBY_VOICE_SERVER_UPDATE');
    assert.equal(server.lobby_id, lobby.id);
    assert.equal(typeof server.token, 'string');
    assert.equal(server.endpoint, t.server.voice.states.endpoint);
    const state = await ann1.gw.dispatch('LOBBY_VOICE_STATE_UPDATE', (d) => d.user_id === ben.id);
    assert.equal(state.channel_id, lobby.id);
    ben1.gw.send(17, { lobby_id: lobby.id, leave: true });
    assert.equal((await ann1.gw.dispatch('LOBBY_VOICE_STATE_UPDATE', (d) => d.user_id === ben.id && d.channel_id === null)).lobby_id, lobby.id);
    ben1.gw.ws.close(1000);
    await ann1.gw.dispatch('LOBBY_MEMBER_DISCONNECT', (d) => d.member.id === ben.id);
    for (const s of [ann1, plain]) s.gw.close();
  });
});
