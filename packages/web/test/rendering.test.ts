/**
 * How messages render: the official markdown flavour (parsed by discord-markdown-parser), mentions of people,
 * channels and roles, timestamps, spoilers, code blocks, quotes, headings and masked links; embeds with fields;
 * link buttons; reactions; polls; attachments. Checked in the DOM, and saved as the client's main screenshot.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message } from './helpers/ui.ts';

describe('message rendering', { timeout: 120_000 }, () => {
  const env = webSuite();

  test('markdown, mentions, embeds, components, reactions and polls render as the official client shows them', async () => {
    const [alice, bob] = env.t.world.users;
    const ch = env.t.world.textChannelId;
    const post = (token: string, body: unknown, bot = false) => env.t.api(`/channels/${ch}/messages`, { method: 'POST', token, bot, body });
    const roles = await env.t.api(`/guilds/${env.t.world.guildId}/roles`, { method: 'POST', token: alice.token, body: { name: 'Readers', color: 0xeb459e } });
    await post(bob.token, {
      content: `Morning <@${alice.id}>! Tonight in <#${ch}> for <@&${roles.body.id}>: chapters **3-5**, *no skipping*, ||Paul lives||. Starts <t:1893456000:t>.`,
    });
    await post(alice.token, {
      content:
        '# Reading plan\n> Fear is the mind-killer.\n-# quotes from the book are fine\n```js\nconst pages = 412;\n```\nNotes on the [wiki](https://example.com/dune) and __underlined__ ~~struck~~ `inline` text.',
    });
    await post(bob.token, { content: 'Packing list:\n- towel\n  - a spare one\n- book\n3. pack\n4. go\nsee you there' });
    await post(
      env.t.world.botToken,
      {
        content: 'Weekly stats',
        embeds: [
          {
            title: 'Book Club digest',
            url: 'https://example.com/digest',
            description: 'Everyone read **112 pages** this week.',
            color: 0x5865f2,
            fields: [
              { name: 'Top reader', value: 'Bob', inline: true },
              { name: 'Pages', value: '64', inline: true },
              { name: 'Streak', value: '5 weeks', inline: true },
            ],
            footer: { text: 'Dev Bot' },
            author: { name: 'Reading tracker' },
          },
        ],
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 1, label: 'Log pages', custom_id: 'log' },
              { type: 2, style: 5, label: 'Open tracker', url: 'https://example.com/tracker' },
            ],
          },
        ],
      },
      true,
    );
    const react = await post(bob.token, { content: 'Who is in for the movie after?' });
    for (const [token, emoji] of [
      [bob.token, '🎬'],
      [alice.token, '🎬'],
      [bob.token, '🍿'],
    ] as const) {
      await env.t.api(`/channels/${ch}/messages/${react.body.id}/reactions/${encodeURIComponent(emoji)}/@me`, { method: 'PUT', token });
    }
    await post(alice.token, {
      poll: {
        question: { text: 'Next book?' },
        answers: [{ poll_media: { text: 'Foundation' } }, { poll_media: { text: 'Hyperion' } }, { poll_media: { text: 'The Left Hand of Darkness' } }],
        duration: 48,
        allow_multiselect: false,
      },
    });

    const { page, context } = await newPerson(env.browser);
    await page.setViewportSize({ width: 1280, height: 980 });
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, alice.token, `/channels/${env.t.world.guildId}/${ch}`);

    const first = message(page, 'Morning');
    await first.locator('.mention', { hasText: '@Alice' }).waitFor();
    await first.locator('.mention', { hasText: '#general' }).waitFor();
    const role = first.locator('.mention', { hasText: '@Readers' });
    assert.match((await role.getAttribute('style')) ?? '', /color: (rgb\(235, 69, 158\)|#eb459e)/);
    await first.locator('strong', { hasText: '3-5' }).waitFor();
    await first.locator('em', { hasText: 'no skipping' }).waitFor();
    const spoiler = first.getByRole('button', { name: 'Spoiler' });
    await spoiler.waitFor();
    assert.ok((await first.locator('time.md__time').count()) === 1);
    assert.ok(await first.evaluate((el) => el.classList.contains('msg--mention')), 'a message that mentions me is highlighted');

    const plan = message(page, 'Reading plan');
    await plan.locator('h1.md__h', { hasText: 'Reading plan' }).waitFor();
    await plan.locator('blockquote', { hasText: 'Fear is the mind-killer.' }).waitFor();
    await plan.locator('small.md__subtext', { hasText: 'quotes from the book are fine' }).waitFor();
    await plan.locator('pre code[data-lang="js"]', { hasText: 'const pages = 412;' }).waitFor();
    assert.equal(await plan.locator('a', { hasText: 'wiki' }).getAttribute('href'), 'https://example.com/dune');
    await plan.locator('u', { hasText: 'underlined' }).waitFor();
    await plan.locator('s', { hasText: 'struck' }).waitFor();

    const packing = message(page, 'Packing list');
    await packing.locator('ul.md__list > li', { hasText: 'towel' }).waitFor();
    assert.equal(await packing.locator('ul.md__list > li > ul.md__list > li').textContent(), 'a spare one');
    assert.equal(await packing.locator('ol.md__list').getAttribute('start'), '3');
    assert.deepEqual(await packing.locator('ol.md__list > li').allTextContents(), ['pack', 'go']);
    assert.ok(!(await packing.locator('li', { hasText: 'see you there' }).count()), 'the line after a list is not an item');

    const digest = message(page, 'Weekly stats');
    await digest.locator('.embed__title a', { hasText: 'Book Club digest' }).waitFor();
    assert.equal(await digest.locator('.embed__field--inline').count(), 3);
    await digest.getByRole('button', { name: 'Log pages' }).waitFor();
    assert.equal(await digest.getByRole('link', { name: 'Open tracker' }).getAttribute('href'), 'https://example.com/tracker');
    // A link button asks in the page first; cancelling opens nothing.
    await digest.getByRole('link', { name: 'Open tracker' }).click();
    const leaving = page.getByRole('alertdialog', { name: 'Leaving Accord' });
    await leaving.getByText('https://example.com/tracker').waitFor();
    await leaving.getByRole('button', { name: 'Cancel' }).click();
    await leaving.waitFor({ state: 'detached' });
    assert.equal(page.context().pages().length, 1);

    const movie = message(page, 'Who is in for the movie');
    await movie.getByRole('button', { name: '🎬, 2 reactions' }).waitFor();
    assert.equal(await movie.getByRole('button', { name: '🎬, 2 reactions' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await movie.getByRole('button', { name: '🍿, 1 reaction' }).getAttribute('aria-pressed'), 'false');
    await page.getByRole('group', { name: 'Poll: Next book?' }).getByRole('button', { name: 'Hyperion' }).waitFor();
    await shot(page, 'rendering-channel');
    await page.locator('.messages').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.waitForTimeout(200);
    await shot(page, 'rendering-channel-top');

    await spoiler.click();
    await first.locator('.md__spoiler--shown', { hasText: 'Paul lives' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
