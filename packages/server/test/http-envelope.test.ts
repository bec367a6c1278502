import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => t.close());

const patchChannel = (body: string, contentType = 'application/json') =>
  fetch(`${t.server.url}/api/v10/channels/${t.world.textChannelId}`, {
    method: 'PATCH',
    headers: { authorization: t.world.users[0].token, 'content-type': contentType },
    body,
  });

test('"__proto__" keys in a body are ordinary keys: errors name them and Object.prototype stays clean', async () => {
  const res = await patchChannel('{"name":{"__proto__":{"polluted":1}},"permission_overwrites":[{"__proto__":{"_errors":1}}]}');
  assert.equal(res.status, 400);
  const body: any = await res.json();
  assert.equal(body.code, 50035);
  assert.equal(({} as any).polluted, undefined);
  assert.equal(({} as any)._errors, undefined);
  assert.equal(Object.getOwnPropertyNames(Object.prototype).includes('polluted'), false);
});

test('NUL characters are refused with 50035 at their path, on every engine', async () => {
  const res = await patchChannel(JSON.stringify({ topic: 'a\u0000b' }));
  assert.equal(res.status, 400);
  const body: any = await res.json();
  assert.equal(body.errors.topic._errors[0].code, 'STRING_TYPE_INVALID_CHARACTERS');
  const after = await t.api(`/channels/${t.world.textChannelId}`, { token: t.world.users[0].token });
  assert.equal(after.body.topic, null);
});

test('an unsupported content type is 50035, not silently ignored', async () => {
  const res = await patchChannel('name=x', 'application/octet-stream');
  assert.equal(res.status, 400);
  const body: any = await res.json();
  assert.equal(body.code, 50035);
  assert.equal(body.errors._errors[0].code, 'CONTENT_TYPE_INVALID');
});

test('JSON answers carry the bare application/json type the platform sends', async () => {
  const ok = await fetch(`${t.server.url}/api/v10/gateway`);
  assert.equal(ok.headers.get('content-type'), 'application/json');
  const err = await patchChannel('{bad');
  assert.equal(err.headers.get('content-type'), 'application/json');
  assert.deepEqual(await err.json(), { message: 'The request body contains invalid JSON.', code: 50109 });
});
