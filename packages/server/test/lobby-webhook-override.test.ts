/**
 * A lobby's `override_event_webhooks_url`: the lobby's message events go to that URL instead of the app's
 * `event_webhooks_url`, signed the same way; lobbies without one (or after it is cleared) use the app's URL. The app's
 * switch and subscriptions still decide whether an event is sent at all.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until } from './helpers/wait.js';

const T = { timeout: 60_000 };

describe('lobby override_event_webhooks_url', () => {
  let t: TestServer;
  let appUrl: WebhookReceiver;
  let lobbyUrl: WebhookReceiver;
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });

  /** The outbox row of one event, once the worker has finished with it (a barrier: nothing more will be sent). */
  const settled = (type: string, id: string) =>
    until(
      async () => {
        const rows = await t.server.ctx.repos.store.db
          .selectFrom('event_webhook_outbox')
          .select(['status', 'url', 'body'])
          .where('event_type', '=', type)
          .execute();
        return rows.find((r) => JSON.parse(r.body).event.data.id === id && r.status === 'delivered');
      },
      15_000,
      `${type} ${id} delivered`,
    );

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    [appUrl, lobbyUrl] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
    const me = await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token });
    appUrl.publicKey = lobbyUrl.publicKey = me.body.verify_key;
    const r = await t.api(`/applications/${t.world.applicationId}`, {
      method: 'PATCH',
      token: t.world.users[0].token,
      body: { event_webhooks_url: appUrl.url, event_webhooks_status: 2, event_webhooks_types: ['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE'] },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await appUrl?.close();
    await lobbyUrl?.close();
    await t?.close();
  });

  test('events of a lobby with an override go to the override, signed; other lobbies use the app URL', T, async () => {
    const alice = t.world.users[0].id;
    const withOverride = await bot('/lobbies', 'POST', { members: [{ id: alice }], override_event_webhooks_url: lobbyUrl.url });
    assert.equal(withOverride.status, 201, withOverride.text);
    const plain = await bot('/lobbies', 'POST', { members: [{ id: alice }] });
    assert.equal(plain.status, 201, plain.text);

    const a = await bot(`/lobbies/${withOverride.body.id}/messages`, 'POST', { content: 'to the override' });
    assert.equal(a.status, 201, a.text);
    const b = await bot(`/lobbies/${plain.body.id}/messages`, 'POST', { content: 'to the app' });
    assert.equal(b.status, 201, b.text);

    const rowA = await settled('LOBBY_MESSAGE_CREATE', a.body.id);
    const rowB = await settled('LOBBY_MESSAGE_CREATE', b.body.id);
    assert.equal(rowA.url, lobbyUrl.url);
    assert.equal(rowB.url, null);
    // Both deliveries are finished, so each endpoint's list is final for these two events.
    const ids = (r: WebhookReceiver) => r.events('LOBBY_MESSAGE_CREATE').map((e) => e.body.event.data.id);
    assert.deepEqual(ids(lobbyUrl), [a.body.id]);
    assert.deepEqual(ids(appUrl), [b.body.id]);
    const got = lobbyUrl.events('LOBBY_MESSAGE_CREATE')[0];
    assert.equal(got.verified, true, 'signed with the app key');
    assert.equal(got.body.event.data.content, 'to the override');
    assert.equal(got.body.application_id, t.world.applicationId);
    // The delivery log names the URL each attempt went to.
    const log = await t.server.ctx.repos.store.db
      .selectFrom('event_webhook_deliveries')
      .select(['url', 'ok'])
      .where('event_type', '=', 'LOBBY_MESSAGE_CREATE')
      .execute();
    assert.deepEqual(log.map((l) => l.url).sort(), [appUrl.url, lobbyUrl.url].sort());

    // Clearing the override sends the lobby's next events to the app URL again.
    const cleared = await bot(`/lobbies/${withOverride.body.id}`, 'PATCH', { override_event_webhooks_url: null });
    assert.equal(cleared.status, 200, cleared.text);
    const c = await bot(`/lobbies/${withOverride.body.id}/messages`, 'POST', { content: 'back to the app' });
    const rowC = await settled('LOBBY_MESSAGE_CREATE', c.body.id);
    assert.equal(rowC.url, null);
    assert.deepEqual(ids(appUrl).sort(), [b.body.id, c.body.id].sort());
    assert.deepEqual(ids(lobbyUrl), [a.body.id]);
  });

  test('the override does not send what the app did not subscribe to, nor while its event webhooks are off', T, async () => {
    const alice = t.world.users[0].id;
    const owner = t.world.users[0].token;
    const patchApp = async (body: unknown) =>
      assert.equal((await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: owner, body })).status, 200);
    const lobby = await bot('/lobbies', 'POST', { members: [{ id: alice }], override_event_webhooks_url: lobbyUrl.url });
    const send = async (content: string) => {
      const r = await bot(`/lobbies/${lobby.body.id}/messages`, 'POST', { content });
      assert.equal(r.status, 201, r.text);
      return r.body.id as string;
    };
    const rowsFor = async (id: string) =>
      (await t.server.ctx.repos.store.db.selectFrom('event_webhook_outbox').select('body').execute()).filter((r) => JSON.parse(r.body).event.data.id === id);

    // Not subscribed to LOBBY_MESSAGE_CREATE, then switched off: neither message gets an outbox row.
    await patchApp({ event_webhooks_types: ['LOBBY_MESSAGE_UPDATE'] });
    const unsubscribed = await send('not subscribed');
    await patchApp({ event_webhooks_types: ['LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE'], event_webhooks_status: 1 });
    const switchedOff = await send('switched off');
    // Sentinel: switched on again, a later message is delivered to the override; the two before it were decided first.
    await patchApp({ event_webhooks_status: 2 });
    const sentinel = await send('sentinel');
    await settled('LOBBY_MESSAGE_CREATE', sentinel);
    assert.deepEqual(await rowsFor(unsubscribed), []);
    assert.deepEqual(await rowsFor(switchedOff), []);
    assert.ok(lobbyUrl.events('LOBBY_MESSAGE_CREATE').some((e) => e.body.event.data.id === sentinel));
    assert.ok(!lobbyUrl.received.some((e) => [unsubscribed, switchedOff].includes(e.body?.event?.data?.id)));
  });
});
