/**
 * The chat features of issue 10 in Chromium against a seeded server: uploads with image preview, replies, edits,
 * deletes, pins, threads, forum posts, polls, DMs and group DMs, voice members, and a long virtualized history.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { register } from '../../server/test/helpers/fixtures.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { png } from '../../server/conformance/world.ts';
import { signInAs } from './helpers/session.ts';
import { holdDispatch } from './helpers/gateway-delay.ts';
import { webSuite } from './helpers/suite.ts';
import { composer, message, send } from './helpers/ui.ts';

/** A 240 x 240 PNG, large enough to see in a screenshot. */
const PNG = png(240);

describe('chat in the browser', { timeout: 240_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];
  const general = () => `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`;

  test('upload with image preview, reply, edit, pin and delete', async () => {
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, alice().token, general());
    await page.getByText('Welcome to #general!').waitFor();

    // Attach an image: a preview shows before sending, the image after.
    await page.getByTestId('composer-file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.preview__img').waitFor();
    await composer(page).fill('The cover');
    await shot(page, 'chat-1-upload-preview');
    await composer(page).press('Enter');
    const img = message(page, 'The cover').locator('.attach__image img');
    await img.waitFor();
    await page.waitForFunction(() => ((globalThis as any).document.querySelector('.attach__image img')?.naturalWidth ?? 0) > 0);
    // The viewer centers a small image in the window (not high, with a gap under it); Escape closes it.
    await img.click();
    const big = page.getByRole('dialog', { name: 'cover.png' }).locator('img');
    await big.waitFor();
    const b = (await big.boundingBox())!;
    const middle = b.y + b.height / 2;
    assert.ok(Math.abs(middle - 400) < 40, `the image's middle is at ${middle} px of 800`);
    await page.keyboard.press('Escape');
    await big.waitFor({ state: 'detached' });

    // Bob asks; Alice replies from the toolbar.
    const asked = await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: bob().token,
      body: { content: 'Which chapter is next?' },
    });
    const q = message(page, 'Which chapter is next?');
    await q.hover();
    await q.getByRole('button', { name: 'Reply' }).click();
    await page.getByText('Replying to').waitFor();
    await send(page, 'Chapter two');
    const answer = message(page, 'Chapter two');
    await answer.locator('.msg__reply', { hasText: 'Which chapter is next?' }).waitFor();

    // Edit it inline.
    await answer.hover();
    await answer.getByRole('button', { name: 'Edit' }).click();
    const box = page.getByLabel('Edit message');
    await box.fill('Chapter three, actually');
    await box.press('Enter');
    await message(page, 'Chapter three, actually').getByText('(edited)').waitFor();

    // Pin Bob's question and see it in Pinned Messages.
    await q.hover();
    await q.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Pin Message' }).click();
    await page.getByRole('button', { name: 'Pinned Messages' }).click();
    await page.getByRole('dialog', { name: 'Pinned Messages' }).getByText('Which chapter is next?').waitFor();
    await shot(page, 'chat-2-reply-edit-pins');
    await page.getByRole('button', { name: 'Pinned Messages' }).click();

    // Delete the cover message.
    const cover = message(page, 'The cover');
    await cover.hover();
    await cover.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Delete Message' }).click();
    // An in-page question (not the browser's confirm): Escape keeps the message, Delete removes it.
    const ask = page.getByRole('alertdialog', { name: 'Delete Message' });
    await ask.waitFor();
    assert.equal(await ask.getByRole('button', { name: 'Cancel' }).evaluate((b) => (b as any).ownerDocument.activeElement === b), true);
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await cover.hover();
    await cover.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Delete Message' }).click();
    await ask.getByRole('button', { name: 'Delete' }).click();
    await cover.waitFor({ state: 'detached' });

    const msgs = (await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { token: alice().token })).body as any[];
    const reply = msgs.find((m) => m.content === 'Chapter three, actually');
    assert.equal(reply.message_reference.message_id, asked.body.id);
    assert.ok(reply.edited_timestamp);
    assert.ok(!msgs.some((m) => m.content === 'The cover'));
    const pins = await env.t.api(`/channels/${env.t.world.textChannelId}/messages/pins`, { token: alice().token });
    assert.equal(pins.body.items[0].message.id, asked.body.id);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('threads from a message, forum posts and a poll vote', async () => {
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    const base = await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: bob().token,
      body: { content: 'Spoilers for book one go here' },
    });
    await signInAs(page, env.t.server.url, alice().token, general());
    const m = message(page, 'Spoilers for book one go here');
    await m.hover();
    await m.getByRole('button', { name: 'Create Thread' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith(`/${env.t.world.textChannelId}`));
    await page.getByText('This is the start of the thread.').waitFor();
    await send(page, 'The ending!');
    await message(page, 'The ending!').waitFor();
    await page.locator('.chan--thread', { hasText: 'Spoilers for book one' }).waitFor();
    await shot(page, 'chat-3-thread');
    const thread = await env.t.api(`/channels/${env.t.world.textChannelId}/messages/${base.body.id}`, { token: alice().token });
    assert.ok(thread.body.thread?.id, 'the message has its thread');

    // A forum channel and a post in it.
    const forum = await env.t.api(`/guilds/${env.t.world.guildId}/channels`, {
      method: 'POST',
      token: alice().token,
      body: { name: 'reviews', type: 15, topic: 'One post per book' },
    });
    assert.equal(forum.status, 201, forum.text);
    await page.locator('.chan', { hasText: 'reviews' }).click();
    await page.getByRole('button', { name: 'New Post' }).click();
    await page.getByLabel('Post title').fill('Dune review');
    await page.getByLabel('Message', { exact: true }).fill('Five stars, **worth it**.');
    await shot(page, 'chat-4-forum-new-post');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await message(page, 'Five stars').locator('strong', { hasText: 'worth it' }).waitFor();
    await page.getByRole('heading', { name: 'Dune review', level: 1 }).waitFor();
    await page.locator('.chan', { hasText: 'reviews' }).click();
    await page.locator('.post', { hasText: 'Dune review' }).waitFor();
    await shot(page, 'chat-5-forum');

    // A poll: Alice votes and sees the result. Her vote's event is held back 1 s: her choice stays marked meanwhile.
    await holdDispatch(page, 'MESSAGE_POLL_VOTE_ADD', 1_000);
    await page.goto(env.t.server.url + general());
    await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: bob().token,
      body: { poll: { question: { text: 'Next meeting?' }, answers: [{ poll_media: { text: 'Friday' } }, { poll_media: { text: 'Sunday' } }], duration: 24 } },
    });
    const poll = page.getByRole('group', { name: 'Poll: Next meeting?' });
    await poll.getByRole('button', { name: 'Sunday' }).click();
    const answered = page.waitForResponse((r) => /\/polls\/\d+\/answers\/@me$/.test(r.url()) && r.status() === 204);
    await poll.getByRole('button', { name: 'Vote' }).click();
    await answered;
    await page.waitForTimeout(200);
    assert.equal(await poll.getByRole('button', { name: 'Sunday' }).getAttribute('aria-pressed'), 'true', 'the choice stays marked until the vote is counted');
    await poll.getByText('1 vote · 100%').waitFor();
    await shot(page, 'chat-6-poll');
    const pollMsg = (await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { token: alice().token })).body.find((x: any) => x.poll);
    const voters = await env.t.api(`/channels/${env.t.world.textChannelId}/polls/${pollMsg.id}/answers/2`, { token: alice().token });
    assert.deepEqual(
      voters.body.users.map((u: any) => u.id),
      [alice().id],
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('DMs and group DMs live in two browsers; voice members show muted and deafened', async () => {
    const a = await newPerson(env.browser);
    const b = await newPerson(env.browser);
    const errors = [...watchErrors(a.page), ...watchErrors(b.page)];
    await signInAs(a.page, env.t.server.url, alice().token, general());
    await signInAs(b.page, env.t.server.url, bob().token, '/channels/@me');
    await b.page.getByText('No conversation open').waitFor();

    // Alice opens Bob's card from the member list and messages him.
    await a.page.locator('.members .member', { hasText: 'Bob' }).click();
    await a.page.getByRole('dialog', { name: 'Bob' }).getByRole('button', { name: 'Message' }).click();
    await a.page.waitForURL(/\/channels\/@me\/\d+$/);
    await send(a.page, 'Hi Bob, a private word');
    await b.page.locator('.dm', { hasText: 'Alice' }).click();
    await message(b.page, 'Hi Bob, a private word').waitFor();
    await shot(b.page, 'chat-7-dm');

    // A group DM with Bob and Carol (who shares the guild).
    const carol = await register(env.t, 'carol_web');
    const inv = await env.t.api(`/channels/${env.t.world.textChannelId}/invites`, { method: 'POST', token: alice().token, body: {} });
    await env.t.api(`/invites/${inv.body.code}`, { method: 'POST', token: carol.token });
    await a.page.getByRole('link', { name: 'Direct Messages' }).click();
    await a.page.getByRole('button', { name: 'Create DM' }).click();
    await a.page.getByRole('checkbox', { name: 'Bob' }).check();
    await a.page.getByRole('checkbox', { name: 'carol_web' }).check();
    await a.page.getByRole('button', { name: 'Create Group DM' }).click();
    await a.page.waitForURL(/\/channels\/@me\/\d+$/);
    await send(a.page, 'Group plans');
    await b.page.locator('.dm', { hasText: 'carol_web' }).click();
    await message(b.page, 'Group plans').waitFor();
    await shot(a.page, 'chat-8-group-dm');

    // Bob joins the voice channel from another client, muted; then deafens.
    const gw = await RawGateway.connect(env.t.server.url);
    await gw.identify(bob().token);
    gw.send(4, { guild_id: env.t.world.guildId, channel_id: env.t.world.voiceChannelId, self_mute: true, self_deaf: false });
    await a.page.goto(env.t.server.url + general());
    const inVoice = a.page.locator('.voice__user', { hasText: 'Bob' });
    await inVoice.getByLabel('Muted').waitFor();
    gw.send(4, { guild_id: env.t.world.guildId, channel_id: env.t.world.voiceChannelId, self_mute: true, self_deaf: true });
    await inVoice.getByLabel('Deafened').waitFor();
    await shot(a.page, 'chat-9-voice');
    gw.close();
    assert.deepEqual(errors, []);
    await a.context.close();
    await b.context.close();
  });

  test('a long history stays virtualized: few rows in the DOM, older pages load on scroll', async () => {
    const ch = await env.t.api(`/guilds/${env.t.world.guildId}/channels`, { method: 'POST', token: alice().token, body: { name: 'archive', type: 0 } });
    for (let i = 1; i <= 260; i++) {
      const r = await env.t.api(`/channels/${ch.body.id}/messages`, {
        method: 'POST',
        token: env.t.world.botToken,
        bot: true,
        body: { content: `Entry number ${i}` },
      });
      assert.equal(r.status, 200);
    }
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, alice().token, `/channels/${env.t.world.guildId}/${ch.body.id}`);
    await page.getByText('Entry number 260', { exact: true }).waitFor();
    const rows = () => page.locator('.messages__row').count();
    assert.ok((await rows()) < 60, `only the rows near the viewport exist (${await rows()})`);
    // Scroll to the top until the channel's start shows: every older page is fetched on the way.
    for (let i = 0; i < 40 && !(await page.getByText('Welcome to #archive!').isVisible()); i++) {
      await page.locator('.messages').evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.waitForTimeout(150);
    }
    await page.getByText('Entry number 1', { exact: true }).waitFor();
    assert.ok((await rows()) < 60, `still few rows after loading 260 messages (${await rows()})`);
    await shot(page, 'chat-10-history-top');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
