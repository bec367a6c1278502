/**
 * Issue 22, items 2 and 3, in Chromium with two people in two browser contexts: `@`, `#` and `:` completion with
 * the keyboard sending real mentions, the 2000-character limit checked before sending, a refused send keeping
 * the text with a retry, Up to edit and Escape to cancel, and Twemoji images in messages, reactions and the picker.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { png } from '../../server/conformance/world.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { composer, confirmed, message, send } from './helpers/ui.ts';

/** True once every <img> the locator matches has really loaded (a broken image has naturalWidth 0). */
const loaded = (page: Page, selector: string) =>
  page.waitForFunction((sel) => {
    // Runs in the page; the test's tsconfig has no DOM types.
    const imgs = [...(globalThis as any).document.querySelectorAll(sel)] as { complete: boolean; naturalWidth: number }[];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, selector);

describe('composer and emoji in the browser', { timeout: 240_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const general = () => `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`;
  const messages = async (channelId = env.t.world.textChannelId) =>
    (await env.t.api(`/channels/${channelId}/messages?limit=50`, { token: alice().token })).body as any[];

  test('the Twemoji images are static files of the build, and nothing else is reachable through their folder', async () => {
    const ok = await fetch(`${env.t.server.url}/assets/twemoji/1f604.svg`);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'image/svg+xml');
    assert.match(await ok.text(), /^<svg/);
    for (const p of ['/assets/twemoji/..%2Findex.html', '/assets/twemoji/nested/1f604.svg', '/assets/twemoji/.hidden', '/assets/twemoji/ffff.svg']) {
      const r = await fetch(`${env.t.server.url}${p}`);
      assert.equal(r.status, 404, p);
      assert.equal(((await r.json()) as { code: number }).code, 0);
    }
  });

  test('@, # and : complete with the keyboard; Bob receives a real mention', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    const errors = watchErrors(a.page);
    try {
      await signInAs(a.page, env.t.server.url, alice().token, general());
      await signInAs(b.page, env.t.server.url, bob().token, general());
      await a.page.getByText('Welcome to #general!').waitFor();
      await b.page.getByText('Welcome to #general!').waitFor();

      const box = composer(a.page);
      await box.click();
      await box.pressSequentially('Hi @bo');
      const list = a.page.getByRole('listbox', { name: 'Suggestions' });
      await list.getByRole('option', { name: /Bob/ }).waitFor();
      // Bob starts with "bo", so he is first and selected; down moves off him, up comes back.
      assert.equal(
        await list
          .getByRole('option', { selected: true })
          .textContent()
          .then((t) => /Bob/.test(t ?? '')),
        true,
      );
      await shot(a.page, 'composer-1-mention-popup');
      await box.press('ArrowDown');
      await box.press('ArrowUp');
      await box.press('Enter');
      await list.waitFor({ state: 'detached' });
      assert.equal(await box.inputValue(), `Hi <@${bob().id}> `);

      await box.pressSequentially('see #gen');
      await list.getByRole('option', { name: /general/ }).waitFor();
      await box.press('Tab');
      assert.equal(await box.inputValue(), `Hi <@${bob().id}> see <#${env.t.world.textChannelId}> `);

      await box.pressSequentially(':smile');
      await list
        .getByRole('option', { name: /:smile:/ })
        .first()
        .waitFor();
      await loaded(a.page, '.complete img.emoji');
      await shot(a.page, 'composer-2-emoji-popup');
      await box.press('Enter');
      assert.equal(await box.inputValue(), `Hi <@${bob().id}> see <#${env.t.world.textChannelId}> 😄 `);

      // Escape closes the popup and leaves the text as typed.
      await box.pressSequentially('@al');
      await list.waitFor();
      await box.press('Escape');
      await list.waitFor({ state: 'detached' });
      await box.press('Backspace');
      await box.press('Backspace');
      await box.press('Backspace');
      await box.press('Enter');
      await confirmed(a.page, 'Hi').waitFor();

      const sent = (await messages()).find((m) => m.content?.startsWith('Hi <@'));
      assert.ok(sent, 'the message reached the server');
      assert.equal(sent.content, `Hi <@${bob().id}> see <#${env.t.world.textChannelId}> 😄`);
      assert.deepEqual(
        sent.mentions.map((u: any) => u.id),
        [bob().id],
      );

      // Bob sees it as a mention of him, with the channel pill and the emoji as a Twemoji image.
      const got = message(b.page, 'Hi');
      await got.locator('.mention', { hasText: '@Bob' }).waitFor();
      await got.locator('.mention', { hasText: '#general' }).waitFor();
      assert.match((await got.getAttribute('class')) ?? '', /msg--mention/);
      assert.match((await got.locator('img.emoji').getAttribute('src')) ?? '', /\/assets\/twemoji\/1f604\.svg$/);
      await loaded(b.page, 'article.msg img.emoji[src$="1f604.svg"]');
      assert.deepEqual(errors, []);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  test('over 2000 characters is refused before sending and the text stays; Up edits, Escape cancels', async () => {
    const { page, context } = await newPerson(env.browser);
    try {
      await signInAs(page, env.t.server.url, alice().token, general());
      await page.getByText('Welcome to #general!').waitFor();
      const box = composer(page);
      const long = 'x'.repeat(2001);
      await box.fill(long);
      assert.equal(await page.getByTestId('composer-count').textContent(), '-1');
      await box.press('Enter');
      await page
        .getByRole('alert')
        .getByText(/2001 characters long, over the limit of 2000/)
        .waitFor();
      assert.equal(await box.inputValue(), long);
      assert.equal((await messages()).filter((m) => m.content?.startsWith('xxxx')).length, 0);
      await box.press('End');
      await box.press('Backspace');
      await page.getByRole('alert').waitFor({ state: 'detached' });
      assert.equal(await page.getByTestId('composer-count').textContent(), '0');
      await box.press('Enter');
      await page.waitForFunction(() => (globalThis as any).document.querySelector('.composer__input')?.value === '');
      await confirmed(page, 'x'.repeat(2000)).waitFor();
      assert.equal((await messages()).filter((m) => m.content === 'x'.repeat(2000)).length, 1);

      // Up in the empty box edits the last message of one's own.
      await send(page, 'a typo in tihs one');
      // Up edits one's last message the server has: wait until it has this one.
      await confirmed(page, 'a typo in tihs one').waitFor();
      await box.press('ArrowUp');
      const edit = page.getByLabel('Edit message');
      assert.equal(await edit.inputValue(), 'a typo in tihs one');
      await edit.fill('no typo in this one');
      await edit.press('Enter');
      await message(page, 'no typo in this one').getByText('(edited)').waitFor();

      // Escape in the composer cancels an edit, then a reply.
      await box.press('ArrowUp');
      await edit.waitFor();
      await box.focus();
      await box.press('Escape');
      await edit.waitFor({ state: 'detached' });
      const mine = message(page, 'no typo in this one');
      await mine.hover();
      await mine.getByRole('button', { name: 'Reply' }).click();
      await page.getByText('Replying to').waitFor();
      await box.press('Escape');
      await page.getByText('Replying to').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  test('a send the server refuses keeps the text, and Retry sends it', async () => {
    // A channel with a long slowmode: Bob's second message is refused (429, code 20016) until Alice lifts it.
    const created = await env.t.api(`/guilds/${env.t.world.guildId}/channels`, {
      method: 'POST',
      token: alice().token,
      body: { name: 'slow-lane', type: 0, rate_limit_per_user: 600 },
    });
    assert.equal(created.status, 201);
    const slow = created.body.id as string;
    const { page, context } = await newPerson(env.browser);
    try {
      await signInAs(page, env.t.server.url, bob().token, `/channels/${env.t.world.guildId}/${slow}`);
      await page.getByText('Welcome to #slow-lane!').waitFor();
      await send(page, 'first one');
      await message(page, 'first one').waitFor();
      await send(page, 'second one, refused');
      const alert = page.getByRole('alert').filter({ hasText: 'could not be sent' });
      await alert.waitFor();
      assert.equal(await composer(page).inputValue(), 'second one, refused');
      assert.equal(await page.locator('.msg--failed').count(), 0, 'the text is in the box, not only in a failed echo');
      await shot(page, 'composer-3-send-failed');

      const lifted = await env.t.api(`/channels/${slow}`, { method: 'PATCH', token: alice().token, body: { rate_limit_per_user: 0 } });
      assert.equal(lifted.status, 200);
      await alert.getByRole('button', { name: 'Retry' }).click();
      await message(page, 'second one, refused').waitFor();
      await alert.waitFor({ state: 'detached' });
      assert.equal(await composer(page).inputValue(), '');
      assert.equal((await messages(slow)).filter((m) => m.content === 'second one, refused').length, 1);
    } finally {
      await context.close();
    }
  });

  test('the emoji picker: search, skin tones, recents, server emoji; a reaction drawn with Twemoji', async () => {
    const made = await env.t.api(`/guilds/${env.t.world.guildId}/emojis`, {
      method: 'POST',
      token: alice().token,
      body: { name: 'accord_blob', image: `data:image/png;base64,${png(64).toString('base64')}` },
    });
    assert.equal(made.status, 201);
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    try {
      await signInAs(a.page, env.t.server.url, alice().token, general());
      await signInAs(b.page, env.t.server.url, bob().token, general());
      await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { method: 'POST', token: bob().token, body: { content: 'Launch day' } });
      const m = message(a.page, 'Launch day');
      await m.hover();
      await m.getByRole('button', { name: 'Add Reaction' }).click();
      const picker = a.page.getByRole('dialog', { name: 'Emoji picker' });
      // CSS selectors while the whole grid is shown: role queries would name ~1,900 buttons each time.
      await picker.locator('section[aria-label="This server"] button[aria-label=":accord_blob:"]').waitFor();
      await picker.getByLabel('Search emoji').fill('rocket');
      await picker.getByRole('button', { name: ':rocket:' }).hover();
      await loaded(a.page, '.emojipicker__body img.emoji');
      await picker.locator('.emojipicker__foot', { hasText: ':rocket:' }).waitFor();
      await shot(a.page, 'emoji-1-picker-search');
      await picker.getByRole('button', { name: ':rocket:' }).click();
      await picker.waitFor({ state: 'detached' });

      // Both see the reaction as a Twemoji image that really loaded.
      for (const page of [a.page, b.page]) {
        const pill = message(page, 'Launch day').getByRole('button', { name: /🚀, 1 reaction/ });
        await pill.waitFor();
        assert.match((await pill.locator('img').getAttribute('src')) ?? '', /\/assets\/twemoji\/1f680\.svg$/);
        await loaded(page, '.reaction img.emoji');
      }

      // Recents remember it; a skin tone applies to the emoji that have them.
      await m.hover();
      await m.getByRole('button', { name: 'Add Reaction' }).click();
      await picker.locator('section[aria-label="Frequently used"] button[aria-label=":rocket:"]').waitFor();
      await loaded(a.page, '.emojipicker__cats img.emoji');
      await shot(a.page, 'emoji-2-picker-categories');
      await picker.locator('button[aria-label="Skin tone"]').click();
      await picker.locator('[role="option"][aria-label="Skin tone 3"]').click();
      await picker.getByLabel('Search emoji').fill('thumbsup');
      const thumb = picker.getByRole('button', { name: ':+1:' });
      assert.match((await thumb.locator('img').getAttribute('src')) ?? '', /1f44d-1f3fd\.svg$/);
      await a.page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });

      // The composer's picker inserts the message form: a server emoji as <:name:id>.
      await composer(a.page).fill('look');
      await a.page.getByRole('button', { name: 'Select emoji' }).click();
      await picker.getByLabel('Search emoji').fill('accord');
      await picker.getByRole('button', { name: ':accord_blob:' }).click();
      assert.equal(await composer(a.page).inputValue(), `look <:accord_blob:${made.body.id}> `);
      await composer(a.page).press('Enter');
      await message(b.page, 'look').locator(`img.emoji[src*="${made.body.id}"]`).waitFor();
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
