import assert from 'node:assert/strict';
import type { TestServer } from '../../../server/test/helpers/server.ts';

/**
 * The platform side of the Activity tests: the seed app becomes an Activity (EMBEDDED, URL mappings to a test
 * backend) with a client secret for the backend's token exchange, a published SKU to buy, and a third person.
 */
export interface ActivityWorld {
  appId: string;
  clientSecret: string;
  skuId: string;
  entryPointId: string;
}

export async function makeActivityApp(t: TestServer, backendOrigin: string): Promise<ActivityWorld> {
  const owner = { token: t.world.users[0].token };
  const appId = t.world.applicationId;
  const app = (await t.api(`/applications/${appId}`, owner)).body;
  const target = backendOrigin.replace(/\/$/, '');
  const patched = await t.api(`/applications/${appId}`, {
    ...owner,
    method: 'PATCH',
    body: {
      flags: app.flags | (1 << 17),
      description: 'A test Activity built on the Embedded App SDK',
      proxy_config: {
        url_map: [
          { prefix: '/', target },
          { prefix: '/api', target: `${target}/api` },
        ],
      },
      embedded_activity_config: { supported_platforms: ['web'], default_orientation_lock_state: 1 },
    },
  });
  assert.equal(patched.status, 200, patched.text);
  const secret = await t.api(`/applications/${appId}/reset`, { ...owner, method: 'POST' });
  assert.equal(secret.status, 200, secret.text);
  const sku = await t.api(`/applications/${appId}/skus`, { ...owner, method: 'POST', body: { name: 'Golden Paddle', type: 2, price: 299, published: true } });
  assert.ok(sku.status === 200 || sku.status === 201, sku.text);
  const cmds = await t.api(`/applications/${appId}/commands`, { token: t.world.botToken, bot: true });
  const entry = cmds.body.find((c: any) => c.type === 4);
  assert.ok(entry, 'enabling Activities made the Launch entry point');
  return { appId, clientSecret: secret.body.secret, skuId: sku.body.id, entryPointId: entry.id };
}
