// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from './helpers/server.js';
import { botConnection, interactionRound, Person } from './helpers/compat.js';

/**
 * A second-language client: discord.py 2.x (Debian's python3-discord, run by the system Python that sees it), pointed
 * at Accord only through Route.BASE, the gateway URL from GET /gateway/bot and Asset.BASE. `.ci/run` installs it.
 */
const PYTHON = '/usr/bin/python3';
const SUITE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'discordpy', 'suite.py');
const CHECKS = [
  'ready',
  'replies',
  'bulk_delete',
  'member_chunks',
  'reactions',
  'pins',
  'roles',
  'threads',
  'typing',
  'assets',
  'rate_limit_429',
  'files_embeds',
  'forum',
  'errors',
  'resume',
  'interactions',
];

let t: TestServer;
let person: Person;
before(async () => {
  t = await startTestServer({ rateLimits: 'real' });
  person = await Person.join(t);
});
after(async () => {
  person?.close();
  await t?.close();
});

test('discord.py is installed for the system Python', () => {
  const r = spawnSync(PYTHON, ['-c', 'import discord, sys; sys.stdout.write(discord.__version__)'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `python3-discord is missing (apt-get install -y python3-discord): ${r.stderr}`);
  assert.match(r.stdout, /^2\./);
});

test(
  'discord.py: replies, bulk delete, member chunks, reactions, pins, roles, threads, typing, assets, a 429 waited out, files and embeds, a forum post, errors, RESUME and interactions',
  { timeout: 300_000 },
  async () => {
    const env = {
      ...process.env,
      PYTHONUNBUFFERED: '1',
      ACCORD_URL: t.server.url,
      ACCORD_BOT_TOKEN: t.world.botToken,
      ACCORD_GUILD_ID: t.world.guildId,
      ACCORD_CHANNEL_ID: t.world.textChannelId,
      ACCORD_BOB_ID: t.world.users[1].id,
    };
    const child = spawn(PYTHON, [SUITE], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let sessionId = '';
    let acted = false;
    let reacted = false;
    child.stdout.on('data', (d) => {
      out += d;
      // The resume check asks for its session to be dropped from the server side (4000: resumable).
      if (!sessionId && out.includes('DROP-ME')) {
        const conn = botConnection(t);
        sessionId = conn?.session?.id ?? '';
        conn?.close(4000, 'dropped by the test');
        person.post('while away').catch((e: unknown) => {
          err += `\nposting while away: ${String(e)}`;
        });
      }
      // The reactions check waits for a person's reaction on its message.
      const reactTo = /^REACT-ME (\d+)$/m.exec(out);
      if (reactTo && !reacted) {
        reacted = true;
        person.react(t.world.textChannelId, reactTo[1]).catch((e: unknown) => {
          err += `\nreacting: ${String(e)}`;
        });
      }
      // The interactions check has synced its commands: act on them as a person, then tell it how that went.
      const ask = /^INTERACT (.*)$/m.exec(out);
      if (ask && !acted) {
        acted = true;
        interactionRound(person, JSON.parse(ask[1]), t.world.textChannelId).then(
          () => child.stdin.write('DONE\n'),
          (e: unknown) => child.stdin.write(`FAIL ${String(e).replace(/\n/g, ' ')}\n`),
        );
      }
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const results = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { check: string; ok: boolean; detail: string });
    const failed = results.filter((r) => !r.ok);
    assert.deepEqual(failed, [], `discord.py checks failed:\n${failed.map((f) => `${f.check}: ${f.detail}`).join('\n')}\n${err.slice(-2000)}`);
    assert.deepEqual(
      results.map((r) => r.check),
      CHECKS,
      `checks run: ${out}\n${err.slice(-2000)}`,
    );
    assert.equal(code, 0, err.slice(-2000));
    assert.ok(sessionId, 'the session was dropped');
  },
);
