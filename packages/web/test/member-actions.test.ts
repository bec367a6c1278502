/**
 * Member actions from the member list and the user popout (issue 22, item 5): with two people in two browsers, the
 * owner times the other out (their composer says until when, then the timeout is removed), gives a role (the name
 * takes its color for both), kicks (the server leaves the other's rail live) and bans with a reason (the invite then
 * fails with the platform's 40007); a plain member sees no moderation action. The role is given on a phone.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './helpers/axe.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { holdDispatch } from './helpers/gateway-delay.ts';
import { assertNoSidewaysScroll, newPhonePerson } from './helpers/phone.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { composer, message, send } from './helpers/ui.ts';

describe('member actions', { timeout: 240_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const general = () => `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`;
  const api = async (path: string, token: string, method = 'GET', body?: unknown) => {
    const r = await env.t.api(path, { method, token, body });
    assert.ok(r.status < 300, `${method} ${path}: ${r.text}`);
    return r.body;
  };
  const members = (page: Page) => page.getByRole('complementary', { name: 'Members' });
  const memberRow = (page: Page, userId: string) => members(page).locator(`button.member[data-user="${userId}"]`);
  const rail = (page: Page) => page.getByRole('navigation', { name: 'Servers' });
  /** Opens a member's popout from the member list. */
  const popout = async (page: Page, userId: string, name: string) => {
    await memberRow(page, userId).click();
    const card = page.getByRole('dialog', { name });
    await card.waitFor();
    return card;
  };

  test('a plain member sees no moderation action, in the popout or the menu', async () => {
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, bob().token, general());
    await memberRow(page, alice().id).waitFor();
    const card = await popout(page, alice().id, 'Alice');
    await card.getByRole('button', { name: 'Message' }).waitFor();
    assert.equal(await card.getByRole('group', { name: 'Member actions' }).count(), 0);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    await memberRow(page, alice().id).click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'User menu' });
    await menu.getByRole('menuitem', { name: 'Copy User ID' }).waitFor();
    for (const word of ['Kick', 'Ban', 'Timeout', 'Roles', 'Change Nickname'])
      assert.equal(await menu.getByRole('menuitem', { name: new RegExp(word) }).count(), 0, `${word} is not offered`);
    await page.keyboard.press('Escape');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('the owner times a member out: their composer is disabled until then; then the timeout is removed', async () => {
    const owner = await newPerson(env.browser);
    const member = await newPerson(env.browser);
    const errors = watchErrors(owner.page);
    await signInAs(owner.page, env.t.server.url, alice().token, general());
    await signInAs(member.page, env.t.server.url, bob().token, general());
    await composer(member.page).waitFor();

    // By keyboard: Enter on the member opens the popout with focus inside; Enter on an action opens its dialog.
    await memberRow(owner.page, bob().id).focus();
    await owner.page.keyboard.press('Enter');
    const card = owner.page.getByRole('dialog', { name: 'Bob' });
    const actions = card.getByRole('group', { name: 'Member actions' });
    await actions.getByRole('button', { name: 'Kick Bob' }).waitFor();
    assert.equal(await card.locator(':focus').count(), 1, 'the popout has focus');
    await shot(owner.page, 'member-actions-popout');
    await actions.getByRole('button', { name: 'Timeout Bob' }).focus();
    await owner.page.keyboard.press('Enter');
    const ask = owner.page.getByRole('alertdialog', { name: 'Timeout Bob' });
    await ask.getByLabel('10 minutes').check();
    await ask.getByLabel('Reason').fill('Cooling off');
    for (const p of await seriousA11yProblems(owner.page)) assert.fail(`timeout dialog: ${p.impact} ${p.id} at ${p.targets.join(' | ')}`);
    await shot(owner.page, 'member-actions-timeout');
    await ask.getByRole('button', { name: 'Timeout', exact: true }).click();
    await ask.waitFor({ state: 'detached' });

    // The person timed out sees it in place of the composer, with the end time.
    const blocked = member.page.locator('.composer__box--disabled', { hasText: 'You are timed out until' });
    await blocked.waitFor();
    assert.equal(await composer(member.page).count(), 0);
    await shot(member.page, 'member-actions-timed-out-composer');
    const refused = await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: bob().token,
      body: { content: 'still here?' },
    });
    assert.equal(refused.status, 403, 'the server refuses a timed-out member too');

    // The owner sees the timeout on the popout and removes it; the composer comes back.
    const again = await popout(owner.page, bob().id, 'Bob');
    await again.getByText('Timed out until').waitFor();
    await again.getByRole('button', { name: 'Remove Timeout' }).click();
    const lift = owner.page.getByRole('alertdialog', { name: 'Remove timeout for Bob' });
    await lift.getByRole('button', { name: 'Remove Timeout' }).click();
    await lift.waitFor({ state: 'detached' });
    await composer(member.page).waitFor();
    await send(member.page, 'Free to talk again');
    await message(owner.page, 'Free to talk again').waitFor();
    assert.deepEqual(errors, []);
    await owner.context.close();
    await member.context.close();
  });

  test('on a phone, the owner gives a role from the member drawer: the name takes its color for both', async () => {
    const role = await api(`/guilds/${env.t.world.guildId}/roles`, alice().token, 'POST', { name: 'Gold', color: 0xe67e22 });
    const owner = await newPhonePerson(env.browser);
    const member = await newPerson(env.browser);
    // The 204 comes before the member update: the tick must hold, not flick back until the event arrives.
    await holdDispatch(owner.page, 'GUILD_MEMBER_UPDATE', 1_500);
    await signInAs(owner.page, env.t.server.url, alice().token, general());
    await signInAs(member.page, env.t.server.url, bob().token, general());
    await memberRow(member.page, bob().id).waitFor();

    await owner.page.getByRole('button', { name: 'Show Member List' }).tap();
    await memberRow(owner.page, bob().id).tap();
    const card = owner.page.getByRole('dialog', { name: 'Bob' });
    await card.getByRole('group', { name: 'Member actions' }).waitFor();
    await owner.page.waitForTimeout(300); // the drawer's slide-in, for the screenshot
    await assertNoSidewaysScroll(owner.page, 'the member popout');
    await shot(owner.page, 'member-actions-phone-popout');
    await card.getByRole('button', { name: 'Roles' }).tap();
    const roles = owner.page.getByRole('dialog', { name: 'Roles' });
    await roles.getByLabel('Gold').check();
    await roles.getByLabel('Gold').and(owner.page.locator(':enabled')).waitFor();
    await assertNoSidewaysScroll(owner.page, 'the roles dialog');
    await shot(owner.page, 'member-actions-phone-roles');
    await roles.getByRole('button', { name: 'Done' }).tap();

    // Bob's name in the member list takes the role's color, for Bob and for the owner.
    // A function, not a string: the page's CSP forbids the eval that polling a string needs. No DOM types here.
    const colored = (id: string) => {
      const name = (globalThis as any).document.querySelector(`.members button.member[data-user="${id}"] .member__name`);
      return name !== null && (globalThis as any).getComputedStyle(name).color === 'rgb(230, 126, 34)';
    };
    for (const page of [member.page, owner.page]) await page.waitForFunction(colored, bob().id);
    const held = await api(`/guilds/${env.t.world.guildId}/members/${bob().id}`, alice().token);
    assert.deepEqual(held.roles, [role.id]);
    await owner.context.close();
    await member.context.close();
  });

  test("a kick removes the server from the member's rail live; a ban with a reason makes their invite fail with 40007", async () => {
    const owner = await newPerson(env.browser);
    const member = await newPerson(env.browser);
    const errors = watchErrors(owner.page);
    await signInAs(owner.page, env.t.server.url, alice().token, general());
    await signInAs(member.page, env.t.server.url, bob().token, general());
    const server = rail(member.page).getByRole('link', { name: /^Accord Dev/ });
    await server.waitFor();

    await memberRow(owner.page, bob().id).click({ button: 'right' });
    await owner.page.getByRole('menuitem', { name: 'Kick Bob' }).click();
    const kick = owner.page.getByRole('alertdialog', { name: 'Kick Bob from Accord Dev' });
    await kick.getByLabel('Reason').fill('Testing kicks');
    await kick.getByRole('button', { name: 'Kick', exact: true }).click();
    await kick.waitFor({ state: 'detached' });
    await server.waitFor({ state: 'detached' });
    await memberRow(owner.page, bob().id).waitFor({ state: 'detached' });

    // Back with a new invite, then banned with a reason and an hour of messages deleted.
    const invite = await api(`/channels/${env.t.world.textChannelId}/invites`, alice().token, 'POST', { max_age: 0 });
    await api(`/invites/${invite.code}`, bob().token, 'POST', {});
    await server.waitFor();
    await api(`/channels/${env.t.world.textChannelId}/messages`, bob().token, 'POST', { content: 'About to be banned' });
    await message(owner.page, 'About to be banned').waitFor();
    const card = await popout(owner.page, bob().id, 'Bob');
    await card.getByRole('button', { name: 'Ban Bob' }).click();
    const ban = owner.page.getByRole('alertdialog', { name: 'Ban Bob from Accord Dev' });
    await ban.getByLabel('Delete message history').selectOption({ label: 'Previous Hour' });
    await ban.getByLabel('Reason').fill('Spamming the channel');
    for (const p of await seriousA11yProblems(owner.page)) assert.fail(`ban dialog: ${p.impact} ${p.id} at ${p.targets.join(' | ')}`);
    await shot(owner.page, 'member-actions-ban');
    await ban.getByRole('button', { name: 'Ban', exact: true }).click();
    await ban.waitFor({ state: 'detached' });
    await server.waitFor({ state: 'detached' });
    await message(owner.page, 'About to be banned').waitFor({ state: 'detached' });
    const record = await api(`/guilds/${env.t.world.guildId}/bans/${bob().id}`, alice().token);
    assert.equal(record.reason, 'Spamming the channel');

    // The banned person's invite fails with the platform's error, shown on the invite page.
    await member.page.goto(`${env.t.server.url}/invite/${invite.code}`);
    await member.page.getByRole('button', { name: 'Accept Invite' }).click();
    await member.page.getByRole('alert').filter({ hasText: 'banned from this guild' }).waitFor();
    const refused = await env.t.api(`/invites/${invite.code}`, { method: 'POST', token: bob().token, body: {} });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 40007);
    await shot(member.page, 'member-actions-banned-invite');
    assert.deepEqual(errors, []);
    await owner.context.close();
    await member.context.close();
  });
});
