/**
 * The web client's benchmark (run by hand, never in CI): the initial download, and a channel with 10,000
 * messages opened and scrolled in Chromium, with frame times and long tasks.
 *
 *   npm run bench -w @accord/web            (or: npx tsx bench/web/run.ts [--messages 10000])
 *
 * Results print as a table and go to bench/results/web-latest.json (gitignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startServer } from '../../packages/server/src/server.js';
import { seedWorld } from '../../packages/server/src/dev/seed.js';
import { ensureBuilt, WEB_ROOT } from '../../packages/web/test/helpers/build.js';
import { launch } from '../../packages/web/test/helpers/browser.js';
import { RESULTS_DIR, removeTmpDirs, summary, tmpDataDir } from '../lib.js';
import { PROBE } from './probe.js';
import { initialSize } from './size.js';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const MESSAGES = arg('messages', 10_000);
const round = (n: number) => Math.round(n * 10) / 10;

interface Probe {
  frames: number[];
  longTasks: number[];
}
const frameStats = (p: Probe) => ({
  frames: summary(p.frames),
  over50ms: p.frames.filter((f) => f > 50).length,
  longTasks: p.longTasks.length,
  longTaskMs: round(p.longTasks.reduce((a, b) => a + b, 0)),
  longestTask: round(Math.max(0, ...p.longTasks)),
});

async function main() {
  await ensureBuilt();
  const size = initialSize(path.join(WEB_ROOT, 'dist'));
  console.log(
    `initial download: JS ${(size.jsGzip / 1024).toFixed(1)} KB gzipped (${(size.jsBytes / 1024).toFixed(0)} KB raw), CSS ${(size.cssGzip / 1024).toFixed(1)} KB gzipped`,
  );

  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: tmpDataDir('web'),
    rateLimits: false,
    logLevel: 'silent',
    gatewayConnectionsPerIp: 1_000_000,
  });
  const world = await seedWorld(server.ctx);
  const api = (p: string, init: RequestInit & { token: string; bot?: boolean }) =>
    fetch(`${server.url}/api/v10${p}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: init.bot ? `Bot ${init.token}` : init.token },
    });
  const created = (await (
    await api(`/guilds/${world.guildId}/channels`, { method: 'POST', token: world.users[0].token, body: JSON.stringify({ name: 'history', type: 0 }) })
  ).json()) as { id: string };

  // 10,000 messages of varied length and markdown, 8 requests in flight.
  const t0 = performance.now();
  let next = 1;
  const lorem = 'The **quick** brown fox _jumps_ over the lazy dog; `code` and a link https://example.com too.';
  const worker = async () => {
    while (next <= MESSAGES) {
      const n = next++;
      const content = `#${n} ${lorem.slice(0, 20 + ((n * 37) % lorem.length))}${n % 10 === 0 ? `\n> quoted line ${n}` : ''}`;
      const r = await api(`/channels/${created.id}/messages`, { method: 'POST', token: world.botToken, bot: true, body: JSON.stringify({ content }) });
      if (!r.ok) throw new Error(`seeding failed: ${r.status} ${await r.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  console.log(`seeded ${MESSAGES} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.addInitScript(PROBE);
  await page.goto(`${server.url}/login`);
  await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(world.users[0].token)})`);
  const url = `${server.url}/channels/${world.guildId}/${created.id}`;

  // 1. Open: from navigation to the newest message on screen (the client loads, connects, fetches 50).
  await page.goto(`${server.url}/channels/@me`);
  await page.locator('.rail').waitFor();
  await page.evaluate('window.__probe.mark()');
  const open0 = Date.now();
  await page.goto(url);
  await page.getByText(`#${MESSAGES} `, { exact: false }).first().waitFor();
  const openMs = Date.now() - open0;
  const openProbe = (await page.evaluate('window.__probe.take()')) as Probe;

  // 2. Scroll up through the whole history: each older page loads as the top comes near (50 per request).
  await page.evaluate('window.__probe.mark()');
  const up0 = Date.now();
  await page.evaluate(`new Promise((done) => {
    const el = document.querySelector('.messages');
    const step = () => {
      if (document.querySelector('.start')) return done();
      el.scrollTop = Math.max(0, el.scrollTop - 1200);
      requestAnimationFrame(step);
    };
    step();
  })`);
  const upMs = Date.now() - up0;
  const upProbe = (await page.evaluate('window.__probe.take()')) as Probe;
  const domRows = await page.locator('.messages__row').count();

  // 3. With all 10,000 loaded: scroll from the top to the bottom at 4,000 px/s, then fling back up in big jumps.
  await page.evaluate('window.__probe.mark()');
  const down = (await page.evaluate(`new Promise((done) => {
    const el = document.querySelector('.messages');
    el.scrollTop = 0;
    let last = performance.now();
    const t0 = last;
    const step = (t) => {
      el.scrollTop += (t - last) * 4;
      last = t;
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) return done({ ms: t - t0, height: el.scrollHeight });
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })`)) as { ms: number; height: number };
  const downProbe = (await page.evaluate('window.__probe.take()')) as Probe;
  await page.evaluate('window.__probe.mark()');
  await page.evaluate(`new Promise((done) => {
    const el = document.querySelector('.messages');
    let n = 0;
    const step = () => { el.scrollTop = Math.max(0, el.scrollTop - el.scrollHeight / 40); if (++n >= 40) return done(); requestAnimationFrame(step); };
    requestAnimationFrame(step);
  })`);
  const flingProbe = (await page.evaluate('window.__probe.take()')) as Probe;
  const heap = await page.evaluate('performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1048576) : null');

  const results = {
    at: new Date().toISOString(),
    messages: MESSAGES,
    initialDownload: size,
    open: { ms: openMs, ...frameStats(openProbe) },
    scrollUpLoadingAll: { ms: upMs, pages: Math.ceil(MESSAGES / 50), domRowsAfter: domRows, ...frameStats(upProbe) },
    scrollDownAll: { ms: Math.round(down.ms), listHeightPx: down.height, ...frameStats(downProbe) },
    flingUp: frameStats(flingProbe),
    jsHeapMB: heap,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'web-latest.json'), JSON.stringify(results, null, 2));

  const row = (name: string, p: ReturnType<typeof frameStats>, extra = '') =>
    console.log(
      `${name.padEnd(34)} frames p50 ${p.frames.p50} ms, p99 ${p.frames.p99} ms, max ${p.frames.max} ms; >50 ms: ${p.over50ms}/${p.frames.count}; long tasks ${p.longTasks} (${p.longTaskMs} ms, longest ${p.longestTask} ms)${extra}`,
    );
  console.log(`open channel (newest on screen)    ${openMs} ms`);
  row('open', results.open);
  row('scroll up, loading all pages', results.scrollUpLoadingAll, `; ${upMs} ms; ${domRows} rows in the DOM after`);
  row(`scroll down all ${MESSAGES} at 4000 px/s`, results.scrollDownAll, `; ${Math.round(down.ms)} ms over ${down.height} px`);
  row('fling up in 40 jumps', results.flingUp);
  console.log(`JS heap after: ${heap} MB`);

  await browser.close();
  await server.close();
  removeTmpDirs();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
