/**
 * Linked roles: an app's role-connection metadata records (≤ 5; key 1–50 of a-z 0-9 _, name 1–100, description
 * 1–200, type 1–8, localizations) and the user's role connection to the app (OAuth2 role_connections.write;
 * platform_name ≤ 50, platform_username ≤ 100, metadata values typed by the app's records).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { issueToken } from '../src/services/identity/tokens.js';

const T = { timeout: 30_000 };

describe('role connections', () => {
  let t: TestServer;
  let appId: string;
  let userBearer: string;
  const bot = (path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
  const mine = (method = 'GET', body?: unknown, token = userBearer, app = appId) =>
    t.api(`/users/@me/applications/${app}/role-connection`, { method, token, body });
  const records = [
    { type: 2, key: 'level', name: 'Level', description: 'Level at least', name_localizations: { fr: 'Niveau', de: null } },
    { type: 6, key: 'since', name: 'Member since', description: 'Days since joining' },
    { type: 7, key: 'verified', name: 'Verified', description: 'Has a verified account', description_localizations: { fr: 'Compte vérifié' } },
  ];

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    appId = t.world.applicationId;
    userBearer = `Bearer ${await issueToken(t.server.ctx, t.world.users[1].id, 'bearer', { applicationId: appId, scopes: ['identify', 'role_connections.write'] })}`;
  });
  after(async () => {
    await t?.close();
  });

  test('metadata records: empty at first, replaced by PUT (bot or owner), localizations cleaned', T, async () => {
    const empty = await bot(`/applications/${appId}/role-connections/metadata`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, []);
    const put = await bot(`/applications/${appId}/role-connections/metadata`, 'PUT', records);
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, [
      { type: 2, key: 'level', name: 'Level', name_localizations: { fr: 'Niveau' }, description: 'Level at least' },
      { type: 6, key: 'since', name: 'Member since', description: 'Days since joining' },
      { type: 7, key: 'verified', name: 'Verified', description: 'Has a verified account', description_localizations: { fr: 'Compte vérifié' } },
    ]);
    const byOwner = await t.api(`/applications/${appId}/role-connections/metadata`, { token: t.world.users[0].token });
    assert.deepEqual(byOwner.body, put.body);
    const notOwner = await t.api(`/applications/${appId}/role-connections/metadata`, { token: t.world.users[1].token });
    assert.equal(notOwner.status, 403, notOwner.text);
    assert.equal(notOwner.body.code, 20012);
    assert.equal((await bot('/applications/1/role-connections/metadata')).body.code, 10002);
  });

  test('metadata records are validated (count, key, lengths, type, locales, unique keys)', T, async () => {
    const bad = async (body: unknown, path: (string | number)[]) => {
      const r = await bot(`/applications/${appId}/role-connections/metadata`, 'PUT', body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.code, 50035);
      let node = r.body.errors;
      for (const k of path) node = node?.[k];
      assert.ok(node?._errors?.length, `${JSON.stringify(body).slice(0, 100)} → ${r.text}`);
    };
    const ok = { type: 1, key: 'k', name: 'n', description: 'd' };
    await bad(
      Array.from({ length: 6 }, (_, i) => ({ ...ok, key: `k${i}` })),
      [],
    );
    await bad([{ ...ok, key: 'Level' }], [0, 'key']);
    await bad([{ ...ok, key: 'with-dash' }], [0, 'key']);
    await bad([{ ...ok, key: 'k'.repeat(51) }], [0, 'key']);
    await bad([{ ...ok, key: '' }], [0, 'key']);
    await bad([{ ...ok, name: '' }], [0, 'name']);
    await bad([{ ...ok, name: 'n'.repeat(101) }], [0, 'name']);
    await bad([{ ...ok, description: 'd'.repeat(201) }], [0, 'description']);
    await bad([{ ...ok, type: 9 }], [0, 'type']);
    await bad([{ ...ok, type: 0 }], [0, 'type']);
    await bad([{ ...ok, name_localizations: { xx: 'nope' } }], [0, 'name_localizations', 'xx']);
    await bad([ok, { ...ok }], [1, 'key']);
    // Nothing was written by the refused requests.
    assert.equal((await bot(`/applications/${appId}/role-connections/metadata`)).body.length, 3);
  });

  test('the user connection: PUT, GET, values typed by the records, DELETE', T, async () => {
    const none = await mine();
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body, { platform_username: null, metadata: {} });
    const put = await mine('PUT', {
      platform_name: 'Accord Quest',
      platform_username: 'bob#1',
      metadata: { level: '12', since: '2024-01-02T03:04:05Z', verified: '1' },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, {
      platform_name: 'Accord Quest',
      platform_username: 'bob#1',
      metadata: { level: '12', since: '2024-01-02T03:04:05Z', verified: '1' },
    });
    assert.deepEqual((await mine()).body, put.body);
    // Given fields replace, omitted ones stay.
    const partial = await mine('PUT', { platform_username: 'bob#2' });
    assert.equal(partial.body.platform_name, 'Accord Quest');
    assert.equal(partial.body.platform_username, 'bob#2');
    assert.equal(partial.body.metadata.level, '12');

    const bad = async (body: unknown, path: string[]) => {
      const r = await mine('PUT', body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.code, 50035);
      let node = r.body.errors;
      for (const k of path) node = node?.[k];
      assert.ok(node?._errors?.length, `${JSON.stringify(body)} → ${r.text}`);
    };
    await bad({ metadata: { level: 'twelve' } }, ['metadata', 'level']);
    await bad({ metadata: { level: '1.5' } }, ['metadata', 'level']);
    await bad({ metadata: { since: 'yesterday' } }, ['metadata', 'since']);
    await bad({ metadata: { verified: 'yes' } }, ['metadata', 'verified']);
    await bad({ metadata: { unknown_key: '1' } }, ['metadata', 'unknown_key']);
    await bad({ metadata: { level: '1'.repeat(101) } }, ['metadata', 'level']);
    await bad({ platform_name: 'n'.repeat(51) }, ['platform_name']);
    await bad({ platform_username: 'u'.repeat(101) }, ['platform_username']);
    assert.equal((await mine()).body.metadata.level, '12', 'refused requests changed nothing');

    // Values of records the app drops are no longer shown.
    await bot(`/applications/${appId}/role-connections/metadata`, 'PUT', records.slice(0, 1));
    assert.deepEqual((await mine()).body.metadata, { level: '12' });

    assert.equal((await mine('DELETE')).status, 204);
    assert.deepEqual((await mine()).body, { platform_username: null, metadata: {} });
    assert.equal((await mine('DELETE')).status, 204, 'deleting again is harmless');
  });

  test('who may call: role_connections.write on a token of that app; bots never', T, async () => {
    const noScope = `Bearer ${await issueToken(t.server.ctx, t.world.users[1].id, 'bearer', { applicationId: appId, scopes: ['identify'] })}`;
    const r = await mine('GET', undefined, noScope);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.code, 50026);
    const other = await t.api('/applications', { method: 'POST', token: t.world.users[0].token, body: { name: 'Other' } });
    assert.equal(other.status, 200, other.text);
    const wrongApp = await mine('GET', undefined, userBearer, other.body.id);
    assert.equal(wrongApp.status, 403, wrongApp.text);
    const asBot = await t.api(`/users/@me/applications/${appId}/role-connection`, { token: t.world.botToken, bot: true });
    assert.equal(asBot.status, 403, asBot.text);
    assert.equal(asBot.body.code, 20001);
    assert.equal((await mine('GET', undefined, userBearer, '1')).body.code, 10002);
    // Bearer tokens never reach the app's records.
    const rec = await t.api(`/applications/${appId}/role-connections/metadata`, { token: userBearer });
    assert.equal(rec.status, 401, rec.text);
  });
});
