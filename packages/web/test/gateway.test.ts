/**
 * The browser's Gateway session survives a dropped connection the way the official client's does: it RESUMEs the
 * same session (no new IDENTIFY) and receives what was dispatched while it was away.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message } from './helpers/ui.ts';

describe('the user Gateway session in the browser', { timeout: 120_000 }, () => {
  const env = webSuite({ resumeWindowMs: 60_000 });

  test('a dropped connection resumes the same session and replays what was missed', async () => {
    const alice = env.t.world.users[0];
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, alice.token, `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`);
    await page.getByText('Welcome to #general!').waitFor();
    const mine = () => [...env.t.server.gateway.sessions.values()].filter((s) => s.userId === alice.id && !s.dead);
    assert.equal(mine().length, 1);
    const session = mine()[0];

    // The server drops the connection (4000: unknown error, resumable), and a message is sent meanwhile.
    session.transport?.close(4000, 'Simulated outage');
    await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: env.t.world.users[1].token,
      body: { content: 'Sent while you were away' },
    });

    // The client reconnects, resumes, and the missed MESSAGE_CREATE arrives without a reload.
    await message(page, 'Sent while you were away').waitFor();
    assert.equal(mine().length, 1, 'no second session was identified');
    assert.equal(mine()[0], session, 'the same session was resumed');
    assert.ok(session.transport, 'a transport is attached again');
    await shot(page, 'gateway-resumed');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
