// engine-independent: TLS belongs to the listener and the URLs it advertises; no store query depends on it
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './helpers/server.js';
import os from 'node:os';
import { loadLocalTls, localCaPath } from '../src/core/local-tls.js';
import { loadConfig, type Config } from '../src/config.js';
import { prepareApiTls } from '../src/http/listener.js';

/**
 * `--tls`: the HTTP API, CDN and Gateway on one port over HTTPS/WSS, with a certificate from the local CA. Libraries
 * that only speak https to port 443 (Eris) and discord.js run in child processes that trust the CA through
 * NODE_EXTRA_CA_CERTS (Node reads it only at start), as a user would start their bot.
 */
const CLIENTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tls-clients');

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** One request over http or https; `ca` is the only trust given (none: the system's). */
function request(url: string, opts: { ca?: string; method?: string; token?: string; json?: unknown } = {}): Promise<Answer> {
  const u = new URL(url);
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = opts.token;
  if (body) headers['content-type'] = 'application/json';
  const send = u.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(u, { method: opts.method ?? 'GET', headers, ca: opts.ca }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        let parsed: any = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
        resolve({ status: res.statusCode ?? 0, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Step {
  step: string;
  [k: string]: any;
}

/** A client script in a child process that trusts `caPath`; its JSON lines are steps to wait for. */
function runClient(args: string[], caPath: string, env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const steps: Step[] = [];
  let err = '';
  let waiters: (() => void)[] = [];
  let buf = '';
  child.stdout!.on('data', (d) => {
    buf += d;
    const lines = buf.split('\n');
    buf = lines.pop()!;
    for (const l of lines) if (l.startsWith('{')) steps.push(JSON.parse(l));
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      for (const w of waiters) w();
      resolve();
    }),
  );
  /** The first step matching `pred`; fails on an `error` step or the child's exit. */
  function waitFor(pred: (s: Step) => boolean): Promise<Step> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = steps.find(pred);
        const bad = steps.find((s) => s.step === 'error');
        if (hit) resolve(hit);
        else if (bad) reject(new Error(`client error: ${bad.message}\n${err.slice(-2000)}`));
        else if (child.exitCode !== null || child.signalCode !== null)
          reject(new Error(`client exited (${child.exitCode ?? child.signalCode}) ${JSON.stringify(steps)}\n${err.slice(-2000)}`));
        else return;
        waiters = waiters.filter((w) => w !== check);
      };
      waiters.push(check);
      check();
    });
  }
  async function stop() {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  }
  return { waitFor, stop, steps };
}

/** --tls on a given port; a port that is taken or not ours to bind fails with the reason, not a hang. */
async function startTlsServer(port: number, more: Partial<Config> = {}): Promise<TestServer> {
  try {
    return await startTestServer({ tls: true, port, voicePort: 0, ...more });
  } catch (err: any) {
    if (err?.code === 'EADDRINUSE') throw new Error(`port ${port} is taken on 127.0.0.1: this test needs it free (${err.message})`, { cause: err });
    if (err?.code === 'EACCES') throw new Error(`port ${port} needs root or CAP_NET_BIND_SERVICE (${err.message})`, { cause: err });
    throw err;
  }
}

describe('--tls --port 443', () => {
  let t: TestServer;
  let ca: string;
  before(async () => {
    t = await startTlsServer(443);
    ca = fs.readFileSync(localCaPath(t.server.ctx.config.dataDir), 'utf8');
  });
  after(async () => {
    await t?.close();
  });

  test('An Eris-style client that only speaks https to port 443 works against --tls --port 443', { timeout: 60_000 }, async () => {
    assert.equal(t.server.url, 'https://127.0.0.1', 'the default port of https is not written');
    const alice = t.world.users[0];
    const eris = runClient([path.join(CLIENTS, 'eris.mjs'), t.world.botToken, t.world.textChannelId], localCaPath(t.server.ctx.config.dataDir));
    try {
      const ready = await eris.waitFor((s) => s.step === 'ready');
      assert.equal(ready.user, t.world.botUserId);
      assert.match(ready.gateway, /^wss:\/\/127\.0\.0\.1\/?\?v=10&encoding=json/, 'the Gateway URL from GET /gateway/bot is wss on the default port');

      const sent = await eris.waitFor((s) => s.step === 'sent');
      assert.equal(sent.content, 'eris over https');
      const stored = await request(`${t.server.url}/api/v10/channels/${t.world.textChannelId}/messages/${sent.id}`, { ca, token: alice.token });
      assert.equal(stored.status, 200, stored.text);
      assert.equal(stored.body.author.id, t.world.botUserId);

      const up = await eris.waitFor((s) => s.step === 'uploaded');
      assert.equal(up.content, 'eris upload');
      assert.equal(up.attachments.length, 1);
      assert.equal(up.attachments[0].filename, 'hello.txt');
      assert.match(up.attachments[0].url, /^https:\/\/127\.0\.0\.1\/attachments\//, 'CDN URLs are built from the https base');
      const file = await request(up.attachments[0].url, { ca });
      assert.equal(file.status, 200);
      assert.equal(file.text, 'hello over tls');

      // A message from someone else reaches Eris as a MESSAGE_CREATE over wss.
      const posted = await request(`${t.server.url}/api/v10/channels/${t.world.textChannelId}/messages`, {
        ca,
        method: 'POST',
        token: alice.token,
        json: { content: 'hello eris' },
      });
      assert.equal(posted.status, 200, posted.text);
      const seen = await eris.waitFor((s) => s.step === 'messageCreate' && s.id === posted.body.id);
      assert.equal(seen.content, 'hello eris');
      assert.equal(seen.author, alice.id);
    } finally {
      await eris.stop();
    }
  });

  test('plain HTTP to the TLS port is not served, and the certificate is only trusted with the local CA', async () => {
    await assert.rejects(
      request('http://127.0.0.1:443/api/v10/gateway'),
      (err: any) => ['ECONNRESET', 'EPIPE'].includes(err.code) || /socket hang up/.test(err.message),
    );
    await assert.rejects(request('https://127.0.0.1:443/api/v10/gateway'), (err: any) =>
      /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER_CERT/.test(err.code),
    );
    const ok = await request('https://127.0.0.1:443/api/v10/gateway', { ca });
    assert.deepEqual(ok.body, { url: 'wss://127.0.0.1' });
  });
});

describe('--tls on a random port', () => {
  let t: TestServer;
  let ca: string;
  before(async () => {
    t = await startTlsServer(0);
    ca = fs.readFileSync(localCaPath(t.server.ctx.config.dataDir), 'utf8');
  });
  after(async () => {
    await t?.close();
  });

  test('GET /gateway and /gateway/bot advertise wss://, OAuth2 and webhook URLs https://', async () => {
    const port = t.server.port;
    assert.equal(t.server.url, `https://127.0.0.1:${port}`);
    const gw = await request(`${t.server.url}/api/v10/gateway`, { ca });
    assert.deepEqual(gw.body, { url: `wss://127.0.0.1:${port}` });
    const bot = await request(`${t.server.url}/api/v10/gateway/bot`, { ca, token: `Bot ${t.world.botToken}` });
    assert.equal(bot.status, 200, bot.text);
    assert.equal(bot.body.url, `wss://127.0.0.1:${port}`);
    const hook = await request(`${t.server.url}/api/v10/channels/${t.world.textChannelId}/webhooks`, {
      ca,
      method: 'POST',
      token: t.world.users[0].token,
      json: { name: 'tls hook' },
    });
    assert.equal(hook.status, 200, hook.text);
    assert.ok(hook.body.url.startsWith(`https://127.0.0.1:${port}/api/webhooks/`), hook.body.url);
  });

  test("the generated certificate covers the platform's host names (clients pointed here through /etc/hosts)", async () => {
    for (const servername of ['discord.com', 'gateway.discord.gg', 'cdn.discordapp.com', 'localhost']) {
      const socket = tls.connect({ host: '127.0.0.1', port: t.server.port, servername, ca });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      assert.equal(socket.authorized, true, `${servername}: ${socket.authorizationError}`);
      socket.destroy();
    }
  });

  test('discord.js logs in over https and wss with the CA trusted, sends and receives MESSAGE_CREATE', { timeout: 60_000 }, async () => {
    const alice = t.world.users[0];
    const djs = runClient(
      [path.join(CLIENTS, 'discordjs.mjs'), `${t.server.url}/api`, t.world.botToken, t.world.textChannelId],
      localCaPath(t.server.ctx.config.dataDir),
    );
    try {
      const ready = await djs.waitFor((s) => s.step === 'ready');
      assert.equal(ready.user, t.world.botUserId);
      const sent = await djs.waitFor((s) => s.step === 'sent');
      assert.equal(sent.content, 'discord.js over wss');
      const posted = await request(`${t.server.url}/api/v10/channels/${t.world.textChannelId}/messages`, {
        ca,
        method: 'POST',
        token: alice.token,
        json: { content: 'hello discord.js' },
      });
      assert.equal(posted.status, 200, posted.text);
      const seen = await djs.waitFor((s) => s.step === 'messageCreate' && s.id === posted.body.id);
      assert.equal(seen.content, 'hello discord.js');
    } finally {
      await djs.stop();
    }
  });
});

describe('--tls-cert and --tls-key', () => {
  test("a given certificate and key are served instead of the local CA's, and one without the other stops the start", async () => {
    // Material from another CA, as an operator's own certificate would be: issued for a name of its own.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-own-cert-'));
    const own = loadLocalTls({ dir: elsewhere, hosts: ['accord.test'], leaf: 'api', flags: ['-', '-'] });
    const certPath = path.join(elsewhere, 'own-cert.pem');
    const keyPath = path.join(elsewhere, 'own-key.pem');
    fs.writeFileSync(certPath, own.cert);
    fs.writeFileSync(keyPath, own.key);
    assert.throws(() => prepareApiTls(loadConfig(['--tls-cert', certPath], {})), /needs both --tls-cert and --tls-key/);
    const t = await startTestServer({ tlsCert: certPath, tlsKey: keyPath, voicePort: 0 });
    try {
      assert.equal(t.server.ctx.config.tls, true, '--tls-cert implies --tls');
      assert.ok(t.server.url.startsWith('https://'));
      const socket = tls.connect({ host: '127.0.0.1', port: t.server.port, servername: 'accord.test', ca: fs.readFileSync(own.caPath!, 'utf8') });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      assert.equal(socket.authorized, true, String(socket.authorizationError));
      assert.equal(socket.getPeerX509Certificate()?.subjectAltName, 'DNS:accord.test');
      socket.destroy();
    } finally {
      await t.close();
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('--intercept: a bot that hard-codes the platform runs unmodified', () => {
  let t: TestServer;
  before(async () => {
    t = await startTlsServer(443, { intercept: true });
  });
  after(() => t?.close());

  test('discord.js with no settings logs in through discord.com and gateway.discord.gg, sends and receives', { timeout: 60_000 }, async () => {
    // This process does not map the names: it calls 127.0.0.1 (the certificate covers both).
    const ca = fs.readFileSync(localCaPath(t.server.ctx.config.dataDir), 'utf8');
    const api = (p: string, json?: unknown) =>
      request(`https://127.0.0.1/api/v10${p}`, { ca, token: t.world.users[0].token, method: json ? 'POST' : 'GET', json });
    const gw = await api('/gateway');
    assert.equal(gw.body.url, 'wss://gateway.discord.gg', "the Gateway is advertised under the platform's name");
    const hosts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../testing/intercept-hosts.mjs');
    const bot = runClient([path.join(CLIENTS, 'hardcoded-discordjs.mjs'), t.world.botToken, t.world.textChannelId], localCaPath(t.server.ctx.config.dataDir), {
      NODE_OPTIONS: `--import ${hosts} --import ${path.join(CLIENTS, 'record-lookups.mjs')}`,
    });
    try {
      const ready = await bot.waitFor((s) => s.step === 'ready');
      assert.equal(ready.user, t.world.botUserId);
      const sent = await bot.waitFor((s) => s.step === 'sent');
      assert.equal((await api(`/channels/${t.world.textChannelId}/messages/${sent.id}`)).body.content, 'hard-coded, intercepted');
      await api(`/channels/${t.world.textChannelId}/messages`, { content: 'to the intercepted bot' });
      await bot.waitFor((s) => s.step === 'messageCreate' && s.content === 'to the intercepted bot');
      const dialled = new Set(bot.steps.filter((s) => s.step === 'lookup').map((s) => s.host));
      assert.deepEqual([...dialled].sort(), ['discord.com', 'gateway.discord.gg'], 'the REST API on discord.com, the Gateway on gateway.discord.gg');
    } finally {
      await bot.stop();
    }
  });
});
