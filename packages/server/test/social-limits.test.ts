/**
 * Every limit of the Social SDK, one test each: 25 members per bulk call, 200 messages per history read (lobbies and
 * game DMs), 72 hours of history for players, the single-use lobby channel invite valid one hour, and the rate limits
 * of an app not yet approved for communication features (100 per 2 h; 20 per 2 h for channel linking). And the
 * webhook events LOBBY_MESSAGE_CREATE and GAME_DIRECT_MESSAGE_CREATE, signed, at the app's endpoint.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until } from './helpers/wait.js';
import { register } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { recordGrant } from '../src/services/identity/oauth2/grants.js';
import { getApplication } from '../src/services/identity/applications.js';

const T = { timeout: 120_000 };
const SCOPES = [
  'identify',
  'lobbies.write',
  'guilds',
  'gateway.connect',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'relationships.read',
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

describe('Social SDK limits', () => {
  let t: TestServer;
  let ann: Person;
  let ben: Person;
  let owner: Person;
  const api = (token: string, path: string, method = 'GET', body?: unknown) => t.api(path, { method, token, body });
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
  const dev = (path: string, body: unknown) =>
    fetch(`${t.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...devHeaders(t) }, body: JSON.stringify(body) }).then(
      (r) => r.json(),
    );
  const approve = (approved: boolean) => dev(`/__dev/applications/${t.world.applicationId}/social-sdk-approval`, { approved });
  const advance = (ms: number) => dev('/__dev/clock', { advance_ms: ms });

  async function person(name: string, userId?: string, token?: string): Promise<Person> {
    const ctx = t.server.ctx;
    let user;
    if (!userId) {
      const username = `${name}_${crypto.randomBytes(3).toString('hex')}`;
      ({ token, user } = await register(ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` }));
    } else user = (await ctx.repos.store.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()) as any;
    await recordGrant(ctx, (await getApplication(ctx, t.world.applicationId))!, { ...user, id: String(user.id) }, ['sdk.social_layer'], 1);
    const bearer = await issueToken(ctx, String(user.id), 'bearer', {
      applicationId: t.world.applicationId,
      scopes: SCOPES,
      expiresAt: ctx.clock.now() + 30 * 86400_000,
    });
    return { id: String(user.id), token: token!, bearer: `Bearer ${bearer}` };
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    [ann, ben] = [await person('ann'), await person('ben')];
    owner = await person('owner', t.world.users[0].id, t.world.users[0].token);
  });
  after(async () => t?.close());

  test('lobby members: at most 25 per bulk call', T, async () => {
    const lobby = (await bot('/lobbies', 'POST', {})).body;
    const people = await Promise.all(
      Array.from({ length: 26 }, (_, i) =>
        register(t.server.ctx, { username: `bulk_${i}_${crypto.randomBytes(2).toString('hex')}`, password: 'password-bulk' }),
      ),
    );
    const items = people.map((p) => ({ id: p.user.id }));
    expectError(await bot(`/lobbies/${lobby.id}/members/bulk`, 'POST', items), 400, 50035);
    const ok = await bot(`/lobbies/${lobby.id}/members/bulk`, 'POST', items.slice(0, 25));
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await bot(`/lobbies/${lobby.id}`)).body.members.length, 25);
  });

  test('history: at most 200 messages per read, lobbies and game DMs', T, async () => {
    await approve(true);
    try {
      const lobby = (await api(ann.bearer, '/lobbies', 'PUT', { secret: 'two-hundred' })).body;
      for (let i = 0; i < 205; i++) assert.equal((await api(ann.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: `m${i}` })).status, 201);
      const lobbyRead = await api(ann.bearer, `/lobbies/${lobby.id}/messages?limit=200`);
      assert.equal(lobbyRead.body.length, 200);
      assert.equal(lobbyRead.body[0].content, 'm204');
      expectError(await api(ann.bearer, `/lobbies/${lobby.id}/messages?limit=201`), 400, 50035);
      for (let i = 0; i < 205; i++) assert.equal((await api(ann.bearer, `/users/@me/dms/${ben.id}/messages`, 'POST', { content: `d${i}` })).status, 201);
      const dmRead = await api(ben.bearer, `/users/@me/dms/${ann.id}/messages?limit=200`);
      assert.equal(dmRead.body.length, 200);
      assert.equal(dmRead.body[0].content, 'd204');
      expectError(await api(ben.bearer, `/users/@me/dms/${ann.id}/messages?limit=201`), 400, 50035);
    } finally {
      await approve(false);
    }
  });

  test("history: players read 72 hours back (the app's Bot token reads all)", T, async () => {
    const gw = await RawGateway.connect(t.server.url); // a connected member keeps the lobby from idling away
    await gw.identify(ann.bearer);
    const lobby = (await api(ann.bearer, '/lobbies', 'PUT', { secret: 'seventy-two' })).body;
    await api(ann.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: 'old lobby message' });
    await api(ann.bearer, `/users/@me/dms/${ben.id}/messages`, 'POST', { content: 'old dm' });
    await advance(71 * 3600_000);
    assert.ok(
      (await api(ann.bearer, `/lobbies/${lobby.id}/messages`)).body.some((m: any) => m.content === 'old lobby message'),
      '71 h: still there',
    );
    await advance(2 * 3600_000);
    await api(ann.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: 'new lobby message' });
    assert.deepEqual(
      (await api(ann.bearer, `/lobbies/${lobby.id}/messages`)).body.map((m: any) => m.content),
      ['new lobby message'],
    );
    assert.ok((await bot(`/lobbies/${lobby.id}/messages`)).body.some((m: any) => m.content === 'old lobby message'));
    assert.ok(!(await api(ben.bearer, `/users/@me/dms/${ann.id}/messages?limit=200`)).body.some((m: any) => m.content === 'old dm'));
    gw.close();
  });

  test('lobby channel invites: single use, valid one hour', T, async () => {
    const lobby = (await api(owner.bearer, '/lobbies', 'PUT', { secret: 'invites' })).body;
    await api(ben.bearer, '/lobbies', 'PUT', { secret: 'invites' });
    await api(ann.bearer, '/lobbies', 'PUT', { secret: 'invites' });
    await bot(`/lobbies/${lobby.id}/members/${owner.id}`, 'PUT', { flags: 1 });
    const linked = await api(owner.bearer, `/lobbies/${lobby.id}/channel-linking`, 'PATCH', { channel_id: t.world.textChannelId });
    assert.equal(linked.status, 200, linked.text);
    const forBen = (await bot(`/lobbies/${lobby.id}/members/${ben.id}/invites`, 'POST')).body.code;
    const info = await api(ben.token, `/invites/${forBen}?with_expiration=true`);
    assert.equal(Date.parse(info.body.expires_at) - t.server.ctx.clock.now() <= 3600_000, true, info.text);
    const listed = (await api(owner.token, `/channels/${t.world.textChannelId}/invites`)).body.find((i: any) => i.code === forBen);
    assert.equal(listed.max_age, 3600);
    assert.equal(listed.max_uses, 1);
    assert.equal((await api(ben.token, `/invites/${forBen}`, 'POST', {})).status, 200);
    const again = await api(ann.token, `/invites/${forBen}`, 'POST', {});
    assert.ok(again.status >= 400, `a used single-use invite is refused: ${again.status}`);
    const forAnn = (await bot(`/lobbies/${lobby.id}/members/${ann.id}/invites`, 'POST')).body.code;
    await advance(61 * 60_000);
    expectError(await api(ann.token, `/invites/${forAnn}`, 'POST', {}), 404, 10006);
  });

  test('an unapproved app: 100 communication calls per 2 hours, 20 for channel linking; none once approved', T, async () => {
    await advance(3 * 3600_000); // a fresh window
    const lobby = (await api(owner.bearer, '/lobbies', 'PUT', { secret: 'limited' })).body; // 1
    for (let i = 0; i < 99; i++)
      assert.equal((await api(owner.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: `x${i}` })).status, 201, `call ${i + 2}`);
    const limited = await api(owner.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: 'one too many' });
    assert.equal(limited.status, 429, limited.text);
    assert.ok(limited.body.retry_after > 0 && limited.body.retry_after <= 7200);
    assert.equal((await api(ann.bearer, `/users/@me/dms/${ben.id}/messages`, 'POST', { content: 'dm' })).status, 429, "the window is the app's");
    assert.equal((await bot(`/lobbies/${lobby.id}/messages`, 'POST', { content: 'the app itself' })).status, 201, 'the Bot token is not limited');

    await bot(`/lobbies/${lobby.id}/members/${owner.id}`, 'PUT', { flags: 1 });
    for (let i = 0; i < 20; i++) {
      const body = i % 2 === 0 ? { channel_id: t.world.textChannelId } : {};
      assert.equal((await api(owner.bearer, `/lobbies/${lobby.id}/channel-linking`, 'PATCH', body)).status, 200, `link call ${i + 1}`);
    }
    assert.equal((await api(owner.bearer, `/lobbies/${lobby.id}/channel-linking`, 'PATCH', { channel_id: t.world.textChannelId })).status, 429);

    await approve(true);
    assert.equal((await api(owner.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: 'approved' })).status, 201);
    assert.equal((await api(owner.bearer, `/lobbies/${lobby.id}/channel-linking`, 'PATCH', { channel_id: t.world.textChannelId })).status, 200);
    await approve(false);
    await advance(2 * 3600_000 + 1000);
    const fresh = await api(owner.bearer, '/lobbies', 'PUT', { secret: 'limited-again' }); // the idle lobby is gone by now
    assert.equal(fresh.status, 200, 'the window ends after 2 hours');
    assert.equal((await api(owner.bearer, `/lobbies/${fresh.body.id}/messages`, 'POST', { content: 'next window' })).status, 201);
  });

  test('webhook events: LOBBY_MESSAGE_CREATE and GAME_DIRECT_MESSAGE_CREATE reach the app, signed', T, async () => {
    await advance(3 * 3600_000);
    const receiver = await WebhookReceiver.start();
    try {
      const app = await api(t.world.users[0].token, `/applications/${t.world.applicationId}`);
      receiver.publicKey = app.body.verify_key;
      const r = await api(t.world.users[0].token, `/applications/${t.world.applicationId}`, 'PATCH', {
        event_webhooks_url: receiver.url,
        event_webhooks_status: 2,
        event_webhooks_types: ['LOBBY_MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_DELETE'],
      });
      assert.equal(r.status, 200, r.text);
      const lobby = (await api(ann.bearer, '/lobbies', 'PUT', { secret: 'events' })).body;
      const lm = (await api(ann.bearer, `/lobbies/${lobby.id}/messages`, 'POST', { content: 'hello lobby', metadata: { k: 'v' } })).body;
      const dm = (await api(ann.bearer, `/users/@me/dms/${ben.id}/messages`, 'POST', { content: 'hello ben' })).body;
      await api(ann.bearer, `/users/@me/dms/${ben.id}/messages/${dm.id}`, 'DELETE');
      // Deliveries run side by side, so the last change's event may arrive first: wait for all three.
      const types = ['LOBBY_MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_CREATE', 'GAME_DIRECT_MESSAGE_DELETE'];
      await until(() => types.every((type) => receiver.events(type).length > 0), 15_000, types.join(', '));
      const [lobbyEvent] = receiver.events('LOBBY_MESSAGE_CREATE');
      assert.equal(lobbyEvent.body.application_id, t.world.applicationId);
      assert.equal(lobbyEvent.body.event.data.id, lm.id);
      assert.equal(lobbyEvent.body.event.data.lobby_id, lobby.id);
      assert.equal(lobbyEvent.body.event.data.content, 'hello lobby');
      assert.deepEqual(lobbyEvent.body.event.data.metadata, { k: 'v' });
      const [dmEvent] = receiver.events('GAME_DIRECT_MESSAGE_CREATE');
      assert.equal(dmEvent.body.event.data.id, dm.id);
      assert.equal(dmEvent.body.event.data.content, 'hello ben');
      assert.equal(dmEvent.body.event.data.author.id, ann.id);
      assert.deepEqual(dmEvent.body.event.data.channel.recipients.sort(), [ann.id, ben.id].sort());
      assert.deepEqual(receiver.events('GAME_DIRECT_MESSAGE_DELETE')[0].body.event.data, { id: dm.id, channel_id: dm.channel_id });
      assert.ok(receiver.events().every((e) => e.verified));
    } finally {
      await receiver.close();
    }
  });
});
