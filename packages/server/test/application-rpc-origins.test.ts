import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './helpers/server.js';
import { expectError } from './helpers/fixtures.js';

/** rpc_origins: the origins allowed to open the local client's RPC WebSocket for an app (read by its /rpc view). */
describe('application rpc_origins', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  it('the owner sets them; the app object and the public /rpc view show them; other settings stay', async () => {
    const owner = t.world.users[0];
    const id = t.world.applicationId;
    assert.deepEqual((await t.api(`/oauth2/applications/${id}/rpc`)).body.rpc_origins, []);
    const r = await t.api(`/applications/${id}`, {
      method: 'PATCH',
      token: owner.token,
      body: { rpc_origins: ['https://game.example', 'http://localhost:3344'], tags: ['rpc'] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.rpc_origins, ['https://game.example', 'http://localhost:3344']);
    assert.deepEqual(r.body.tags, ['rpc']);
    assert.deepEqual((await t.api(`/oauth2/applications/${id}/rpc`)).body.rpc_origins, ['https://game.example', 'http://localhost:3344']);
    const again = await t.api(`/applications/${id}`, { method: 'PATCH', token: owner.token, body: { description: 'still there?' } });
    assert.deepEqual(again.body.rpc_origins, ['https://game.example', 'http://localhost:3344']);
  });

  it('refuses what is not a URL, and other people', async () => {
    const id = t.world.applicationId;
    expectError(await t.api(`/applications/${id}`, { method: 'PATCH', token: t.world.users[0].token, body: { rpc_origins: ['not an origin'] } }), 400, 50035);
    const bob = await t.api(`/applications/${id}`, { method: 'PATCH', token: t.world.users[1].token, body: { rpc_origins: ['https://evil.example'] } });
    assert.notEqual(bob.status, 200);
  });
});
