/**
 * The phone layout at 390x844 (touch): the servers and channels, and the members, are drawers opened from the
 * channel header and closed by the scrim or by picking a channel; a message sent from the phone reaches a person
 * on a desktop; and no screen (chat, DMs, a thread, a forum, dialogs, the portal, the consent page, the activity
 * launcher, the store) can be scrolled sideways.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { assertNoSidewaysScroll, assertWithinScreen, newPhonePerson } from './helpers/phone.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { until } from '../../server/test/helpers/wait.ts';
import { composer, message, send } from './helpers/ui.ts';

describe('web client on a phone (390x844)', { timeout: 180_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const general = () => `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`;
  const post = async (path: string, token: string, body: unknown) => {
    const r = await env.t.api(path, { method: 'POST', token, body });
    assert.ok(r.status < 300, r.text);
    return r.body;
  };

  test('drawers open and close; a message sent from the phone reaches the other person', async () => {
    const phone = await newPhonePerson(env.browser);
    const desk = await newPerson(env.browser);
    const errors = watchErrors(phone.page);
    const { page } = phone;
    await signInAs(page, env.t.server.url, alice().token, general());
    await signInAs(desk.page, env.t.server.url, bob().token, general());
    await page.getByText('Welcome to #general!').waitFor();

    // The chat takes the whole width: no rail, channel list or member list beside it.
    const servers = page.getByRole('navigation', { name: 'Servers' });
    const channels = page.getByRole('complementary', { name: /channels$/ });
    const members = page.getByRole('complementary', { name: 'Members' });
    await servers.waitFor({ state: 'hidden' });
    await channels.waitFor({ state: 'hidden' });
    await members.waitFor({ state: 'hidden' });
    const box = (await composer(page).boundingBox())!;
    assert.ok(box.width > 250, `the composer is ${box.width} px wide`);
    await assertNoSidewaysScroll(page, 'chat');

    // The left drawer: opened from the header, closed by the scrim.
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await servers.waitFor();
    await channels.waitFor();
    await page.waitForTimeout(300); // the slide-in, for the screenshot
    await shot(page, 'phone-drawer');
    await page.locator('.drawer-scrim').tap({ position: { x: 370, y: 400 } });
    await channels.waitFor({ state: 'hidden' });

    // Picking a channel closes it.
    const voiceless = await post(`/guilds/${env.t.world.guildId}/channels`, alice().token, { name: 'phone-talk', type: 0 });
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await channels.getByRole('link', { name: /phone-talk/ }).tap();
    await page.waitForURL((u) => u.pathname.endsWith(`/${voiceless.id}`));
    await channels.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'phone-talk', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await channels.getByRole('link', { name: /general/ }).tap();
    await channels.waitFor({ state: 'hidden' });

    // The right drawer: the member list.
    await page.getByRole('button', { name: 'Show Member List' }).tap();
    await members.getByText('Bob').waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'phone-members');
    await page.locator('.drawer-scrim').tap({ position: { x: 20, y: 400 } });
    await members.waitFor({ state: 'hidden' });

    // Sent from the phone, it arrives on the desktop; the answer arrives on the phone.
    await send(page, 'Typed on a phone');
    await message(desk.page, 'Typed on a phone').waitFor();
    await send(desk.page, 'Read on a desktop');
    await message(page, 'Read on a desktop').waitFor();
    await assertNoSidewaysScroll(page, 'chat with messages');

    // A message's More is an action sheet: the screen's width, at its bottom, rows a thumb can hit.
    const mine = message(page, 'Typed on a phone');
    await mine.tap();
    await mine.getByRole('button', { name: 'More' }).tap();
    const sheet = page.getByRole('menu', { name: 'Message menu' });
    await sheet.waitFor();
    const s = (await sheet.boundingBox())!;
    assert.deepEqual([Math.round(s.x), Math.round(s.width), Math.round(s.y + s.height)], [0, 390, 844], 'the sheet spans the bottom of the screen');
    for (const row of await sheet.getByRole('menuitem').all())
      assert.ok((await row.boundingBox())!.height >= 44, `${await row.textContent()} is too short to tap`);
    await assertNoSidewaysScroll(page, 'the message action sheet');
    await shot(page, 'phone-message-sheet');
    // A tap above it closes it, and nothing under the scrim acts on it (the message's own actions stay as they were).
    await page.locator('.menu-scrim').tap({ position: { x: 200, y: 120 } });
    await sheet.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await page.getByRole('alertdialog').count(), 0);

    // Deleting asks in the page: an alert dialog that fits the phone; Cancel keeps the message.
    await mine.getByRole('button', { name: 'More' }).tap();
    await page.getByRole('menuitem', { name: 'Delete Message' }).tap();
    const ask = page.getByRole('alertdialog', { name: 'Delete Message' });
    await ask.waitFor();
    await assertNoSidewaysScroll(page, 'the delete confirmation');
    await shot(page, 'phone-confirm');
    await ask.getByRole('button', { name: 'Cancel' }).tap();
    await ask.waitFor({ state: 'detached' });
    await mine.waitFor();
    // The first message under the date shows its actions below it: the date stays readable.
    const bar = await page.getByRole('toolbar', { name: 'Message actions' }).boundingBox();
    const date = await page.locator('.divider span').first().boundingBox();
    assert.ok(bar && date && (bar.y >= date.y + date.height || bar.y + bar.height <= date.y), `the actions clear the date: ${JSON.stringify({ bar, date })}`);
    await shot(page, 'phone-chat');

    // The header's search is a bare icon until tapped, then a field wide enough to type in, within the screen.
    const search = page.getByRole('searchbox', { name: 'Search messages' });
    const background = () => search.evaluate((el) => String((globalThis as any).getComputedStyle(el).backgroundColor));
    const bare = await search.boundingBox();
    assert.ok(bare && bare.width <= 32, `a 32 px icon: ${JSON.stringify(bare)}`);
    assert.equal(await background(), 'rgba(0, 0, 0, 0)');
    await search.tap();
    await search.fill('heron');
    // Once it has grown (a short transition).
    await until(async () => ((await search.boundingBox())?.width ?? 0) >= 150, 5_000, 'the search field to open');
    await assertWithinScreen(search, 'the search field');
    assert.notEqual(await background(), 'rgba(0, 0, 0, 0)');
    await assertNoSidewaysScroll(page, 'the open search');
    // The header's other buttons step aside meanwhile: the channel's name stays readable beside the field.
    assert.equal(await page.getByRole('button', { name: 'Pinned Messages' }).isVisible(), false);
    const name = await page.locator('.channel__title').evaluate((el) => ({ shown: el.clientWidth, whole: el.scrollWidth }));
    assert.ok(name.shown >= Math.min(name.whole, 80), `the channel's name beside the open search: ${JSON.stringify(name)}`);
    await shot(page, 'phone-search');
    // Its results (here none: the empty state) open over the chat and fit the screen.
    await search.press('Enter');
    const results = page.getByRole('dialog', { name: 'Search results' });
    await results.getByText('No results').waitFor();
    await assertNoSidewaysScroll(page, 'the search results');
    await assertWithinScreen(results, 'the results');
    await shot(page, 'phone-search-results');
    await results.getByRole('button', { name: 'Close' }).tap();
    await search.fill('');
    await search.blur();
    // The header's other popover, Pinned Messages (none yet), fits the same way.
    await page.getByRole('button', { name: 'Pinned Messages' }).tap();
    const pins = page.getByRole('dialog', { name: 'Pinned Messages' });
    await pins.waitFor();
    await assertWithinScreen(pins, 'the pins');
    await shot(page, 'phone-pins');
    await page.getByRole('button', { name: 'Pinned Messages' }).tap();
    await pins.waitFor({ state: 'detached' });
    await members.waitFor({ state: 'hidden' });
    await desk.page.getByRole('complementary', { name: 'Members' }).waitFor(); // unchanged on a desktop
    await shot(desk.page, 'desktop-chat');
    assert.deepEqual(errors, []);
    await phone.context.close();
    await desk.context.close();
  });

  test('no screen scrolls sideways: DMs, a thread, a forum, dialogs, the launcher, the portal, consent, the store', async () => {
    const { page, context } = await newPhonePerson(env.browser);
    const errors = watchErrors(page);
    const dm = await post('/users/@me/channels', alice().token, { recipient_id: bob().id });
    await post(`/channels/${dm.id}/messages`, bob().token, { content: 'A direct message, read on a phone' });
    const base = await post(`/channels/${env.t.world.textChannelId}/messages`, bob().token, { content: 'Start a thread here' });
    const thread = await post(`/channels/${env.t.world.textChannelId}/messages/${base.id}/threads`, bob().token, { name: 'Phone thread' });
    await post(`/channels/${thread.id}/messages`, bob().token, { content: 'Inside the thread' });
    const forum = await post(`/guilds/${env.t.world.guildId}/channels`, alice().token, { name: 'ideas', type: 15, topic: 'One post per idea' });
    await post(`/channels/${forum.id}/threads`, bob().token, { name: 'Bigger buttons', message: { content: 'For thumbs' } });

    await signInAs(page, env.t.server.url, alice().token, `/channels/@me/${dm.id}`);
    await message(page, 'A direct message, read on a phone').waitFor();
    await assertNoSidewaysScroll(page, 'a DM');
    await shot(page, 'phone-dm');
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await page.getByRole('complementary', { name: 'Direct Messages' }).getByRole('link', { name: /Bob/ }).waitFor();
    await assertNoSidewaysScroll(page, 'the DM list');
    await page.locator('.drawer-scrim').tap({ position: { x: 370, y: 400 } });

    await page.goto(`${env.t.server.url}/channels/${env.t.world.guildId}/${thread.id}`);
    await message(page, 'Inside the thread').waitFor();
    assert.equal(await composer(page).getAttribute('placeholder'), 'Message Phone thread');
    await assertNoSidewaysScroll(page, 'a thread');
    await shot(page, 'phone-thread');

    await page.goto(`${env.t.server.url}/channels/${env.t.world.guildId}/${forum.id}`);
    await page.locator('.post', { hasText: 'Bigger buttons' }).waitFor();
    await assertNoSidewaysScroll(page, 'a forum');
    await shot(page, 'phone-forum');

    // Dialogs: the server menu's Invite People, and the App Launcher.
    await page.goto(`${env.t.server.url}${general()}`);
    await page.getByText('Welcome to #general!').waitFor();
    await page.getByRole('button', { name: 'Open servers and channels' }).tap();
    await page.locator('.sidebar__header').tap();
    await page.getByRole('menuitem', { name: 'Invite People' }).tap();
    await page.getByRole('dialog').waitFor();
    await assertNoSidewaysScroll(page, 'the invite dialog');
    await shot(page, 'phone-invite-dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.locator('.drawer-scrim').tap({ position: { x: 370, y: 400 } });
    await page.getByRole('button', { name: 'Activities' }).tap();
    await page.getByRole('dialog').waitFor();
    await assertNoSidewaysScroll(page, 'the App Launcher');
    await shot(page, 'phone-launcher');
    await page.keyboard.press('Escape');

    await page.goto(`${env.t.server.url}/developers/applications`);
    await page.getByText('Dev Bot').first().waitFor();
    await assertNoSidewaysScroll(page, 'the portal');
    await shot(page, 'phone-portal');
    await page.getByText('Dev Bot').first().tap();
    await page.waitForURL(/\/developers\/applications\/\d+\//);
    await page.getByRole('heading').first().waitFor();
    await assertNoSidewaysScroll(page, 'an application in the portal');
    await shot(page, 'phone-portal-app');

    await page.goto(`${env.t.server.url}/oauth2/authorize?client_id=${env.t.world.applicationId}&scope=bot%20applications.commands&permissions=2048`);
    await page.getByRole('heading', { name: 'Dev Bot' }).waitFor();
    await assertNoSidewaysScroll(page, 'the consent page');
    await shot(page, 'phone-consent');

    await post(`/applications/${env.t.world.applicationId}/skus`, alice().token, { name: 'Gold Pass', type: 5, price: 499, published: true });
    await page.goto(`${env.t.server.url}/application-directory/${env.t.world.applicationId}/store`);
    await page.getByText('Gold Pass').waitFor();
    await assertNoSidewaysScroll(page, 'the store');
    await shot(page, 'phone-store');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
