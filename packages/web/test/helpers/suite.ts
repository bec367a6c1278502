import { before, after, afterEach } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer, type TestServerOptions } from '../../../server/test/helpers/server.ts';
import { ensureBuilt } from './build.ts';
import { launch, shot } from './browser.ts';

/**
 * Inside a describe(): the built client, a real seeded server on a random port and one Chromium, started before
 * the tests and stopped after. Read `env.t` and `env.browser` inside the tests.
 */
export function webSuite(opts: TestServerOptions = {}): { t: TestServer; browser: Browser } {
  const env = {} as { t: TestServer; browser: Browser };
  before(async () => {
    await ensureBuilt();
    env.t = await startTestServer(opts);
    env.browser = await launch();
  });
  // What every open page looked like when a test failed: the first thing to read. A passing test's pages are not
  // shot again (its own shots show what it checked), which saves a PNG encode per page per test.
  afterEach(async (t: any) => {
    if (t?.passed !== false) return;
    const pages = env.browser?.contexts().flatMap((c) => c.pages()) ?? [];
    const name = String(t?.name ?? 'test')
      .replace(/[^a-z0-9]+/gi, '-')
      .slice(0, 60);
    for (const [i, p] of pages.entries()) await shot(p, `last-${name}-${i}`).catch(() => undefined);
  });
  after(async () => {
    await env.browser?.close();
    await env.t?.close();
  });
  return env;
}
