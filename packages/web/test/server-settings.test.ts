/**
 * Server settings in the browser (issue 22, item 5), two people in two contexts: Alice owns the server, Bob is a
 * member without permissions. Roles with the permission editor, a channel overwrite that takes Bob's composer away
 * live, invites revoked, bans lifted, the audit log filtered, emoji and stickers uploaded (Bob's picker gets the
 * emoji), the overview saved and a server deleted; Bob sees no "Server Settings". Every section passes axe-core
 * on a desktop and on a phone.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './helpers/axe.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { assertNoSidewaysScroll, newPhonePerson } from './helpers/phone.ts';
import { makePng } from './helpers/png.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { composer } from './helpers/ui.ts';

const KICK_MEMBERS = 1n << 1n;
const SEND_MESSAGES = 1n << 11n;

describe('server settings in the browser', { timeout: 420_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const guildId = () => env.t.world.guildId;
  const general = () => env.t.world.textChannelId;
  const settingsUrl = (section = '') => `/settings/server/${guildId()}${section ? `/${section}` : ''}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-settings-'));
  const file = (name: string, data: Buffer) => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, data);
    return p;
  };
  /** A third person, made through the API, for invites and bans. */
  const register = async (name: string) => {
    const username = `${name}_${randomBytes(3).toString('hex')}`;
    const r = await env.t.api('/auth/register', { method: 'POST', body: { username, password: 'correct-horse-battery' } });
    assert.equal(r.status, 200, r.text);
    const me = await env.t.api('/users/@me', { token: r.body.token });
    return { token: r.body.token as string, id: me.body.id as string, username };
  };
  const openServerMenu = async (page: Page) => {
    await page.getByRole('button', { name: 'Accord Dev' }).click();
    await page.getByRole('menuitem', { name: 'Invite People' }).waitFor();
  };

  test('the Server Settings entry: shown to the owner, not to a member without permissions', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    const errors = watchErrors(a.page);
    await signInAs(b.page, env.t.server.url, bob().token, `/channels/${guildId()}/${general()}`);
    await openServerMenu(b.page);
    assert.equal(await b.page.getByRole('menuitem', { name: 'Server Settings' }).count(), 0, 'Bob has no settings entry');
    // Typing the address gets him nothing either.
    await b.page.goto(`${env.t.server.url}${settingsUrl('roles')}`);
    await b.page.getByText('You do not have permission to manage this server.').waitFor();

    await signInAs(a.page, env.t.server.url, alice().token, `/channels/${guildId()}/${general()}`);
    await openServerMenu(a.page);
    await a.page.getByRole('menuitem', { name: 'Server Settings' }).click();
    await a.page.waitForURL(`**${settingsUrl('overview')}`);
    const nav = a.page.getByRole('navigation', { name: 'Server settings' });
    for (const s of ['Overview', 'Roles', 'Channels', 'Emoji & Stickers', 'Invites', 'Bans', 'Audit Log']) await nav.getByRole('link', { name: s }).waitFor();
    // Escape closes the settings.
    await a.page.keyboard.press('Escape');
    await a.page.waitForURL(`**/channels/${guildId()}/**`);
    assert.deepEqual(errors, []);
    await a.context.close();
    await b.context.close();
  });

  test('Create Channel from the server menu: off until named, a refused name errs by its field, a text channel opens', async () => {
    const a = await newPerson(env.browser);
    const errors = watchErrors(a.page);
    await signInAs(a.page, env.t.server.url, alice().token, `/channels/${guildId()}/${general()}`);
    await openServerMenu(a.page);
    await a.page.getByRole('menuitem', { name: 'Create Channel' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Create Channel' });
    const submit = dialog.getByRole('button', { name: 'Create Channel' });
    assert.equal(await submit.isDisabled(), true, 'no name yet');
    await dialog.getByLabel('Channel name').fill('x'.repeat(101));
    await submit.click();
    await dialog.locator('.field__label--error').filter({ hasText: 'Channel name' }).waitFor();
    await shot(a.page, 'create-channel-refused-name');
    await dialog.getByLabel('Channel name').fill('plans');
    await submit.click();
    await dialog.waitFor({ state: 'detached' });
    await a.page.waitForURL((u) => /^\/channels\/\d+\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${general()}`));
    const id = a.page.url().split('/').pop()!;
    const made = await env.t.api(`/channels/${id}`, { token: alice().token });
    assert.deepEqual([made.body.name, made.body.type, made.body.guild_id], ['plans', 0, guildId()]);
    assert.deepEqual(errors, []);
    await a.context.close();

    // On a phone the dialog fits the screen: every kind and the name field, nothing sideways.
    const p = await newPhonePerson(env.browser);
    await signInAs(p.page, env.t.server.url, alice().token, `/channels/${guildId()}/${general()}`);
    await p.page.getByRole('button', { name: 'Open servers and channels' }).click();
    await openServerMenu(p.page);
    await p.page.getByRole('menuitem', { name: 'Create Channel' }).click();
    const onPhone = p.page.getByRole('dialog', { name: 'Create Channel' });
    await onPhone.getByLabel('Channel name').fill('x'.repeat(101));
    await onPhone.getByRole('button', { name: 'Create Channel' }).click();
    await onPhone.locator('.field__label--error').filter({ hasText: 'Channel name' }).waitFor();
    await shot(p.page, 'create-channel-phone');
    await assertNoSidewaysScroll(p.page, 'Create Channel dialog');
    await p.context.close();
  });

  test('roles: create one with a permission, rename, colour, reorder; the hierarchy locks roles above your own', async () => {
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('roles'));
    const roles = a.page.getByRole('list', { name: 'Roles' });
    await roles.waitFor();

    await a.page.getByRole('button', { name: 'Create Role' }).click();
    await a.page.getByLabel('Role name').fill('Moderators');
    await a.page.getByRole('button', { name: 'Colour #e91e63' }).click();
    await a.page.getByRole('switch', { name: 'Display role members separately from online members' }).check();
    await a.page.getByRole('tab', { name: 'Permissions' }).click();
    await a.page.getByRole('switch', { name: 'Kick Members' }).check();
    await shot(a.page, 'server-settings-role-permissions');
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await a.page.getByRole('button', { name: '← Roles' }).click();
    await roles.getByRole('button', { name: 'Moderators', exact: true }).waitFor();

    const listed = await env.t.api(`/guilds/${guildId()}/roles`, { token: alice().token });
    const mods = listed.body.find((r: any) => r.name === 'Moderators');
    assert.ok(mods, 'the role exists');
    assert.equal(BigInt(mods.permissions) & KICK_MEMBERS, KICK_MEMBERS, 'with Kick Members');
    assert.equal(mods.color, 0xe91e63);
    assert.equal(mods.hoist, true);

    // A second role goes to the bottom; up puts it above Moderators, down takes it back (the server has each order).
    await a.page.getByRole('button', { name: 'Create Role' }).click();
    await a.page.getByLabel('Role name').fill('Helpers');
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await a.page.getByRole('button', { name: '← Roles' }).click();
    await roles.getByRole('button', { name: 'Helpers', exact: true }).waitFor();
    // A function, not a string: the page's CSP refuses eval, which polling a string needs.
    const above = (x: string, y: string) =>
      a.page.waitForFunction(
        ([x, y]) => {
          const n = [...(globalThis as any).document.querySelectorAll('[aria-label="Roles"] li .ss-row__main > .ellipsis')].map((e: any) => e.textContent);
          return n.indexOf(x) >= 0 && n.indexOf(x) < n.indexOf(y);
        },
        [x, y],
      );
    const serverOrder = async () => {
      const r = await env.t.api(`/guilds/${guildId()}/roles`, { token: alice().token });
      const pos = (n: string) => r.body.find((x: any) => x.name === n).position;
      return { helpersOnTop: pos('Helpers') > pos('Moderators'), roles: r.body };
    };
    await above('Moderators', 'Helpers');
    await a.page.getByRole('button', { name: 'Move Helpers up' }).click();
    await above('Helpers', 'Moderators');
    assert.equal((await serverOrder()).helpersOnTop, true);
    await a.page.getByRole('button', { name: 'Move Helpers down' }).click();
    await above('Moderators', 'Helpers');
    const after = await serverOrder();
    assert.equal(after.helpersOnTop, false);
    await shot(a.page, 'server-settings-roles');

    // Bob gets Manage Roles through Helpers: he may edit roles below Helpers (none but @everyone), not Moderators.
    const helpers = after.roles.find((r: any) => r.name === 'Helpers');
    const MANAGE_ROLES = 1n << 28n;
    await env.t.api(`/guilds/${guildId()}/roles/${helpers.id}`, { method: 'PATCH', token: alice().token, body: { permissions: String(MANAGE_ROLES) } });
    await env.t.api(`/guilds/${guildId()}/members/${bob().id}/roles/${helpers.id}`, { method: 'PUT', token: alice().token });
    const b = await newPerson(env.browser);
    await signInAs(b.page, env.t.server.url, bob().token, settingsUrl('roles'));
    const bobRoles = b.page.getByRole('list', { name: 'Roles' });
    await bobRoles.getByRole('button', { name: /^Moderators/ }).click();
    await b.page.getByText('This role is at or above your highest role, so you cannot edit it.').waitFor();
    assert.equal(await b.page.getByLabel('Role name').isDisabled(), true);
    await b.page.getByRole('button', { name: '← Roles' }).click();
    assert.equal(await b.page.getByRole('button', { name: 'Move Moderators up' }).isDisabled(), true);
    // Bob's section list holds only what Manage Roles opens.
    const bobNav = b.page.getByRole('navigation', { name: 'Server settings' });
    assert.deepEqual(await bobNav.getByRole('link').allTextContents(), ['Roles']);
    await env.t.api(`/guilds/${guildId()}/members/${bob().id}/roles/${helpers.id}`, { method: 'DELETE', token: alice().token });
    await a.context.close();
    await b.context.close();
  });

  test('channels: an overwrite denying Send Messages to @everyone takes Bob’s composer away, live; rename and slowmode', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    await signInAs(b.page, env.t.server.url, bob().token, `/channels/${guildId()}/${general()}`);
    await composer(b.page).waitFor();
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('channels'));
    await a.page.getByRole('list', { name: 'Channels' }).getByRole('button', { name: 'general', exact: true }).click();

    await a.page.getByRole('tab', { name: 'Permissions' }).click();
    await a.page.getByRole('heading', { name: 'Permissions for @everyone' }).waitFor();
    await a.page.getByRole('radiogroup', { name: 'Send Messages', exact: true }).getByRole('radio', { name: 'Deny' }).check();
    await shot(a.page, 'server-settings-channel-permissions');
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await b.page.getByText('You do not have permission to send messages in this channel.').waitFor();
    const chan = await env.t.api(`/channels/${general()}`, { token: alice().token });
    const ow = chan.body.permission_overwrites.find((o: any) => o.id === guildId());
    assert.equal(BigInt(ow.deny) & SEND_MESSAGES, SEND_MESSAGES);

    // A member overwrite for Bob allowing it gives it back; removing the @everyone one leaves him able too.
    await a.page.getByLabel('Add a role or member').selectOption({ label: 'Bob' });
    await a.page.getByRole('heading', { name: 'Permissions for Bob' }).waitFor();
    await a.page.getByRole('radiogroup', { name: 'Send Messages', exact: true }).getByRole('radio', { name: 'Allow' }).check();
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await composer(b.page).waitFor();
    await a.page.getByRole('button', { name: /^Bob/ }).waitFor();
    await a.page.getByRole('button', { name: 'Remove Overwrite' }).click();
    await a.page.getByRole('heading', { name: 'Permissions for @everyone' }).waitFor();
    await b.page.getByText('You do not have permission to send messages in this channel.').waitFor();
    await a.page.getByRole('button', { name: 'Remove Overwrite' }).click();
    await composer(b.page).waitFor();

    // Overview: topic and slowmode.
    await a.page.getByRole('tab', { name: 'Overview' }).click();
    await a.page.getByLabel('Channel topic').fill('Talk about anything');
    await a.page.getByLabel('Slowmode').selectOption({ label: '10 seconds' });
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const saved = await env.t.api(`/channels/${general()}`, { token: alice().token });
    assert.equal(saved.body.topic, 'Talk about anything');
    assert.equal(saved.body.rate_limit_per_user, 10);
    // A name the API refuses (empty once trimmed) shows its error by the field, and nothing changes.
    await a.page.getByLabel('Channel name').fill(' ');
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.locator('.field__label--error').filter({ hasText: 'Channel name' }).waitFor();
    assert.equal((await env.t.api(`/channels/${general()}`, { token: alice().token })).body.name, 'general');
    await a.context.close();
    await b.context.close();
  });

  test('invites: listed with inviter and uses, revoked; joining with it then fails', async () => {
    const inv = await env.t.api(`/channels/${general()}/invites`, { method: 'POST', token: alice().token, body: { max_age: 3600, max_uses: 5 } });
    assert.equal(inv.status, 200, inv.text);
    const code = inv.body.code as string;
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('invites'));
    const row = a.page.locator(`tr[data-invite="${code}"]`);
    await row.waitFor();
    assert.match(String(await row.textContent()), /Alice/);
    assert.match(String(await row.textContent()), /0 \/ 5/);
    await shot(a.page, 'server-settings-invites');
    await row.getByRole('button', { name: `Revoke invite ${code}` }).click();
    await row.waitFor({ state: 'detached' });

    const carol = await register('carol');
    const c = await newPerson(env.browser);
    await signInAs(c.page, env.t.server.url, carol.token, `/invite/${code}`);
    await c.page.getByText('This invite is invalid or has expired.').waitFor();
    const join = await env.t.api(`/invites/${code}`, { method: 'POST', token: carol.token, body: {} });
    assert.equal(join.body.code, 10006, 'Unknown Invite');
    await a.context.close();
    await c.context.close();
  });

  test('bans listed with the reason and lifted; the audit log lists it all, filtered by action and by user', async () => {
    const dave = await register('dave');
    const ban = await env.t.api(`/guilds/${guildId()}/bans/${dave.id}`, {
      method: 'PUT',
      token: alice().token,
      body: {},
      headers: { 'x-audit-log-reason': 'Spamming links' },
    });
    assert.equal(ban.status, 204, ban.text);
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('bans'));
    const row = a.page.locator(`li[data-ban="${dave.id}"]`);
    await row.getByText('Reason: Spamming links').waitFor();
    await shot(a.page, 'server-settings-bans');
    await row.getByRole('button', { name: /^Unban/ }).click();
    await row.waitFor({ state: 'detached' });
    const gone = await env.t.api(`/guilds/${guildId()}/bans/${dave.id}`, { token: alice().token });
    assert.equal(gone.body.code, 10026, 'Unknown Ban');

    await a.page.getByRole('link', { name: 'Audit Log' }).click();
    const entries = a.page.getByRole('list', { name: 'Audit log entries' });
    await entries.locator('li').first().waitFor();
    await a.page.getByLabel('Filter by action').selectOption({ label: 'Create Role' });
    await entries.getByText('created the role').first().waitFor();
    await a.page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('[aria-label="Audit log entries"] li')].every((li: any) => li.dataset.actionType === '30'),
    );
    await entries.getByText('Moderators').waitFor();
    await a.page.getByLabel('Filter by action').selectOption({ label: 'Unban Member' });
    await entries.locator('li[data-action-type="23"]').filter({ hasText: dave.username }).waitFor();
    await a.page.getByLabel('Filter by action').selectOption({ label: 'Delete Invite' });
    await entries.locator('li[data-action-type="42"]').first().waitFor();
    await a.page.getByLabel('Filter by action').selectOption({ label: 'Ban Member' });
    await entries.getByText('Reason: Spamming links').waitFor();
    await shot(a.page, 'server-settings-audit-log');
    // By user: Bob did nothing that is logged.
    await a.page.getByLabel('Filter by action').selectOption({ label: 'All actions' });
    await a.page.getByLabel('Filter by user').selectOption({ label: 'Bob' });
    await a.page.getByText('Nothing in the audit log matches these filters.').waitFor();
    await a.page.getByLabel('Filter by user').selectOption({ label: 'Alice' });
    await entries.locator('li').first().waitFor();
    await a.context.close();
  });

  test('the audit log loads more, 50 at a time', async () => {
    // 55 role updates make two pages of "Update Role".
    const role = await env.t.api(`/guilds/${guildId()}/roles`, { method: 'POST', token: alice().token, body: { name: 'Colours' } });
    for (let i = 0; i < 55; i++) {
      const r = await env.t.api(`/guilds/${guildId()}/roles/${role.body.id}`, { method: 'PATCH', token: alice().token, body: { color: i + 1 } });
      assert.equal(r.status, 200, r.text);
    }
    const all = await env.t.api(`/guilds/${guildId()}/audit-logs?action_type=31&limit=100`, { token: alice().token });
    const total = all.body.audit_log_entries.length;
    assert.ok(total > 55 && total < 100, `${total} entries`);
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('audit-log'));
    await a.page.getByLabel('Filter by action').selectOption({ label: 'Update Role' });
    const count = (n: number) =>
      a.page.waitForFunction(
        (n) => (globalThis as any).document.querySelectorAll('[aria-label="Audit log entries"] li[data-action-type="31"]').length === n,
        n,
      );
    await count(50);
    await a.page.getByRole('button', { name: 'Load More' }).click();
    await count(total);
    await a.page.getByRole('button', { name: 'Load More' }).waitFor({ state: 'detached' });
    await a.context.close();
  });

  test('emoji and stickers: upload (the size error shown in place), rename, delete; Bob’s picker gets the emoji live', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    await signInAs(b.page, env.t.server.url, bob().token, `/channels/${guildId()}/${general()}`);
    await composer(b.page).waitFor();
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('emojis'));
    const emojiList = a.page.getByRole('list', { name: 'Custom emoji' });
    await a.page.getByText('No custom emoji yet.').waitFor();

    // Too large: the API's error, by the form.
    await a.page.getByLabel('Emoji image').setInputFiles(file('huge.png', Buffer.concat([makePng(64, [0, 0, 0], [255, 0, 0]), randomBytes(300 * 1024)])));
    await a.page.getByLabel('Emoji name').fill('huge');
    await a.page.getByRole('button', { name: 'Upload Emoji' }).click();
    await a.page
      .getByRole('alert')
      .filter({ hasText: /cannot be larger than/ })
      .waitFor();

    await a.page.getByLabel('Emoji image').setInputFiles(file('party_blob.png', makePng(64, [88, 101, 242], [235, 69, 158])));
    await a.page.getByLabel('Emoji name').fill('party_blob');
    await a.page.getByRole('button', { name: 'Upload Emoji' }).click();
    await emojiList.locator('li[data-expression="party_blob"]').waitFor();

    // Bob's picker, opened after the upload, has it under "This server".
    await b.page.getByRole('button', { name: 'Select emoji' }).click();
    await b.page
      .getByRole('dialog', { name: 'Emoji picker' })
      .getByRole('region', { name: 'This server' })
      .getByRole('button', { name: ':party_blob:' })
      .waitFor();
    await b.page.keyboard.press('Escape');

    // Rename, then the sticker.
    await emojiList.getByLabel('Name of party_blob').fill('partyblob');
    await emojiList.getByRole('button', { name: 'Rename' }).click();
    await emojiList.locator('li[data-expression="partyblob"]').waitFor();
    await a.page.getByLabel('Sticker image').setInputFiles(file('wave.png', makePng(320, [35, 165, 90], [88, 101, 242])));
    await a.page.getByLabel('Sticker name').fill('Wave');
    await a.page.getByLabel('Related emoji').fill('wave');
    await a.page.getByRole('button', { name: 'Upload Sticker' }).click();
    await a.page.getByRole('list', { name: 'Stickers' }).locator('li[data-expression="Wave"]').waitFor();
    await shot(a.page, 'server-settings-emoji');
    const stickers = await env.t.api(`/guilds/${guildId()}/stickers`, { token: alice().token });
    assert.deepEqual(
      stickers.body.map((s: any) => s.name),
      ['Wave'],
    );
    // Delete the emoji: Bob's picker loses it.
    await emojiList.getByRole('button', { name: 'Delete partyblob' }).click();
    await a.page.getByText('No custom emoji yet.').waitFor();
    await b.page.getByRole('button', { name: 'Select emoji' }).click();
    await b.page.getByRole('dialog', { name: 'Emoji picker' }).getByRole('button', { name: ':smile:' }).first().waitFor();
    assert.equal(await b.page.getByRole('button', { name: ':partyblob:' }).count(), 0);
    await a.context.close();
    await b.context.close();
  });

  test('overview: rename, icon, system channel; deleting a server asks in the page first', async () => {
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('overview'));
    await a.page.getByLabel('Server name').fill('Accord Dev');
    await a.page.getByLabel('Server icon file').setInputFiles(file('icon.png', makePng(128, [240, 178, 50], [242, 63, 67])));
    await a.page.getByLabel('System messages channel').selectOption({ label: 'No system messages' });
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const g = await env.t.api(`/guilds/${guildId()}`, { token: alice().token });
    assert.ok(g.body.icon, 'the icon is set');
    assert.equal(g.body.system_channel_id, null);
    await a.page.getByLabel('System messages channel').selectOption({ label: '#general' });
    await a.page.getByRole('button', { name: 'Save Changes' }).click();
    await a.page.waitForFunction(() => {
      const d = (globalThis as any).document;
      return d.querySelector('.ss-saved')?.textContent === 'Saved' && !d.querySelector('button[aria-busy]');
    });
    await shot(a.page, 'server-settings-overview');

    // A server of its own to delete.
    const made = await env.t.api('/guilds', { method: 'POST', token: alice().token, body: { name: 'Short Lived' } });
    await a.page.goto(`${env.t.server.url}/settings/server/${made.body.id}/overview`);
    await a.page.getByRole('button', { name: 'Delete Server' }).click();
    const dialog = a.page.getByRole('alertdialog', { name: 'Delete Short Lived' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await a.page.getByRole('button', { name: 'Delete Server' }).click();
    await dialog.getByRole('button', { name: 'Delete Server' }).click();
    await a.page.waitForURL('**/channels/@me');
    const gone = await env.t.api(`/guilds/${made.body.id}`, { token: alice().token });
    assert.equal(gone.body.code, 10004);
    await a.context.close();
  });

  /** A section may load several lists (emoji and stickers): wait until none of them shows its spinner. */
  const noSpinners = (page: Page) => page.waitForFunction(() => !(globalThis as any).document.querySelector('.state .spinner'));

  const SECTIONS = ['overview', 'roles', 'channels', 'emojis', 'invites', 'bans', 'audit-log'];

  test('every section on a desktop: no serious or critical axe violation', async () => {
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, settingsUrl('overview'));
    for (const s of SECTIONS) {
      await a.page.goto(`${env.t.server.url}${settingsUrl(s)}`);
      await a.page.getByRole('heading', { level: 1 }).waitFor();
      await noSpinners(a.page);
      assert.deepEqual(await seriousA11yProblems(a.page), [], `axe on ${s}`);
      await shot(a.page, `server-settings-${s}-desktop`);
    }
    await a.context.close();
  });

  test('every section on a phone (390×844): a list of sections, then one section full width; axe passes', async () => {
    const p = await newPhonePerson(env.browser);
    await signInAs(p.page, env.t.server.url, alice().token, `/channels/${guildId()}/${general()}`);
    await p.page.getByRole('button', { name: 'Open servers and channels' }).click();
    await openServerMenu(p.page);
    await p.page.getByRole('menuitem', { name: 'Server Settings' }).click();
    await p.page.getByRole('navigation', { name: 'Server settings' }).waitFor();
    assert.deepEqual(await seriousA11yProblems(p.page), [], 'axe on the phone section list');
    await shot(p.page, 'server-settings-phone-nav');
    for (const s of SECTIONS) {
      await p.page.goto(`${env.t.server.url}${settingsUrl(s)}`);
      await p.page.getByRole('heading', { level: 1 }).waitFor();
      await noSpinners(p.page);
      await assertNoSidewaysScroll(p.page, s);
      assert.deepEqual(await seriousA11yProblems(p.page), [], `axe on ${s} (phone)`);
      await shot(p.page, `server-settings-${s}-phone`);
    }
    // The role editor and the overwrite editor fit too.
    await p.page.goto(`${env.t.server.url}${settingsUrl('roles')}`);
    await p.page.getByRole('button', { name: 'Moderators', exact: true }).click();
    await p.page.getByRole('tab', { name: 'Permissions' }).click();
    // One way back on a phone: the header's, up to the list of roles (the editor's own "← Roles" is the desktop's).
    assert.equal(await p.page.getByRole('button', { name: '← Roles' }).isVisible(), false);
    await assertNoSidewaysScroll(p.page, 'role permissions');
    assert.deepEqual(await seriousA11yProblems(p.page), [], 'axe on the role editor (phone)');
    await shot(p.page, 'server-settings-role-permissions-phone');
    await p.page.goto(`${env.t.server.url}${settingsUrl('channels')}`);
    await p.page.getByRole('button', { name: 'general', exact: true }).click();
    await p.page.getByRole('tab', { name: 'Permissions' }).click();
    await assertNoSidewaysScroll(p.page, 'channel permissions');
    assert.deepEqual(await seriousA11yProblems(p.page), [], 'axe on the overwrite editor (phone)');
    await shot(p.page, 'server-settings-channel-permissions-phone');
    // Back to the list of channels, to the list of sections, then to the server.
    await p.page.getByRole('link', { name: 'Back to Channels' }).click();
    await p.page.getByRole('button', { name: 'general', exact: true }).waitFor();
    await p.page.getByRole('link', { name: 'All settings' }).click();
    await p.page.getByRole('link', { name: 'Back to the server' }).click();
    await p.page.waitForURL(`**/channels/${guildId()}/**`);
    await p.context.close();
  });
});
