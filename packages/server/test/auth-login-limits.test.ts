/**
 * POST /auth/login against guessing (issue 14, defect 7): limits per client IP and per account with exponential
 * back-off per account, on the server clock; an unknown account costs the same password work as a wrong password.
 * The server trusts X-Forwarded-For here (--trust-proxy), so each request can come from its own address; its clock
 * (core/clock.ts, the one the dev routes move) stands still unless the test moves it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { hashPassword, passwordWork, verifyPassword } from '../src/services/identity/passwords.js';
import { loadConfig } from '../src/config.js';
import { LOGIN_LIMITS, backoff } from '../src/services/identity/login-guard.js';

const T = { timeout: 60_000 };
let t: TestServer;

/** The server clock, held still and moved only by the test: the back-off arithmetic is exact however slow the run. */
let now = Date.now();

before(async () => {
  t = await startTestServer({ trustProxy: true });
  t.server.ctx.clock.now = () => now;
});
after(() => t.close());

const login = (ip: string, name: string, password: string) =>
  t.api('/auth/login', { method: 'POST', body: { login: name, password }, headers: { 'x-forwarded-for': ip } });
const advance = (ms: number) => void (now += ms);

async function newUser(name: string) {
  const username = `${name}_${Date.now().toString(36)}`;
  const password = 'the right password';
  const reg = await t.api('/auth/register', { method: 'POST', body: { username, password } });
  assert.equal(reg.status, 200, reg.text);
  return { username, password };
}

test('an unknown account runs the same password check as a wrong password, and gets the same answer', T, async () => {
  const u = await newUser('timing');
  const before = passwordWork.checks;
  const unknown = await login('192.0.2.10', `nobody_${Date.now()}`, 'whatever it is');
  assert.equal(passwordWork.checks, before + 1, 'the unknown account was checked against a dummy hash');
  const wrong = await login('192.0.2.10', u.username, 'not the password');
  assert.equal(passwordWork.checks, before + 2);
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, wrong.body);
  assert.equal(unknown.body.errors.login._errors[0].code, 'INVALID_LOGIN');
  const right = await login('192.0.2.10', u.username, u.password);
  assert.equal(right.status, 200, right.text);
  assert.equal(passwordWork.checks, before + 3);
});

test("a guesser spread over many IPs meets the account's exponential back-off; the owner gets in once it passes", T, async () => {
  const u = await newUser('distributed');
  for (let i = 0; i < LOGIN_LIMITS.FREE_FAILURES; i++) assert.equal((await login(`198.51.100.${i + 1}`, u.username, `guess ${i}`)).status, 400);
  const checks = passwordWork.checks;
  const refused = await login('198.51.100.99', u.username, u.password); // even the right password waits
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.body.retry_after, 1);
  assert.equal(refused.headers.get('retry-after'), '1');
  assert.equal(passwordWork.checks, checks, 'a refused attempt does no password work');

  // Each further failure doubles the wait: 1 s, then 2 s, then 4 s.
  advance(1001);
  assert.equal((await login('198.51.100.20', u.username, 'guess again')).status, 400);
  advance(1500);
  assert.equal((await login('198.51.100.21', u.username, 'too soon')).status, 429);
  advance(501);
  assert.equal((await login('198.51.100.22', u.username, 'guess more')).status, 400);
  assert.equal(backoff(LOGIN_LIMITS.FREE_FAILURES + 2), 4000);
  advance(3000);
  assert.equal((await login('198.51.100.23', u.username, u.password)).status, 429);
  advance(1001);
  const owner = await login('203.0.113.7', u.username, u.password);
  assert.equal(owner.status, 200, owner.text);
  // A success starts the count again.
  assert.equal((await login('198.51.100.24', u.username, 'one more guess')).status, 400);
  assert.equal((await login('203.0.113.7', u.username, u.password)).status, 200);
  assert.equal(backoff(100), LOGIN_LIMITS.MAX_BACKOFF_MS);
});

test(
  'an IP over its limit is refused even for the right password; the locked-out user gets in from another IP, and from the same one once its window passes',
  T,
  async () => {
    const u = await newUser('sharedip');
    const shared = '192.0.2.77';
    for (let i = 0; i < LOGIN_LIMITS.FREE_FAILURES; i++) assert.equal((await login(shared, u.username, `guess ${i}`)).status, 400);
    for (let i = LOGIN_LIMITS.FREE_FAILURES; i < LOGIN_LIMITS.IP_FAILURES; i++)
      assert.equal((await login(shared, `ghost_${i}_${Date.now()}`, 'x')).status, 400);
    const locked = await login(shared, u.username, u.password);
    assert.equal(locked.status, 429, 'the real user behind the same address is locked out');
    assert.ok(locked.body.retry_after > 60, String(locked.body.retry_after));
    // A fresh account from the same address is refused too: the limit is the address's.
    assert.equal((await login(shared, `ghost_last_${Date.now()}`, 'x')).status, 429);

    advance(backoff(LOGIN_LIMITS.FREE_FAILURES) + 1);
    const elsewhere = await login('203.0.113.50', u.username, u.password);
    assert.equal(elsewhere.status, 200, elsewhere.text);
    assert.equal((await login(shared, u.username, u.password)).status, 429, 'the shared address is still within its window');

    advance(LOGIN_LIMITS.IP_WINDOW_MS);
    const back = await login(shared, u.username, u.password);
    assert.equal(back.status, 200, back.text);
  },
);

test("without --trust-proxy, X-Forwarded-For is ignored: every request is the socket's address", T, async () => {
  const plain = await startTestServer();
  try {
    const hit = (ip: string) =>
      plain.api('/auth/login', { method: 'POST', body: { login: `ghost_${Math.random()}`, password: 'x' }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < LOGIN_LIMITS.IP_FAILURES; i++) assert.equal((await hit(`10.1.0.${i + 1}`)).status, 400);
    const r = await hit('10.1.1.1');
    assert.equal(r.status, 429, 'a forged header does not buy a fresh address');
  } finally {
    await plain.close();
  }
});

test('--password-hash-cost: new hashes record their cost, older ones still verify, and out-of-range costs are refused', async () => {
  const cheap = await hashPassword('correct horse', 10);
  assert.match(cheap, /^scrypt\$1024\$/);
  const standard = await hashPassword('correct horse', 14);
  assert.match(standard, /^scrypt\$16384\$/);
  // A server whose cost changed still checks each stored hash at the cost it was made with.
  assert.equal(await verifyPassword('correct horse', standard, 10), true);
  assert.equal(await verifyPassword('correct horse', cheap, 14), true);
  assert.equal(await verifyPassword('wrong horse', cheap, 14), false);
  assert.equal(loadConfig([], {}).passwordHashCost, 14);
  assert.equal(loadConfig(['--dev'], {}).passwordHashCost, 10, 'a dev world hashes at the cheapest cost');
  assert.equal(loadConfig(['--dev', '--password-hash-cost', '14'], {}).passwordHashCost, 14);
  assert.equal(loadConfig(['--password-hash-cost', '12'], {}).passwordHashCost, 12);
  for (const bad of ['9', '18', '12.5', 'x']) assert.throws(() => loadConfig(['--password-hash-cost', bad], {}), /password-hash-cost/);
});
