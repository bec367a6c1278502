/**
 * User Settings (issue 22, item 5), with two people in two browsers: one changes display name, about me, banner color
 * and avatar, and the other sees the new name and avatar live in the member list and on messages; a server nickname
 * shows the same way. A password change with a wrong current password shows the platform's error in place, with the
 * right one keeps the session, and the new password logs in. On a phone the settings fit the screen. axe-core finds
 * nothing serious on these screens.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './helpers/axe.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { assertNoSidewaysScroll, newPhonePerson } from './helpers/phone.ts';
import { makePng } from './helpers/png.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message } from './helpers/ui.ts';

describe('user settings', { timeout: 240_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const general = () => `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`;
  const settings = (page: Page) => page.getByRole('dialog', { name: 'User Settings' });
  const a11y = async (page: Page, screen: string) => {
    for (const p of await seriousA11yProblems(page)) assert.fail(`${screen}: ${p.impact} ${p.id} (${p.help}) at ${p.targets.join(' | ')}`);
  };
  const openSettings = async (page: Page) => {
    await page.getByRole('button', { name: 'User Settings' }).click();
    await settings(page).getByRole('heading', { name: 'My Account' }).waitFor();
  };

  test('a new name, about me and avatar reach the other person live, in the member list and on messages', async () => {
    const me = await newPerson(env.browser);
    const other = await newPerson(env.browser);
    const errors = watchErrors(me.page);
    await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { method: 'POST', token: alice().token, body: { content: 'Before the makeover' } });
    await signInAs(me.page, env.t.server.url, alice().token, general());
    await signInAs(other.page, env.t.server.url, bob().token, general());
    await message(other.page, 'Before the makeover').waitFor();

    await openSettings(me.page);
    const layer = settings(me.page);
    await layer.getByText(alice().username).first().waitFor();
    await a11y(me.page, 'my account');
    await shot(me.page, 'user-settings-account');

    await layer.getByRole('button', { name: 'Profiles', exact: true }).click();
    await layer.getByLabel('Display Name').fill('Alice Liddell');
    await layer.getByLabel('About Me').fill('Curiouser and curiouser.');
    await layer.locator('input[type="color"]').fill('#3ba55c');
    await layer.getByLabel('Avatar').setInputFiles({ name: 'alice.png', mimeType: 'image/png', buffer: makePng(64, [250, 80, 60], [40, 60, 220]) });
    await layer.getByRole('group', { name: 'Profile preview' }).getByText('Curiouser and curiouser.').waitFor();
    await a11y(me.page, 'profiles');
    await shot(me.page, 'user-settings-profile');
    await layer.getByRole('button', { name: 'Save Changes' }).click();
    await layer.getByRole('region', { name: 'Unsaved changes' }).waitFor({ state: 'detached' });

    // The other person: the new name in the member list and on the old message, with the uploaded avatar.
    const row = other.page.getByRole('complementary', { name: 'Members' }).locator(`button.member[data-user="${alice().id}"]`);
    await row.getByText('Alice Liddell').waitFor();
    const msg = message(other.page, 'Before the makeover');
    await msg.locator('.msg__author', { hasText: 'Alice Liddell' }).waitFor();
    for (const img of [row.locator('.avatar img'), msg.locator('.msg__gutter .avatar img')]) {
      await img.waitFor();
      assert.match((await img.getAttribute('src')) ?? '', new RegExp(`^/avatars/${alice().id}/[0-9a-f]{32}\\.png`));
      await other.page.waitForFunction((el) => (el as { complete: boolean; naturalWidth: number }).naturalWidth === 64, await img.elementHandle());
    }
    const saved = await env.t.api('/users/@me', { token: alice().token });
    assert.equal(saved.body.bio, 'Curiouser and curiouser.');
    assert.equal(saved.body.accent_color, 0x3ba55c);

    // A server nickname, from Server Profiles, shows for the other person too.
    await layer.getByRole('button', { name: 'Server Profiles' }).click();
    await layer.getByLabel('Server Nickname').fill('Queen Alice');
    await layer.getByRole('button', { name: 'Save Nickname' }).click();
    await row.getByText('Queen Alice').waitFor();
    await me.page.keyboard.press('Escape');
    await layer.waitFor({ state: 'detached' });
    await me.page.locator('.userpanel__name', { hasText: 'Alice Liddell' }).waitFor();
    assert.deepEqual(errors, []);
    await me.context.close();
    await other.context.close();
  });

  test('a password change: a wrong current password shows the error; the right one works and the new password logs in', async () => {
    const username = `carol_${Date.now().toString(36)}`;
    const reg = await env.t.api('/auth/register', { method: 'POST', body: { username, global_name: 'Carol', password: 'first-password-1' } });
    assert.equal(reg.status, 200, reg.text);
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, reg.body.token);
    await openSettings(page);
    // A new username asks for the current password too.
    await settings(page).getByRole('button', { name: 'Edit username' }).click();
    const rename = page.getByRole('dialog', { name: 'Change your username' });
    await rename.getByLabel(/^Username/).fill(`${username}_new`);
    await rename.getByLabel(/^Current Password/).fill('first-password-1');
    await rename.getByRole('button', { name: 'Done' }).click();
    await rename.waitFor({ state: 'detached' });
    await settings(page).getByText(`${username}_new`).waitFor();
    await settings(page).getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update your password' });
    await dialog.getByLabel('Current Password').fill('not-my-password');
    await dialog.getByLabel(/^New Password/).fill('second-password-2');
    await dialog.getByLabel('Confirm New Password').fill('second-password-2');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.getByText('Password does not match.').waitFor();
    await a11y(page, 'the password dialog');
    await shot(page, 'user-settings-password-error');

    await dialog.getByLabel('Current Password').fill('first-password-1');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The session carries on with the new token: the old one is refused, the client stays signed in and connected.
    assert.equal((await env.t.api('/users/@me', { token: reg.body.token })).status, 401);
    const stored = await page.evaluate<string>(`localStorage.getItem('accord.token')`);
    assert.notEqual(stored, reg.body.token);
    assert.equal((await env.t.api('/users/@me', { token: stored })).status, 200);
    await settings(page)
      .getByRole('button', { name: /Log Out/ })
      .click();
    const ask = page.getByRole('alertdialog', { name: 'Log Out' });
    await ask.getByRole('button', { name: 'Log Out' }).click();
    await page.getByLabel('Email or username').waitFor();

    await page.getByLabel('Email or username').fill(`${username}_new`);
    await page.getByLabel('Password').fill('second-password-2');
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('navigation', { name: 'Servers' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('on a phone the settings fit the screen and save', async () => {
    const { page, context } = await newPhonePerson(env.browser);
    await signInAs(page, env.t.server.url, bob().token, general());
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await page.getByRole('button', { name: 'User Settings' }).tap();
    const layer = settings(page);
    await layer.getByRole('heading', { name: 'My Account' }).waitFor();
    await assertNoSidewaysScroll(page, 'my account');
    await a11y(page, 'my account on a phone');
    await shot(page, 'user-settings-phone-account');
    await layer.getByRole('button', { name: 'Profiles', exact: true }).tap();
    await layer.getByLabel('About Me').fill('Typed on a phone.');
    await layer.getByRole('region', { name: 'Unsaved changes' }).waitFor();
    await assertNoSidewaysScroll(page, 'profiles');
    await a11y(page, 'profiles on a phone');
    await shot(page, 'user-settings-phone-profile');
    await layer.getByRole('button', { name: 'Save Changes' }).tap();
    await layer.getByRole('region', { name: 'Unsaved changes' }).waitFor({ state: 'detached' });
    assert.equal((await env.t.api('/users/@me', { token: bob().token })).body.bio, 'Typed on a phone.');
    await layer.getByRole('button', { name: 'Close User Settings' }).tap();
    await layer.waitFor({ state: 'detached' });
    await context.close();
  });
});
