/**
 * Read states in the browser (issue 22, item 1), two people in two contexts: Bob posts where Alice is not looking,
 * her channel turns bold, a mention adds badges on the channel and the server icon and a count in the title; opening
 * the channel shows the "new messages" divider and clears them, in her other tab too (MESSAGE_ACK). A DM from Bob
 * shows a badge on the DM list.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { composer, message, send } from './helpers/ui.ts';

/** Waits for the page title (the unread mention count shows there). */
// Functions, not strings, for waitForFunction: the page's CSP refuses eval, which polling a string needs.
const titleIs = (page: Page, title: string) => page.waitForFunction((t) => (globalThis as any).document.title === t, title);

describe('read states in the browser', { timeout: 240_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const guildId = () => env.t.world.guildId;
  const general = () => env.t.world.textChannelId;
  const chan = (page: Page, id: string) => page.locator(`a.chan[href$="/${id}"]`);
  const serverIcon = (page: Page) => page.locator(`nav[aria-label="Servers"] a[href="/channels/${guildId()}"]`);
  let random = '';
  /** A second text channel, #random, where Alice reads while Bob posts in #general. */
  const ensureRandom = async () => {
    if (random) return;
    const made = await env.t.api(`/guilds/${guildId()}/channels`, {
      method: 'POST',
      token: env.t.world.botToken,
      bot: true,
      body: { name: 'random', type: 0 },
    });
    assert.equal(made.status, 201, made.text);
    random = made.body.id;
  };

  test('unread, mention badges, title count, the divider and MESSAGE_ACK across tabs', async () => {
    await ensureRandom();
    const a = await newPerson(env.browser);
    const errors = watchErrors(a.page);
    const tab2 = await a.context.newPage();
    const b = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, `/channels/${guildId()}/${random}`);
    await a.page.getByText('Welcome to #random!').waitFor();
    await tab2.goto(`${env.t.server.url}/channels/${guildId()}/${random}`);
    await tab2.getByText('Welcome to #random!').waitFor();
    await signInAs(b.page, env.t.server.url, bob().token, `/channels/${guildId()}/${general()}`);
    await b.page.getByText('Welcome to #general!').waitFor();
    assert.equal(await chan(a.page, general()).getAttribute('data-unread'), null, 'read before Bob posts');

    // A plain message: bold with a dot, no badge.
    await send(b.page, 'Anyone around?');
    await message(b.page, 'Anyone around?').waitFor();
    await chan(a.page, general()).and(a.page.locator('[data-unread]')).waitFor();
    assert.equal(await chan(a.page, general()).getByTestId('mention-badge').count(), 0);
    assert.equal(await a.page.title(), 'Accord');

    // A mention: badges on the channel and the server icon, the count in the title (both tabs).
    await send(b.page, `<@${alice().id}> can you review chapter two?`);
    await chan(a.page, general()).getByTestId('mention-badge').filter({ hasText: '1' }).waitFor();
    await serverIcon(a.page).getByTestId('mention-badge').filter({ hasText: '1' }).waitFor();
    await titleIs(a.page, '(1) Accord');
    await chan(tab2, general()).getByTestId('mention-badge').filter({ hasText: '1' }).waitFor();
    await shot(a.page, 'read-states-unread');

    // Alice opens #general: the divider sits above Bob's first unread message and the badges clear.
    await chan(a.page, general()).click();
    await a.page.getByTestId('unread-divider').waitFor();
    await message(a.page, 'Anyone around?').waitFor();
    const dividerAbove = await a.page.evaluate(`(() => {
      const d = document.querySelector('[data-testid="unread-divider"]').getBoundingClientRect();
      const m = [...document.querySelectorAll('article.msg')].find((el) => el.textContent.includes('Anyone around?')).getBoundingClientRect();
      return d.top <= m.top;
    })()`);
    assert.ok(dividerAbove, 'the divider is above the first unread message');
    await shot(a.page, 'read-states-divider');
    await chan(a.page, general()).getByTestId('mention-badge').waitFor({ state: 'detached' });
    await serverIcon(a.page).getByTestId('mention-badge').waitFor({ state: 'detached' });
    await titleIs(a.page, 'Accord');
    // The other tab clears through MESSAGE_ACK.
    await chan(tab2, general()).and(tab2.locator('[data-unread]')).waitFor({ state: 'detached' });
    await titleIs(tab2, 'Accord');

    // The server has the read state: a new session starts read.
    const page = await env.t.api(`/channels/${general()}/messages?limit=1`, { token: alice().token });
    await tab2.reload();
    await tab2.getByText('Welcome to #random!').waitFor();
    assert.equal(await chan(tab2, general()).getAttribute('data-unread'), null);
    assert.equal(page.body[0].content, `<@${alice().id}> can you review chapter two?`);
    assert.deepEqual(errors, []);
    await a.context.close();
    await b.context.close();
  });

  test('a DM from Bob shows a badge on the home button and the DM list until Alice reads it', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    const dm = await env.t.api('/users/@me/channels', { method: 'POST', token: bob().token, body: { recipient_id: alice().id } });
    assert.equal(dm.status, 200, dm.text);
    await signInAs(a.page, env.t.server.url, alice().token, '/channels/@me');
    await a.page.getByRole('complementary', { name: 'Direct Messages' }).waitFor();
    await signInAs(b.page, env.t.server.url, bob().token, `/channels/@me/${dm.body.id}`);
    await composer(b.page).waitFor();
    await send(b.page, 'Are we still on for Friday?');
    await send(b.page, 'Bring the maps');
    const row = a.page.locator(`a.dm[href$="/${dm.body.id}"]`);
    await row.getByTestId('mention-badge').filter({ hasText: '2' }).waitFor();
    await a.page.locator('nav[aria-label="Servers"] a[href="/channels/@me"]').getByTestId('mention-badge').filter({ hasText: '2' }).waitFor();
    await titleIs(a.page, '(2) Accord');
    await shot(a.page, 'read-states-dm');
    await row.click();
    await message(a.page, 'Bring the maps').waitFor();
    await row.getByTestId('mention-badge').waitFor({ state: 'detached' });
    await titleIs(a.page, 'Accord');
    await a.context.close();
    await b.context.close();
  });

  test('Alt+ArrowDown walks the channels; Alt+Shift+ArrowDown jumps to the unread one; Mark As Read clears a server', async () => {
    await ensureRandom();
    const a = await newPerson(env.browser);
    await signInAs(a.page, env.t.server.url, alice().token, `/channels/${guildId()}/${general()}`);
    await a.page.getByText('Welcome to #general!').waitFor();
    await a.page.keyboard.press('Alt+ArrowDown');
    await a.page.waitForURL(`**/channels/${guildId()}/${random}`);
    await a.page.keyboard.press('Alt+ArrowUp');
    await a.page.waitForURL(`**/channels/${guildId()}/${general()}`);
    // Bob posts in #random while Alice reads elsewhere (the DMs), then Alt+Shift+Down lands on it.
    await a.page.locator('nav[aria-label="Servers"] a[href="/channels/@me"]').click();
    await a.page.getByRole('complementary', { name: 'Direct Messages' }).waitFor();
    const posted = await env.t.api(`/channels/${random}/messages`, { method: 'POST', token: bob().token, body: { content: `<@${alice().id}> over here` } });
    assert.equal(posted.status, 200, posted.text);
    await serverIcon(a.page).getByTestId('mention-badge').filter({ hasText: '1' }).waitFor();
    // Mark As Read from the server menu clears it without opening the channel.
    await serverIcon(a.page).click();
    await chan(a.page, random).and(a.page.locator('[data-unread]')).waitFor();
    await a.page.locator('.sidebar__header').click();
    await a.page.getByRole('menuitem', { name: 'Mark As Read' }).click();
    await serverIcon(a.page).getByTestId('mention-badge').waitFor({ state: 'detached' });
    await chan(a.page, random).and(a.page.locator('[data-unread]')).waitFor({ state: 'detached' });
    // Another unread message, then Alt+Shift+ArrowDown goes straight to it.
    const again = await env.t.api(`/channels/${random}/messages`, { method: 'POST', token: bob().token, body: { content: 'and here' } });
    assert.equal(again.status, 200, again.text);
    await chan(a.page, random).and(a.page.locator('[data-unread]')).waitFor();
    await a.page.keyboard.press('Alt+Shift+ArrowDown');
    await a.page.waitForURL(`**/channels/${guildId()}/${random}`);
    await message(a.page, 'and here').waitFor();
    await chan(a.page, random).and(a.page.locator('[data-unread]')).waitFor({ state: 'detached' });
    await a.context.close();
  });

  test('while the tab is hidden, a mention and a DM raise browser notifications; a plain message does not', async () => {
    await ensureRandom();
    const a = await newPerson(env.browser);
    await a.context.grantPermissions(['notifications'], { origin: env.t.server.url });
    // Records what the client shows, through the real Notification constructor.
    await a.context.addInitScript(`{
      const Real = window.Notification;
      window.__shown = [];
      window.Notification = class extends Real {
        constructor(title, options) { super(title, options); window.__shown.push({ title, body: options && options.body }); }
      };
    }`);
    await signInAs(a.page, env.t.server.url, alice().token, `/channels/${guildId()}/${random}`);
    await a.page.getByText('Welcome to #random!').waitFor();
    await a.page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })`);
    const say = (channelId: string, content: string) => env.t.api(`/channels/${channelId}/messages`, { method: 'POST', token: bob().token, body: { content } });
    assert.equal((await say(general(), 'just chatting')).status, 200);
    assert.equal((await say(general(), `<@${alice().id}> look at this`)).status, 200);
    const dm = await env.t.api('/users/@me/channels', { method: 'POST', token: bob().token, body: { recipient_id: alice().id } });
    const psst = await say(dm.body.id, 'psst');
    assert.equal(psst.status, 200);
    await a.page.waitForFunction(() => (globalThis as any).__shown.length >= 2);
    const shown = (await a.page.evaluate('window.__shown')) as { title: string; body: string }[];
    assert.deepEqual(shown, [
      { title: 'Bob (#general)', body: `<@${alice().id}> look at this` },
      { title: 'Bob', body: 'psst' },
    ]);
    // Read both through the API, so the next test starts with nothing unread.
    const last = (await env.t.api(`/channels/${general()}/messages?limit=1`, { token: alice().token })).body[0].id;
    assert.equal((await env.t.api(`/channels/${general()}/messages/${last}/ack`, { method: 'POST', token: alice().token, body: {} })).status, 200);
    assert.equal((await env.t.api(`/channels/${dm.body.id}/messages/${psst.body.id}/ack`, { method: 'POST', token: alice().token, body: {} })).status, 200);
    await a.context.close();
  });

  test('phone size (390x844): a message sent and an unread badge cleared', async () => {
    await ensureRandom();
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, env.t.server.url, alice().token, `/channels/${guildId()}/${random}`);
    await composer(page).waitFor();
    await send(page, 'From my phone');
    await message(page, 'From my phone').waitFor({ state: 'attached' });
    const posted = await env.t.api(`/channels/${general()}/messages`, { method: 'POST', token: bob().token, body: { content: `<@${alice().id}> ping` } });
    assert.equal(posted.status, 200, posted.text);
    // The phone layout keeps servers and channels in a drawer.
    await page.getByRole('button', { name: 'Open servers and channels' }).click();
    await serverIcon(page).getByTestId('mention-badge').filter({ hasText: '1' }).waitFor();
    await titleIs(page, '(1) Accord');
    await chan(page, general()).click();
    await message(page, 'ping').waitFor({ state: 'attached' });
    await serverIcon(page).getByTestId('mention-badge').waitFor({ state: 'detached' });
    await titleIs(page, 'Accord');
    await shot(page, 'read-states-phone');
    await context.close();
  });
});
