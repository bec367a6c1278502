/**
 * The developer portal in a browser: a developer creates an app with an icon, resets its bot token (shown once),
 * enables the Message Content intent, and sets an interactions endpoint URL served by a discord-interactions app in
 * this test (a URL that does not check signatures is refused first, with the verification result shown). Then
 * emojis, a SKU and a test entitlement; the bot's own Gateway session proves the token and the intent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { verifyKey, InteractionType, InteractionResponseType } from 'discord-interactions';
import { I } from '@accord/protocol';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';
import { makePng } from './helpers/png.ts';
import { registerInUi } from './helpers/ui.ts';

describe('the developer portal', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let endpoint: http.Server;
  let base = '';
  let publicKey = '';
  const seen: { path: string; type: number; verified: boolean }[] = [];
  let bot: RawGateway | undefined;

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    browser = await launch();
    // The developer's interactions app: /interactions verifies with discord-interactions; /careless answers anything.
    endpoint = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const body = JSON.parse(raw.toString() || '{}');
        const verified =
          publicKey !== '' &&
          (await verifyKey(raw, String(req.headers['x-signature-ed25519'] ?? ''), String(req.headers['x-signature-timestamp'] ?? ''), publicKey));
        seen.push({ path: req.url ?? '', type: body.type, verified });
        if (req.url === '/interactions' && !verified) return void res.writeHead(401).end('invalid request signature');
        if (body.type === InteractionType.PING)
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: InteractionResponseType.PONG }));
        res.writeHead(400).end();
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
  });
  after(async () => {
    bot?.close();
    await browser?.close();
    await new Promise((r) => endpoint?.close(r));
    await t?.close();
  });

  /** Waits for the save bar's animation to end before a screenshot. */
  const settle = (page: Page) => page.waitForTimeout(250);
  const open = async (page: Page, tab: string) => {
    await page.getByRole('navigation', { name: 'Application settings' }).getByRole('link', { name: tab, exact: true }).click();
    await page.getByRole('heading', { name: tab, level: 1 }).waitFor();
  };

  test('create an app, reset its token, enable an intent, set a verified interactions endpoint', async () => {
    const { page } = await newPerson(browser);
    const errors = watchErrors(page);
    await registerInUi(page, t.server.url, 'dana_dev', 'Dana');
    const dana = await page.evaluate<string>("localStorage.getItem('accord.token')");
    await page.goto(`${t.server.url}/developers/applications`);
    await page.getByText('No applications yet').waitFor();
    await shot(page, 'portal-1-no-apps');

    // A new application, with a description and an icon.
    await page.getByRole('button', { name: 'New Application' }).click();
    await page.getByLabel('Name').fill('Weather Buddy');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/developers\/applications\/\d+\/information$/);
    const appId = /applications\/(\d+)\//.exec(page.url())![1];
    await page.getByRole('heading', { name: 'General Information' }).waitFor();
    await page.getByLabel('Description').fill('Forecasts for your servers, on demand.');
    await page.getByTestId('icon-input').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: makePng(256, [88, 101, 242], [35, 165, 90]) });
    await page.getByText('Careful — you have unsaved changes!').waitFor();
    await settle(page);
    await shot(page, 'portal-2-general-unsaved');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Careful — you have unsaved changes!').waitFor({ state: 'detached' });
    const saved = await t.api(`/applications/${appId}`, { token: dana });
    assert.equal(saved.body.description, 'Forecasts for your servers, on demand.');
    assert.match(saved.body.icon, /^[0-9a-f]{32}$/);
    const icon = await fetch(`${t.server.url}/app-icons/${appId}/${saved.body.icon}.png`);
    assert.equal(icon.status, 200);
    await page.locator(`.app-nav img[src*="/app-icons/${appId}/${saved.body.icon}"]`).waitFor();
    await shot(page, 'portal-3-general-saved');

    // Bot: reset the token; it is shown once and works at once.
    await open(page, 'Bot');
    await page.getByRole('button', { name: 'Reset Token' }).click();
    await page.getByRole('dialog', { name: "Reset the bot's token?" }).waitFor();
    await page.getByRole('button', { name: 'Yes, do it!' }).click();
    const tokenField = page.getByLabel('Bot token');
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    await shot(page, 'portal-4a-token-shown-once');
    const asBot = await t.api('/users/@me', { token, bot: true });
    assert.equal(asBot.status, 200, asBot.text);
    assert.equal(asBot.body.id, saved.body.bot.id);
    assert.equal(asBot.body.bot, true);

    // Without the intent, a session asking for MESSAGE_CONTENT is closed with 4014.
    const refused = await RawGateway.connect(t.server.url);
    await refused.wait((f) => f.op === 10);
    refused.send(2, { token, intents: I.GUILDS | I.MESSAGE_CONTENT, properties: { os: 'linux', browser: 'test', device: 'test' } });
    assert.equal(await refused.closed, 4014);

    // Switch the Message Content intent on and save.
    await page.getByRole('switch', { name: 'Message Content Intent' }).click();
    await page.locator('.portal__page').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await settle(page);
    await shot(page, 'portal-4-bot-token-and-intent');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Careful — you have unsaved changes!').waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('switch', { name: 'Message Content Intent' }).getAttribute('aria-checked'), 'true');
    const flags = (await t.api(`/applications/${appId}`, { token: dana })).body.flags;
    assert.ok(flags & (1 << 19), `GATEWAY_MESSAGE_CONTENT_LIMITED is set (${flags})`);
    bot = await RawGateway.connect(t.server.url);
    const ready = await bot.identify(token, { intents: I.GUILDS | I.MESSAGE_CONTENT });
    assert.equal(ready.user.id, saved.body.bot.id);

    // Endpoints: a URL that does not check signatures is refused, and the page says why; the real app is verified.
    await open(page, 'Endpoints');
    publicKey = saved.body.verify_key;
    const url = page.getByRole('textbox', { name: 'Interactions endpoint URL' });
    await url.fill(`${base}/careless`);
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.getByText('Verification failed — nothing was saved').waitFor();
    await page.getByText('The specified interactions endpoint url could not be verified.').waitFor();
    await shot(page, 'portal-5-endpoint-refused');
    assert.equal((await t.api(`/applications/${appId}`, { token: dana })).body.interactions_endpoint_url, null);

    await url.fill(`${base}/interactions`);
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.getByText('Verified: your endpoint answered both checks. Saved.').waitFor();
    await shot(page, 'portal-6-endpoint-verified');
    assert.equal((await t.api(`/applications/${appId}`, { token: dana })).body.interactions_endpoint_url, `${base}/interactions`);
    const checks = seen.filter((s) => s.path === '/interactions');
    assert.deepEqual(
      checks.map((s) => [s.type, s.verified]),
      [
        [1, true],
        [1, false],
      ],
      'a signed PING, then a badly signed one',
    );
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
    );
  });

  test('emojis, a SKU and a test entitlement; the app list shows the app', async () => {
    const { page } = await newPerson(browser);
    const errors = watchErrors(page);
    const alice = t.world.users[0];
    const appId = t.world.applicationId;
    await page.goto(`${t.server.url}/login`);
    await page.evaluate(`localStorage.setItem('accord.token', ${JSON.stringify(alice.token)})`);
    await page.goto(`${t.server.url}/developers/applications`);
    await page.getByRole('link', { name: /Dev Bot/ }).waitFor();
    await shot(page, 'portal-0-app-list');
    await page.getByRole('link', { name: /Dev Bot/ }).click();
    await page.getByRole('heading', { name: 'General Information' }).waitFor();

    await open(page, 'Emojis');
    await page.getByText('No emojis yet').waitFor();
    await page.getByTestId('emoji-input').setInputFiles([
      { name: 'sunny day.png', mimeType: 'image/png', buffer: makePng(64, [250, 200, 40], [240, 120, 20]) },
      { name: 'rain.png', mimeType: 'image/png', buffer: makePng(64, [60, 120, 220], [30, 60, 140]) },
    ]);
    await page.getByText(':rain:', { exact: true }).waitFor();
    await page.getByText(':sunny_day:', { exact: true }).waitFor();
    const listed = await t.api(`/applications/${appId}/emojis`, { token: t.world.botToken, bot: true });
    assert.deepEqual(listed.body.items.map((e: any) => e.name).sort(), ['rain', 'sunny_day']);
    await shot(page, 'portal-7-emojis');

    await open(page, 'Monetization');
    await page.getByText('No SKUs yet').waitFor();
    await page.getByRole('form', { name: 'New SKU' }).getByLabel('Name').fill('Premium Forecasts');
    await page.getByRole('button', { name: 'Create SKU' }).click();
    await page.getByRole('cell', { name: /Premium Forecasts/ }).waitFor();
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByRole('table', { name: 'Entitlements' }).getByText('Premium Forecasts').waitFor();
    const entitlements = await t.api(`/applications/${appId}/entitlements?user_id=${alice.id}`, { token: t.world.botToken, bot: true });
    assert.equal(entitlements.body.length, 1);
    assert.equal(entitlements.body[0].type, 4, 'a test entitlement');
    await page.getByRole('table', { name: 'Entitlements' }).scrollIntoViewIfNeeded();
    await shot(page, 'portal-8-monetization');
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
    );
  });
});
