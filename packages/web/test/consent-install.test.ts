/**
 * A person adds a bot to their server in a browser: they register, create a server, open the bot's install link,
 * pick the server and the permissions on the consent page, and the bot joins with exactly what was granted.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { P } from '@accord/protocol';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';
import { registerInUi } from './helpers/ui.ts';

describe('installing a bot through the consent page', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let bot: RawGateway | undefined;

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    browser = await launch();
  });
  after(async () => {
    bot?.close();
    await browser?.close();
    await t?.close();
  });

  test('register, create a server, open the install link, pick the server and permissions: the bot joins', async () => {
    const appId = t.world.applicationId;
    // The developer's default install settings: the bot and its commands, with four permissions.
    const asked = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS | P.MANAGE_MESSAGES;
    const setup = await t.api(`/applications/${appId}`, {
      method: 'PATCH',
      token: t.world.users[0].token,
      body: {
        integration_types_config: { '0': { oauth2_install_params: { scopes: ['bot', 'applications.commands'], permissions: asked.toString() } }, '1': {} },
      },
    });
    assert.equal(setup.status, 200, setup.text);
    // The bot is online: it will see itself join.
    bot = await RawGateway.connect(t.server.url);
    await bot.identify(t.world.botToken, { intents: 1 });

    const { page } = await newPerson(browser);
    const errors = watchErrors(page);
    await registerInUi(page, t.server.url, 'cara_plays', 'Cara');
    await page.getByRole('button', { name: 'Add a Server' }).click();
    await page.getByLabel('Server name').fill('Game Night');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/channels\/\d+\/\d+$/);
    const guildId = /\/channels\/(\d+)\//.exec(page.url())![1];
    const cara = await page.evaluate<string>("localStorage.getItem('accord.token')");

    // The install link the portal hands out (Installation → Accord provided link).
    await page.goto(`${t.server.url}/oauth2/authorize?client_id=${appId}`);
    await page.getByRole('heading', { name: 'Dev Bot' }).waitFor();
    await page.getByText('Add the bot Dev Bot to the server').waitFor();
    await page.getByText('Create commands in the server').waitFor();
    const picker = page.getByLabel('Add to server');
    assert.deepEqual(await picker.locator('option').allTextContents(), ['Game Night']);
    await picker.selectOption(guildId);
    await shot(page, 'consent-install-1-server');

    await page.getByRole('button', { name: 'Continue' }).click();
    const granted = page.getByRole('group', { name: 'Permissions for Dev Bot' });
    await granted.getByRole('checkbox').first().waitFor();
    assert.deepEqual(await granted.getByRole('checkbox').evaluateAll((els) => els.map((e) => (e as unknown as { checked: boolean }).checked)), [
      true,
      true,
      true,
      true,
    ]);
    assert.deepEqual(await granted.locator('label').allTextContents(), ['View Channels', 'Send Messages', 'Embed Links', 'Manage Messages']);
    await granted.getByRole('checkbox', { name: 'Manage Messages' }).uncheck();
    await page.getByText('3 of 4 asked for').waitFor();
    await shot(page, 'consent-install-2-permissions');

    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(/\/oauth2\/authorized$/);
    await page.getByText('has been added to').waitFor();
    assert.match(await page.locator('.consent__sub').innerText(), /Dev Bot has been added to Game Night\./);
    await shot(page, 'consent-install-3-authorized');

    // The bot joined: its session got the server, and its managed role carries exactly what Cara granted.
    const joined = await bot.dispatch('GUILD_CREATE', (d) => d.id === guildId, 10_000);
    assert.equal(joined.name, 'Game Night');
    const member = await t.api(`/guilds/${guildId}/members/${t.world.botUserId}`, { token: cara });
    assert.equal(member.status, 200, member.text);
    const roles = await t.api(`/guilds/${guildId}/roles`, { token: cara });
    const managed = roles.body.find((r: any) => member.body.roles.includes(r.id));
    assert.ok(managed?.managed, 'the bot has its managed role');
    assert.equal(BigInt(managed.permissions), asked & ~P.MANAGE_MESSAGES);

    // Cara goes to her server and sees the bot among its members.
    await page.getByRole('link', { name: 'Go to Game Night' }).click();
    await page.waitForURL(new RegExp(`/channels/${guildId}`));
    await page.locator('.members').getByText('Dev Bot').waitFor();
    await shot(page, 'consent-install-4-bot-in-server');
    assert.deepEqual(errors, []);
  });
});
