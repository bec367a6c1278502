// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
/**
 * End-to-end acceptance with a second library of another lineage: oceanic.js, unmodified. Only its REST base URL
 * points at Accord; it discovers the gateway itself through GET /gateway/bot on that base URL.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Message, AnyTextableChannel, Uncached } from 'oceanic.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent } from './helpers/wait.js';

// oceanic's ESM entry (esm.mjs) unwraps `.default.default` of its CommonJS build, which breaks under the tsx
// loader (every export comes out undefined); its CommonJS entry is the same unmodified library.
const { Client } = createRequire(import.meta.url)('oceanic.js') as typeof import('oceanic.js');
type Client = import('oceanic.js').Client;

const T = { timeout: 30_000 };
/** An API answer's body as JSON text, for assertion messages and token-leak checks. */
const show = (r: { body: unknown }) => (typeof r.body === 'string' ? r.body : JSON.stringify(r.body) ?? '');

describe('oceanic.js against Accord', { timeout: 120_000 }, () => {
  let t: TestServer;
  let client: Client;
  const errors: unknown[] = [];
  const nonce = Math.random().toString(36).slice(2, 8);

  before(async () => {
    t = await startTestServer();
    client = new Client({
      auth: `Bot ${t.world.botToken}`,
      rest: { baseURL: `${t.server.url}/api/v10` },
      gateway: { intents: ['GUILDS', 'GUILD_MESSAGES', 'MESSAGE_CONTENT'], autoReconnect: false },
    });
    client.on('error', (err) => errors.push(err));
    await Promise.all([waitEvent(client as any, 'ready', () => true, 20_000), client.connect()]);
  });

  after(async () => {
    client?.disconnect(false);
    await t?.close();
  });

  test('reaches ready with the bot user and the seeded guild', T, async () => {
    assert.equal(client.ready, true);
    assert.equal(client.user.id, t.world.botUserId);
    assert.equal(client.user.bot, true);
    const guild = client.guilds.get(t.world.guildId);
    assert.ok(guild, 'guild cached from GUILD_CREATE');
    assert.equal(guild.name, 'Accord Dev');
    assert.ok(guild.channels.get(t.world.textChannelId), 'text channel cached');
    assert.equal(client.application.id, t.world.applicationId);
    assert.deepEqual(errors, []);
  });

  test('receives messageCreate with content for a message a user posts over REST', T, async () => {
    const content = `oceanic hears alice ${nonce}`;
    const seen = waitEvent<[Message<AnyTextableChannel | Uncached>]>(client as any, 'messageCreate', (m) => m.content === content);
    const r = await t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', token: t.world.users[0].token, body: { content } });
    assert.equal(r.status, 200, show(r));
    const [m] = await seen;
    assert.equal(m.id, r.body.id);
    assert.equal(m.content, content);
    assert.equal(m.author.id, t.world.users[0].id);
    assert.equal(m.channelID, t.world.textChannelId);
    assert.equal(m.guildID, t.world.guildId);
    assert.equal(m.member?.id, t.world.users[0].id);
  });

  test('sends a message with rest.channels.createMessage that a user then reads over REST', T, async () => {
    const content = `oceanic speaks ${nonce}`;
    const sent = await client.rest.channels.createMessage(t.world.textChannelId, { content });
    assert.equal(sent.content, content);
    assert.equal(sent.author.id, t.world.botUserId);
    assert.equal(sent.channelID, t.world.textChannelId);

    const list = await t.api(`/channels/${t.world.textChannelId}/messages?limit=10`, { token: t.world.users[0].token });
    assert.equal(list.status, 200, show(list));
    const found = list.body.find((m: any) => m.id === sent.id);
    assert.ok(found, 'the user sees the bot message');
    assert.equal(found.content, content);
    assert.equal(found.author.id, t.world.botUserId);
    assert.equal(found.author.bot, true);

    const one = await t.api(`/channels/${t.world.textChannelId}/messages/${sent.id}`, { token: t.world.users[1].token });
    assert.equal(one.status, 200, show(one));
    assert.equal(one.body.content, content);
  });
});
