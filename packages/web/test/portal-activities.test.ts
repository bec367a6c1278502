/**
 * The developer portal's Activities and External Auth tabs in a browser: a developer enables Activities with URL
 * mappings (a reserved prefix is refused on its row first), platforms, orientation and the age gate, and sees the
 * Launch entry point command appear; then adds Social SDK providers (an IP-literal issuer and a redirecting JWKS are
 * refused with the server's reasons), edits one, and deletes one; invites a tester, who accepts on their Applications
 * page and finds the Activity in their App Launcher. Everything is checked again through the API.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { startOidcProvider, type OidcProvider } from '../../server/test/helpers/oidc-provider.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, newPerson, shot, watchErrors } from './helpers/browser.ts';
import { registerInUi } from './helpers/ui.ts';
import { signInAs } from './helpers/session.ts';
import { PHONE, assertNoSidewaysScroll, assertWithinScreen, newPhonePerson } from './helpers/phone.ts';
import { seriousA11yProblems } from './helpers/axe.ts';

describe('the developer portal: Activities and External Auth', { timeout: 180_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let idp: OidcProvider;
  let page: Page;
  let errors: string[] = [];
  let token = '';
  let appId = '';

  before(async () => {
    await ensureBuilt();
    // A dev server: it accepts an OIDC issuer on loopback (the test's identity provider).
    t = await startTestServer({ overrides: { dev: true } });
    idp = await startOidcProvider('sky-racer-web');
    browser = await launch();
    ({ page } = await newPerson(browser));
    errors = watchErrors(page);
    await registerInUi(page, t.server.url, 'rhea_dev', 'Rhea');
    token = await page.evaluate<string>("localStorage.getItem('accord.token')");
    const created = await t.api('/applications', { method: 'POST', token, body: { name: 'Sky Racer' } });
    assert.ok(created.status === 200 || created.status === 201, created.text);
    appId = created.body.id;
  });
  after(async () => {
    await browser?.close();
    await idp?.close();
    await t?.close();
  });

  const settle = () => page.waitForTimeout(250);
  const open = async (tab: string) => {
    await page.getByRole('navigation', { name: 'Application settings' }).getByRole('link', { name: tab, exact: true }).click();
    await page.getByRole('heading', { name: tab, level: 1 }).waitFor();
  };
  const scrollTo = (y: 'top' | 'bottom') => page.locator('.portal__page').evaluate((el, to) => el.scrollTo(0, to === 'top' ? 0 : el.scrollHeight), y);

  test('Activities: enable with URL mappings, platforms, orientation and age gate; the Launch command appears', async () => {
    await page.goto(`${t.server.url}/developers/applications/${appId}/information`);
    await open('Activities');
    await page.getByText('Once Activities are enabled and saved').waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Enable Activities' }).getAttribute('aria-checked'), 'false');
    const before = await t.api(`/applications/${appId}/commands`, { token });
    assert.deepEqual(before.body, [], 'no entry point before Activities are on');

    await page.getByRole('switch', { name: 'Enable Activities' }).click();
    await page.getByLabel('Root mapping (/)').fill('127.0.0.1:5173');
    await page.getByRole('button', { name: 'Add Another URL Mapping' }).click();
    const row = page.getByRole('group', { name: 'Mapping 1' });
    await row.getByLabel('Prefix').fill('/.proxy/api');
    await row.getByLabel('Target').fill('api.sky-racer.example');
    await page.getByRole('checkbox', { name: /^iOS/ }).check();
    await page.getByLabel('Phone orientation lock').selectOption({ label: 'Portrait' });
    await page.getByRole('switch', { name: 'Age gate' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();

    // The reserved prefix is refused on its row, and nothing was written.
    await row.getByText('Prefixes under /.proxy and /.well-known/accord are reserved.').waitFor();
    await page.getByRole('alert').filter({ hasText: 'reserved' }).waitFor();
    await settle();
    await shot(page, 'portal-activities-1-refused-mapping');
    const untouched = await t.api(`/applications/${appId}`, { token });
    assert.equal(untouched.body.flags & (1 << 17), 0, 'all or nothing: EMBEDDED is still off');
    assert.equal(untouched.body.proxy_config, undefined);

    await row.getByLabel('Prefix').fill('/api');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Careful — you have unsaved changes!').waitFor({ state: 'detached' });
    const entry = page.getByLabel('Entry point command');
    await entry.getByText('Launch', { exact: false }).first().waitFor();
    await entry.getByText('Accord launches your Activity').waitFor();
    await scrollTo('top');
    await settle();
    await shot(page, 'portal-activities-2-enabled');
    await scrollTo('bottom');
    await settle();
    await shot(page, 'portal-activities-3-settings');

    const app = (await t.api(`/applications/${appId}`, { token })).body;
    assert.ok(app.flags & (1 << 17), 'EMBEDDED is set');
    const config = (await t.api(`/applications/${appId}/embedded-activity-config`, { token })).body;
    assert.deepEqual([...config.supported_platforms].sort(), ['ios', 'web']);
    assert.equal(config.default_orientation_lock_state, 2);
    assert.equal(config.tablet_default_orientation_lock_state, 1);
    assert.equal(config.requires_age_gate, true);
    const proxy = (await t.api(`/applications/${appId}/proxy-config`, { token })).body;
    assert.deepEqual(proxy.url_map, [
      { prefix: '/', target: '127.0.0.1:5173' },
      { prefix: '/api', target: 'api.sky-racer.example' },
    ]);
    const commands = (await t.api(`/applications/${appId}/commands`, { token })).body;
    assert.equal(commands.length, 1);
    assert.equal(commands[0].type, 4, 'PRIMARY_ENTRY_POINT');
    assert.equal(commands[0].name, 'Launch');
    assert.equal(commands[0].handler, 2, 'the platform launches');
    assert.match((await entry.textContent()) ?? '', new RegExp(commands[0].id));

    // A reload shows what was saved.
    await page.reload();
    await page.getByRole('heading', { name: 'Activities', level: 1 }).waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Enable Activities' }).getAttribute('aria-checked'), 'true');
    assert.equal(await page.getByLabel('Root mapping (/)').inputValue(), '127.0.0.1:5173');
    assert.equal(await page.getByRole('group', { name: 'Mapping 1' }).getByLabel('Target').inputValue(), 'api.sky-racer.example');
    assert.equal(await page.getByRole('switch', { name: 'Age gate' }).getAttribute('aria-checked'), 'true');
  });

  test('External Auth: issuer refusals shown, an OIDC and a device id provider added, one edited, one deleted', async () => {
    await open('External Auth');
    await page.getByText('No providers yet').waitFor();
    await page.getByRole('button', { name: 'Add Provider' }).click();
    const form = page.getByRole('form', { name: 'New provider' });
    await form.getByLabel('Issuer URL').fill('https://10.1.2.3');
    await form.getByLabel('Client ID').fill('sky-racer-web');
    await form.getByRole('button', { name: 'Add Provider' }).click();
    const refusal = form.getByRole('alert');
    await refusal.getByText('The host must be a name, not an IP address.').waitFor();
    await refusal.getByText('URL_TYPE_INVALID_URL').waitFor();
    await settle();
    await shot(page, 'portal-extauth-1-ip-issuer-refused');

    // A provider whose JWKS redirects is refused too: discovery never follows redirects.
    idp.redirectJwks = true;
    await form.getByLabel('Issuer URL').fill(idp.issuer);
    await form.getByRole('button', { name: 'Add Provider' }).click();
    await refusal.getByText(/JWKS could not be read.*redirect/i).waitFor();
    await refusal.getByText('OIDC_DISCOVERY_FAILED').waitFor();
    idp.redirectJwks = false;
    await form.getByRole('button', { name: 'Add Provider' }).click();
    const table = page.getByRole('table', { name: 'External auth providers' });
    await table.getByText(idp.issuer).waitFor();
    await table.getByText('Strict').waitFor();

    await page.getByRole('button', { name: 'Add Provider' }).click();
    await form.getByLabel('Type').selectOption('DEVICE_ID');
    await form.getByText('Use it for guest play only.').waitFor();
    await form.getByRole('button', { name: 'Add Provider' }).click();
    await table.getByText('DEVICE_ID').waitFor();
    await settle();
    await shot(page, 'portal-extauth-2-two-providers');

    // Edit: a bad issuer is refused in the dialog; a new client id is saved.
    await table.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit OIDC provider' });
    await dialog.getByLabel('Issuer URL').fill('http://accounts.sky-racer.example');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').getByText('The URL must use https.').waitFor();
    await settle();
    await shot(page, 'portal-extauth-3-edit-refused');
    await dialog.getByLabel('Issuer URL').fill(idp.issuer);
    await dialog.getByLabel('Client ID').fill('sky-racer-web-2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await table.getByText('sky-racer-web-2').waitFor();

    // Delete the device id provider.
    await table.getByRole('button', { name: 'Delete DEVICE_ID provider' }).click();
    await page.getByRole('dialog', { name: 'Delete this provider?' }).getByRole('button', { name: 'Delete' }).click();
    await table.getByText('DEVICE_ID').waitFor({ state: 'detached' });

    const list = (await t.api(`/applications/${appId}/external-auth-providers`, { token })).body;
    assert.equal(list.length, 1);
    assert.equal(list[0].type, 'OIDC');
    assert.equal(list[0].issuer, idp.issuer);
    assert.equal(list[0].client_id, 'sky-racer-web-2');
    assert.equal(list[0].strict_validation, true);
    // The provider works: an ID token for it gives a provisional account.
    const app = (await t.api(`/applications/${appId}`, { token })).body;
    await t.api(`/applications/${appId}`, { method: 'PATCH', token, body: { flags: app.flags | (1 << 8) } });
    const idToken = await idp.idToken('racer-1', { aud: 'sky-racer-web-2' }, { now: t.server.ctx.clock.now() });
    const exchanged = await t.api('/partner-sdk/token', {
      method: 'POST',
      body: { client_id: appId, external_auth_type: 'OIDC', external_auth_token: idToken },
    });
    assert.equal(exchanged.status, 200, exchanged.text);
    assert.ok(exchanged.body.access_token);
    assert.deepEqual(errors, []);
  });

  test('App Testers: an unknown name is refused; Bob is invited, accepts on his Applications page, and finds the Activity in his launcher', async () => {
    const bob = t.world.users[1];
    await open('App Testers');
    await page.getByText('No testers yet').waitFor();
    const form = page.getByRole('form', { name: 'Invite a tester' });
    await form.getByLabel('Username').fill('nobody_by_this_name');
    await form.getByRole('button', { name: 'Invite' }).click();
    await form.getByText('Unknown User').waitFor();
    await shot(page, 'portal-testers-refused');
    await form.getByLabel('Username').fill(bob.username);
    await form.getByRole('button', { name: 'Invite' }).click();
    const row = page.getByRole('list', { name: 'Testers' }).getByRole('listitem').filter({ hasText: bob.username });
    await row.getByText('Invited').waitFor();
    await settle();
    await shot(page, 'portal-testers');
    assert.deepEqual(await seriousA11yProblems(page), [], 'the App Testers page');
    // The same page on a phone: the tab strip shows the open tab.
    await page.setViewportSize(PHONE);
    await page.reload();
    await row.getByText('Invited').waitFor();
    await settle();
    await assertNoSidewaysScroll(page, 'the App Testers page');
    await assertWithinScreen(page.getByRole('navigation', { name: 'Application settings' }).getByRole('link', { name: 'App Testers' }), 'the open tab');
    await shot(page, 'portal-testers-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Bob answers on his phone.
    const other = await newPhonePerson(browser);
    const bobErrors = watchErrors(other.page);
    await signInAs(other.page, t.server.url, bob.token, '/developers/applications');
    const tested = other.page.getByRole('list', { name: 'Apps you test' }).getByRole('listitem').filter({ hasText: 'Sky Racer' });
    await tested.getByRole('button', { name: 'Accept' }).click();
    await tested.getByText('Tester').waitFor();
    await settle();
    await assertNoSidewaysScroll(other.page, 'the apps one tests');
    assert.deepEqual(await seriousA11yProblems(other.page), [], 'the Applications page with the apps one tests');
    await shot(other.page, 'portal-tested-apps-phone');
    await other.page.setViewportSize({ width: 1280, height: 800 });

    await other.page.goto(`${t.server.url}/channels/${t.world.guildId}/${t.world.textChannelId}`);
    await other.page.getByRole('button', { name: 'Activities', exact: true }).click();
    await other.page.getByRole('dialog', { name: 'App Launcher' }).getByRole('button', { name: 'Launch Sky Racer' }).waitFor();
    await settle();
    await shot(other.page, 'portal-tester-launcher');

    await page.reload();
    await row.getByText('Tester').waitFor();
    const listed = (await t.api(`/applications/${appId}/testers`, { token })).body;
    assert.deepEqual(
      listed.map((x: any) => [x.user.id, x.state]),
      [[bob.id, 2]],
    );
    assert.deepEqual(bobErrors, []);
    await other.context.close();
  });
});
