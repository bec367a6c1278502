/**
 * Message search (issue 22, item 6) over `GET /guilds/{id}/messages/search`: Bob posts in #general, Alice searches
 * from another channel's header, sees his message with its channel, and opens the channel from the hit.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message, send } from './helpers/ui.ts';

describe('message search in the browser', { timeout: 120_000 }, () => {
  const env = webSuite();

  test('a search lists the matching messages and a hit opens its channel', async () => {
    const { guildId, textChannelId, users, botToken } = env.t.world;
    const made = await env.t.api(`/guilds/${guildId}/channels`, { method: 'POST', token: botToken, bot: true, body: { name: 'lounge', type: 0 } });
    assert.equal(made.status, 201, made.text);
    const b = await newPerson(env.browser);
    await signInAs(b.page, env.t.server.url, users[1].token, `/channels/${guildId}/${textChannelId}`);
    await send(b.page, 'A blue heron landed on the pier');
    await send(b.page, 'Lunch at noon?');
    await message(b.page, 'Lunch at noon?').waitFor();

    const a = await newPerson(env.browser);
    const errors = watchErrors(a.page);
    await signInAs(a.page, env.t.server.url, users[0].token, `/channels/${guildId}/${made.body.id}`);
    await a.page.getByText('Welcome to #lounge!').waitFor();
    const box = a.page.getByRole('searchbox', { name: 'Search messages' });
    await box.fill('heron');
    await box.press('Enter');
    const results = a.page.getByRole('dialog', { name: 'Search results' });
    await results.getByText('1 result').waitFor();
    const hit = results.locator('.search__hit', { hasText: 'A blue heron landed on the pier' });
    await hit.getByText('#general').waitFor();
    assert.equal(await results.getByText('Lunch at noon?').count(), 0);
    await shot(a.page, 'message-search');
    await hit.click();
    await a.page.waitForURL(`**/channels/${guildId}/${textChannelId}`);
    await message(a.page, 'A blue heron landed on the pier').waitFor();

    await box.fill('nothing like this');
    await box.press('Enter');
    await results.getByText('No results').waitFor();
    assert.deepEqual(errors, []);
    await a.context.close();
    await b.context.close();
  });
});
