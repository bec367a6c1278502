/**
 * Developer powers in the browser (server started with --dev): the inspector shows an app's requests and Gateway
 * events live, the clock moves from its buttons, and "act as user" switches the browser to another person. Without
 * --dev, the page says the tools are off.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { I } from '@accord/protocol';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { until } from '../../server/test/helpers/wait.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';

describe('developer tools', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let bot: RawGateway | undefined;

  before(async () => {
    await ensureBuilt();
    t = await startTestServer({ overrides: { dev: true } });
    browser = await launch();
  });
  after(async () => {
    bot?.close();
    await browser?.close();
    await t?.close();
  });

  test('inspector feed, clock and act as user', async () => {
    const { page } = await newPerson(browser);
    const errors = watchErrors(page);
    const [alice, bob] = t.world.users;
    await signInAs(page, t.server.url, alice.token, `/developers/dev?app=${t.world.applicationId}`);
    await page.getByText('Live', { exact: true }).waitFor();
    await page.getByText('Waiting for Dev Bot').waitFor();

    // The bot connects and works: each request and each event shows up as it happens.
    bot = await RawGateway.connect(t.server.url);
    await bot.identify(t.world.botToken, { intents: I.GUILDS | I.GUILD_MESSAGES | I.MESSAGE_CONTENT });
    const feed = page.getByRole('log', { name: 'Traffic of Dev Bot' });
    await feed.getByText('READY').waitFor();
    await feed.getByText('GUILD_CREATE').waitFor();
    const sent = await t.api(`/channels/${t.world.textChannelId}/messages`, {
      method: 'POST',
      token: t.world.botToken,
      bot: true,
      body: { content: 'forecast: sunny' },
    });
    assert.equal(sent.status, 200);
    await t.api('/channels/1/messages', { token: t.world.botToken, bot: true });
    const post = feed.locator('.entry', { hasText: `POST /channels/${t.world.textChannelId}/messages` });
    await post.waitFor();
    assert.match(await post.innerText(), /200/);
    await feed.locator('.entry', { hasText: 'GET /channels/1/messages' }).getByText('404').waitFor();
    await feed.locator('.entry', { hasText: 'MESSAGE_CREATE' }).first().waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'devtools-1-inspector');

    // A Gateway event opens to its payload; the HTTP filter hides events.
    await feed.locator('.entry', { hasText: 'MESSAGE_CREATE' }).first().getByRole('button').click();
    await feed.getByText('"content": "forecast: sunny"').waitFor();
    await page.getByRole('button', { name: /^HTTP \d+$/ }).click();
    assert.equal(await feed.locator('.entry', { hasText: 'READY' }).count(), 0);
    await page.getByRole('button', { name: /^All \d+$/ }).click();

    // The clock: one day ahead, from a button; the server agrees.
    await page.getByRole('button', { name: '+1 day' }).click();
    await page.getByText('1d ahead of real time').waitFor();
    const clock: any = await fetch(`${t.server.url}/__dev/clock`, { headers: { 'x-accord-dev-token': t.server.ctx.config.devToken ?? '' } }).then((r) =>
      r.json(),
    );
    assert.ok(clock.offset_ms >= 86_400_000 && clock.offset_ms < 86_400_000 + 60_000, String(clock.offset_ms));
    await shot(page, 'devtools-2-payload-and-clock');
    await page.getByRole('button', { name: 'Back to real time' }).click();
    await page.getByText('in step with real time').waitFor();

    // Act as Bob: one click, and the client is Bob's.
    await page.getByRole('button', { name: `Act as ${bob.username}` }).click();
    await page.waitForURL(/\/channels\/@me$/);
    const token = await page.evaluate<string>("localStorage.getItem('accord.token')");
    const me = await t.api('/users/@me', { token });
    assert.equal(me.body.id, bob.id);
    await page.getByText(bob.username, { exact: true }).waitFor(); // the user panel of the chat
    await shot(page, 'devtools-3-acting-as-bob');
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
    );
  });

  test("faults: a rule made from the panel fails the app's requests until removed; a one-shot says what it reached", async () => {
    const { context, page } = await newPerson(browser);
    const errors = watchErrors(page);
    try {
      await signInAs(page, t.server.url, t.world.users[0].token, `/developers/dev?app=${t.world.applicationId}`);
      const card = page.getByRole('region', { name: 'Faults' });
      await card.getByLabel('Fault kind').selectOption('http');
      await card.getByLabel('Route').fill('GET /users/@me');
      await card.getByLabel('Status').selectOption('503');
      await card.getByLabel('Uses').fill('5');
      await card.getByRole('button', { name: 'Add rule' }).click();
      const rule = card.getByRole('list', { name: 'Active faults' }).getByText(/http route=GET \/users\/@me status=503 \(5 left\)/);
      await rule.waitFor();
      const me = () => t.api('/users/@me', { token: t.world.botToken, bot: true });
      assert.equal((await me()).status, 503);
      await card.getByText(/\(4 left\)/).waitFor(); // the panel follows the server's count
      await shot(page, 'devtools-5-faults');
      await card.getByRole('button', { name: /^Remove fault / }).click();
      await card.getByText('No active fault for this application.').waitFor();
      assert.equal((await me()).status, 200);

      bot?.close(); // the first test's session: ended by its clean close
      await until(() => t.server.gateway.sessionsOf(t.world.botUserId) === 0, 5000, 'no bot session left');
      bot = await RawGateway.connect(t.server.url);
      await bot.identify(t.world.botToken, { intents: I.GUILDS });
      await card.getByLabel('Fault kind').selectOption('gateway.close');
      await card.getByRole('button', { name: 'Do it now' }).click();
      await card.getByText('Done: 1 session reached.').waitFor();
      assert.equal(await bot.closed, 4000);
      assert.deepEqual(
        errors.filter((e) => !/status of 4\d\d/.test(e)),
        [],
      );
    } finally {
      await context.close();
    }
  });

  test('without --dev the tools are off and the portal does not offer them', async () => {
    const plain = await startTestServer();
    const { context, page } = await newPerson(browser);
    try {
      await signInAs(page, plain.server.url, plain.world.users[0].token, '/developers/dev');
      await page.getByText('Developer tools are off').waitFor();
      assert.equal(await page.getByRole('link', { name: 'Dev tools' }).count(), 0);
      await shot(page, 'devtools-4-off');
    } finally {
      await context.close(); // the page's Gateway session ends before its server does
      await plain.close();
    }
  });
});
