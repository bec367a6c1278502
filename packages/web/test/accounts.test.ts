/**
 * People use Accord in a browser: one registers and creates a guild, invites a second, who joins through
 * /invite/{code} in another browser; each sees the other's messages live, with typing and a reaction.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { webSuite } from './helpers/suite.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { composer, message, registerInUi, send } from './helpers/ui.ts';

describe('accounts, guilds and live chat in two browsers', { timeout: 180_000 }, () => {
  const env = webSuite();

  test('register, create a guild, invite; the second person joins and both chat live with typing and a reaction', async () => {
    const ana = await newPerson(env.browser);
    const ben = await newPerson(env.browser);
    const errors = [...watchErrors(ana.page), ...watchErrors(ben.page)];

    // Ana registers and creates a guild from "Add a Server".
    await registerInUi(ana.page, env.t.server.url, 'ana_books', 'Ana');
    await shot(ana.page, 'accounts-1-home-empty');
    await ana.page.getByRole('button', { name: 'Add a Server' }).click();
    await ana.page.getByLabel('Server name').fill('Book Club');
    await shot(ana.page, 'accounts-2-create-guild');
    await ana.page.getByRole('button', { name: 'Create', exact: true }).click();
    await ana.page.waitForURL(/\/channels\/\d+\/\d+$/);
    const [, guildId, channelId] = /\/channels\/(\d+)\/(\d+)$/.exec(ana.page.url())!;
    await ana.page.getByRole('heading', { name: 'general', exact: true }).waitFor();
    await ana.page.getByText('Welcome to #general!').waitFor();

    // The guild exists on the server, owned by Ana.
    const token = await ana.page.evaluate<string>("localStorage.getItem('accord.token')");
    const guild = await env.t.api(`/guilds/${guildId}`, { token });
    assert.equal(guild.status, 200);
    assert.equal(guild.body.name, 'Book Club');

    // An invite link from the guild menu.
    await ana.page.getByRole('button', { name: 'Book Club' }).click();
    await ana.page.getByRole('menuitem', { name: 'Invite People' }).click();
    const link = ana.page.getByLabel('Send a server invite link to a friend');
    await link.waitFor();
    const url = await link.inputValue();
    assert.match(url, /\/invite\/[A-Za-z0-9]+$/);
    await shot(ana.page, 'accounts-3-invite');
    await ana.page.keyboard.press('Escape');

    // Ben opens the link signed out, registers from there and accepts.
    await ben.page.goto(url);
    await ben.page.getByText('Book Club').waitFor();
    await shot(ben.page, 'accounts-4-invite-signed-out');
    await ben.page.getByRole('button', { name: 'Log in to accept' }).click();
    await ben.page.waitForURL(/\/login/);
    await ben.page.getByRole('link', { name: 'Register' }).click();
    await ben.page.getByLabel('Display name').fill('Ben');
    await ben.page.getByLabel('Username').fill('ben_books');
    await ben.page.getByLabel('Password').fill('correct-horse-battery');
    await ben.page.getByRole('button', { name: 'Continue' }).click();
    await ben.page.waitForURL(/\/invite\//);
    await ben.page.getByRole('button', { name: 'Accept Invite' }).click();
    await ben.page.waitForURL(new RegExp(`/channels/${guildId}/${channelId}$`));
    await ben.page.getByRole('heading', { name: 'general', exact: true }).waitFor();

    // Ana sees Ben join (member list and join message) without reloading.
    await ana.page.locator('.members').getByText('Ben').waitFor();

    // Ana writes with markdown; Ben sees it rendered, live.
    await send(ana.page, 'Welcome **Ben**! First book: *Dune* — `chapter 1` tonight');
    const onBen = message(ben.page, 'First book');
    await onBen.locator('strong', { hasText: 'Ben' }).waitFor();
    await onBen.locator('em', { hasText: 'Dune' }).waitFor();
    await onBen.locator('code', { hasText: 'chapter 1' }).waitFor();

    // Ben starts typing: Ana sees the indicator.
    await composer(ben.page).pressSequentially('Sounds gr', { delay: 20 });
    await ana.page.getByTestId('typing').getByText('Ben').waitFor();
    await shot(ana.page, 'accounts-5-typing');

    // Ben reacts to Ana's message from the hover toolbar; Ana sees the count.
    await onBen.hover();
    await onBen.getByRole('button', { name: 'React with 👍' }).click();
    await message(ana.page, 'First book').getByRole('button', { name: '👍, 1 reaction' }).waitFor();

    // Ben sends; the typing indicator goes away on Ana's side when his message lands.
    await composer(ben.page).pressSequentially('eat!');
    await composer(ben.page).press('Enter');
    await message(ana.page, 'Sounds great!').waitFor();
    await ana.page.getByTestId('typing').getByText('Ben').waitFor({ state: 'detached' });
    await shot(ana.page, 'accounts-6-live-chat');
    await shot(ben.page, 'accounts-7-live-chat-ben');

    // The reaction is real on the server.
    const msgs = await env.t.api(`/channels/${channelId}/messages`, { token });
    const first = msgs.body.find((m: any) => m.content.includes('First book'));
    assert.equal(first.reactions?.[0]?.count, 1);
    assert.deepEqual(errors, []);
    await ana.context.close();
    await ben.context.close();
  });
});
