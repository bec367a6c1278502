/**
 * Issue 14, defects 3, 4 and 5 through the real server: URL fields under one policy (no javascript:, data:… URLs, and
 * never a javascript: location from POST /oauth2/authorize), app endpoints' answers read with a size cap, and outgoing
 * requests refused for private addresses with "refused by policy" in the verification error and the delivery log.
 *
 * No packet leaves loopback: where a URL names a private or public host, the server's guarded client gets injected
 * DNS answers and a socket opener that records the address and connects to a local receiver instead.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from './helpers/server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until } from './helpers/wait.js';
import { outgoingFor, type Resolved, type SocketConnector } from '../src/core/outgoing.js';
import { loadConfig } from '../src/config.js';
import { enqueueWebhookEvent } from '../src/services/apps/webhook-events/outbox.js';

let t: TestServer;
let receiver: WebhookReceiver;
let receiverPort = 0;
/** Every address the server's client was asked to connect to through the fake network. */
const attempts: string[] = [];
/** Host name → the answer the injected resolver gives now. */
const dnsAnswers = new Map<string, string>();

before(async () => {
  t = await startTestServer(); // listens on 127.0.0.1 without --dev: loopback is allowed by default
  receiver = await WebhookReceiver.start();
  receiverPort = Number(new URL(receiver.url).port);
  const connect: SocketConnector = (opts, cb) => {
    attempts.push(opts.hostname);
    const socket = net.connect(receiverPort, '127.0.0.1'); // whatever the address, the bytes go to the local receiver
    socket.once('connect', () => cb(null, socket));
    socket.once('error', (err) => cb(err, null));
  };
  const resolve = async (host: string): Promise<Resolved[]> => {
    const ip = dnsAnswers.get(host);
    if (!ip) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address: ip, family: net.isIP(ip) as 4 | 6 }];
  };
  outgoingFor(t.server.ctx).setDeps({ resolve, connect });
});
after(async () => {
  await receiver?.close();
  await t?.close();
});

const owner = () => t.world.users[0].token;
const patchApp = (body: unknown) => t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: owner(), body });

function fieldCode(res: { status: number; body: any; text: string }, path: (string | number)[]): string {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 50035, res.text);
  let node = res.body.errors;
  for (const k of path) node = node?.[k];
  assert.ok(node?._errors?.[0], `an error at ${path.join('.')}: ${res.text}`);
  return node._errors[0].code;
}

test("redirect_uris: javascript:, data:, vbscript: and file: are refused; http(s) and an app's own scheme are kept", async () => {
  for (const bad of [
    'javascript:alert(document.domain)//',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
  ]) {
    const code = fieldCode(await patchApp({ redirect_uris: ['https://ok.example/cb', bad] }), ['redirect_uris', '1']);
    assert.equal(code, 'URL_TYPE_INVALID_SCHEME', bad);
  }
  for (const bad of [' javascript:alert(1)', 'java\tscript:alert(1)', 'https://user:pw@ok.example/cb', 'not a url']) {
    assert.equal(fieldCode(await patchApp({ redirect_uris: [bad] }), ['redirect_uris', '0']), 'URL_TYPE_INVALID_URL', bad);
  }
  const good = [
    'https://ok.example/cb',
    'http://127.0.0.1/callback',
    'mygame:/authorize/callback',
    `discord-${t.world.applicationId}:/authorize/callback`,
    'com.example.game:/authorize/callback',
  ];
  const ok = await patchApp({ redirect_uris: good });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.redirect_uris, good);
});

test('role_connections_verification_url, custom_install_url, rpc_origins: http(s) only', async () => {
  assert.equal(
    fieldCode(await patchApp({ role_connections_verification_url: 'javascript:alert(1)' }), ['role_connections_verification_url']),
    'URL_TYPE_INVALID_SCHEME',
  );
  assert.equal(fieldCode(await patchApp({ custom_install_url: 'data:text/html,x' }), ['custom_install_url']), 'URL_TYPE_INVALID_SCHEME');
  assert.equal(fieldCode(await patchApp({ custom_install_url: 'mygame:/install' }), ['custom_install_url']), 'URL_TYPE_INVALID_SCHEME');
  assert.equal(fieldCode(await patchApp({ rpc_origins: ['javascript:x'] }), ['rpc_origins', '0']), 'URL_TYPE_INVALID_SCHEME');
  const ok = await patchApp({ role_connections_verification_url: 'https://ok.example/verify', custom_install_url: 'https://ok.example/install' });
  assert.equal(ok.status, 200, ok.text);
});

test('POST /oauth2/authorize never answers a javascript: location, even for a URI saved before the policy', async () => {
  const evil = 'javascript:alert(document.domain)//';
  await t.server.ctx.repos.store.db
    .updateTable('applications')
    .set({ redirect_uris: JSON.stringify([evil]) } as any)
    .where('id', '=', t.world.applicationId)
    .execute();
  for (const query of [{ redirect_uri: evil }, {}] as Record<string, string>[]) {
    const qs = new URLSearchParams({ client_id: t.world.applicationId, response_type: 'code', scope: 'identify', ...query });
    const res = await t.api(`/oauth2/authorize?${qs}`, { method: 'POST', token: t.world.users[1].token, body: { authorize: true } });
    assert.equal(res.status, 400, res.text);
    assert.doesNotMatch(res.text, /"location"/);
    assert.equal(res.body.errors?.redirect_uri?._errors?.[0]?.code, 'REDIRECT_URI_INVALID', res.text);
  }
  await patchApp({ redirect_uris: ['https://ok.example/cb'] });
});

/** A local endpoint whose answers the test scripts: the first request gets `first`, later ones `rest`. */
async function scripted(first: (res: http.ServerResponse) => void, rest: (res: http.ServerResponse) => void) {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => (n++ === 0 ? first(res) : rest(res)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

test('a 32 MB answer to the verification PING is not buffered: the interactions endpoint and the event webhook URL are refused', async () => {
  const huge = Buffer.concat([Buffer.from('{"type":1,"pad":"'), Buffer.alloc(32 * 1024 * 1024, 0x61), Buffer.from('"}')]);
  const interactions = await scripted(
    (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(huge),
    (res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{}'),
  );
  try {
    assert.equal(
      fieldCode(await patchApp({ interactions_endpoint_url: interactions.url }), ['interactions_endpoint_url']),
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    );
  } finally {
    await interactions.close();
  }
  const events = await scripted(
    (res) => res.writeHead(204).end(),
    (res) => res.writeHead(401, { 'content-type': 'application/octet-stream' }).end(huge),
  );
  try {
    assert.equal(fieldCode(await patchApp({ event_webhooks_url: events.url }), ['event_webhooks_url']), 'APPLICATION_EVENT_WEBHOOKS_URL_INVALID');
  } finally {
    await events.close();
  }
});

test('outgoing requests to private, link-local and metadata addresses are refused by policy, without a connection', async () => {
  dnsAnswers.set('internal.example', '10.0.0.5');
  dnsAnswers.set('meta.example', '169.254.169.254');
  dnsAnswers.set('v6.example', 'fd00::5');
  const before = attempts.length;
  for (const url of [
    'https://internal.example/i',
    'https://meta.example/latest',
    'https://v6.example/i',
    'https://169.254.169.254/latest',
    'https://[::ffff:10.0.0.5]/i',
  ]) {
    for (const field of ['interactions_endpoint_url', 'event_webhooks_url']) {
      const res = await patchApp({ [field]: url });
      assert.ok(/_URL_INVALID$/.test(fieldCode(res, [field])), res.text);
      assert.match(res.body.errors[field]._errors[0].message, /refused by policy/, res.text);
      assert.doesNotMatch(res.text, /ECONN|EHOST|ENET|10\.0\.0\.5|169\.254/);
    }
  }
  // Plain http to an address the operator did not allow is refused on the field itself.
  for (const url of ['http://10.0.0.5/i', 'http://internal.example/i', 'http://93.184.216.34/i']) {
    assert.equal(fieldCode(await patchApp({ interactions_endpoint_url: url }), ['interactions_endpoint_url']), 'URL_TYPE_INVALID_SCHEME', url);
  }
  assert.equal(attempts.length, before, `no connection was opened: ${attempts.slice(before).join(', ')}`);
});

test('the delivery log shows "refused by policy" when the webhook host moves to a private address (DNS rebinding)', async () => {
  dnsAnswers.set('hooks.example', '93.184.216.34');
  const me = await t.api(`/applications/${t.world.applicationId}`, { token: owner() });
  receiver.publicKey = me.body.verify_key;
  const saved = await patchApp({
    event_webhooks_url: 'https://hooks.example/events',
    event_webhooks_status: 2,
    event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
  });
  assert.equal(saved.status, 200, saved.text);
  assert.ok(attempts.includes('93.184.216.34'), 'the verification went to the public address');

  dnsAnswers.set('hooks.example', '10.20.30.40');
  const before = attempts.length;
  const id = await enqueueWebhookEvent(t.server.ctx, t.world.applicationId, 'LOBBY_MESSAGE_CREATE', { id: '1', lobby_id: '2', content: 'x' });
  assert.ok(id);
  const deliveries = async () =>
    (await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries?event_type=LOBBY_MESSAGE_CREATE`, { token: owner() })).body;
  const log = await until(
    async () => {
      const l = await deliveries();
      return l.length >= 1 && l;
    },
    30_000,
    'a delivery record',
  );
  assert.equal(log[0].ok, false);
  assert.equal(log[0].status_code, null);
  assert.equal(log[0].error, 'refused by policy');
  assert.equal(attempts.length, before, 'no connection to the private address');
});

test("a lobby's override_event_webhooks_url follows the same policy", async () => {
  const lobby = (url: string) =>
    t.api('/lobbies', {
      method: 'POST',
      token: t.world.botToken,
      bot: true,
      body: { members: [{ id: t.world.users[0].id }], override_event_webhooks_url: url },
    });
  assert.equal(fieldCode(await lobby('javascript:alert(1)'), ['override_event_webhooks_url']), 'URL_TYPE_INVALID_SCHEME');
  assert.equal(fieldCode(await lobby('http://10.0.0.5/hook'), ['override_event_webhooks_url']), 'URL_TYPE_INVALID_SCHEME');
  const ok = await lobby('https://hooks.example/lobby');
  assert.equal(ok.status, 201, ok.text);
});

test('--outgoing-allow is a flag, an environment variable and a config key; a bad range stops the start', () => {
  assert.equal(loadConfig(['--outgoing-allow', '10.0.0.0/8,fd00::/8'], {}).outgoingAllow, '10.0.0.0/8,fd00::/8');
  assert.equal(loadConfig([], { ACCORD_OUTGOING_ALLOW: '192.168.0.0/16' }).outgoingAllow, '192.168.0.0/16');
  assert.throws(() => loadConfig(['--outgoing-allow', '10.0.0.0/40'], {}), /outgoing-allow/);
});
