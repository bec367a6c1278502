/**
 * The member list of a large guild: GUILD_CREATE lists only the person's own member and the server sends presences
 * only to those who follow them, so the list asks for everyone with presences (op 8) and shows who is online, live.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { createUser } from '../../server/src/services/identity/users.ts';
import { issueToken } from '../../server/src/services/identity/tokens.ts';
import { addMember } from '../../server/src/services/guilds/membership.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';

/** Above the web client's large_threshold (the default, 50). */
const CROWD = 60;

describe('member list of a large guild', { timeout: 180_000 }, () => {
  const env = webSuite();
  const crowd: { id: string; token: string; name: string }[] = [];
  const sessions: RawGateway[] = [];

  before(async () => {
    const ctx = env.t.server.ctx;
    for (let i = 0; i < CROWD; i++) {
      const name = `Crowd ${String(i).padStart(2, '0')}`;
      const u = await createUser(ctx, { username: `crowd_${i}_${Date.now() % 100000}`, globalName: name });
      await addMember(ctx, env.t.world.guildId, u.id);
      crowd.push({ id: u.id, token: await issueToken(ctx, u.id, 'user'), name });
    }
  });

  const comeOnline = async (token: string) => {
    const gw = await RawGateway.connect(env.t.server.url);
    sessions.push(gw);
    await gw.identify(token);
  };

  test('online members show, including one who comes online later', async () => {
    await comeOnline(crowd[0].token);
    const { page } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, env.t.world.users[0].token, `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`);
    const online = page.locator('.members__group', { has: page.locator('.members__head', { hasText: /^Online/ }) });
    const offline = page.locator('.members__group', { has: page.locator('.members__head', { hasText: /^Offline/ }) });
    // Everyone is listed (the op 8 reply), and the one already connected shows online.
    await offline.locator('.member', { hasText: crowd[CROWD - 1].name }).waitFor();
    await online.locator('.member', { hasText: crowd[0].name }).waitFor();
    // Someone connecting now moves to Online: the session follows every member's presence since its request.
    await comeOnline(crowd[1].token);
    await online.locator('.member', { hasText: crowd[1].name }).waitFor();
    await shot(page, 'member-list-large-online');
    assert.equal(await online.locator('.member', { hasText: crowd[2].name }).count(), 0);
    for (const gw of sessions) gw.close();
    assert.deepEqual(errors, []);
  });
});
