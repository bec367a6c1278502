// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
/**
 * End-to-end acceptance with a second library of another lineage: oceanic.js, unmodified. Only its REST base URL
 * points at Accord; it discovers the gateway itself through GET /gateway/bot on that base URL.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Message, AnyTextableChannel, Uncached, AnyInteractionGateway } from 'oceanic.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent } from './helpers/wait.js';
import { Person, COMMANDS, answers, PNG, interactionRound, throughA429, dropAndResume } from './helpers/compat.js';

// oceanic's ESM entry (esm.mjs) unwraps `.default.default` of its CommonJS build, which breaks under the tsx
// loader (every export comes out undefined); its CommonJS entry is the same unmodified library.
const oceanic = createRequire(import.meta.url)('oceanic.js') as typeof import('oceanic.js');
const { Client, DiscordRESTError, InteractionTypes } = oceanic;
type Client = import('oceanic.js').Client;

/** The bot's answers to the compatibility suite's command set (helpers/compat.ts), in oceanic's own option shapes. */
async function answer(i: AnyInteractionGateway): Promise<void> {
  if (i.type === InteractionTypes.APPLICATION_COMMAND) {
    const name = i.data.name;
    if (name === 'hello') await i.createMessage({ content: answers.hello(i.data.options.getString('name', true)) });
    else if (name === 'slow') {
      await i.defer();
      await i.editOriginal({ content: answers.edited });
      await i.createFollowup({ content: answers.followUp });
    } else if (name === 'panel')
      await i.createMessage({ content: answers.panel, components: [{ type: 1, components: [{ type: 2, style: 1, customID: 'bump', label: 'Bump' }] }] });
    else if (name === 'form') {
      await i.createModal({
        customID: 'profile',
        title: 'Your profile',
        components: [{ type: 1, components: [{ type: 4, customID: 'nick', label: 'Nickname', style: 1, minLength: 2 }] }],
      });
    }
  } else if (i.type === InteractionTypes.MESSAGE_COMPONENT) {
    await i.editParent({ content: answers.bumped, components: [] });
  } else if (i.type === InteractionTypes.MODAL_SUBMIT) {
    await i.createMessage({ content: answers.nice(i.data.components.getTextInput('nick', true)) });
  }
}

const T = { timeout: 30_000 };
/** An API answer's body as JSON text, for assertion messages and token-leak checks. */
const show = (r: { body: unknown }) => (typeof r.body === 'string' ? r.body : (JSON.stringify(r.body) ?? ''));

describe('oceanic.js against Accord', { timeout: 120_000 }, () => {
  let t: TestServer;
  let client: Client;
  let person: Person;
  const errors: unknown[] = [];
  const debug: string[] = [];
  const nonce = Math.random().toString(36).slice(2, 8);

  before(async () => {
    t = await startTestServer();
    person = await Person.join(t);
    client = new Client({
      auth: `Bot ${t.world.botToken}`,
      rest: { baseURL: `${t.server.url}/api/v10` },
      gateway: { intents: ['GUILDS', 'GUILD_MEMBERS', 'GUILD_MESSAGES', 'GUILD_MESSAGE_REACTIONS', 'MESSAGE_CONTENT'] },
    });
    client.on('error', (err) => errors.push(err));
    client.on('debug', (m) => debug.push(m));
    client.on('interactionCreate', (i) => {
      answer(i).catch((e) => errors.push(e));
    });
    await Promise.all([waitEvent(client as any, 'ready', () => true, 20_000), client.connect()]);
  });

  after(async () => {
    client?.disconnect(false);
    person?.close();
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

  test('an embed and a file: the person downloads the file byte for byte', T, async () => {
    const sent = await client.rest.channels.createMessage(t.world.textChannelId, {
      content: 'with a file',
      embeds: [{ title: 'Card', description: 'an embed' }],
      files: [{ name: 'dot.png', contents: PNG }],
    });
    await person.expectCard(t.world.textChannelId, sent.id);
  });

  test('reactions: createReaction, and messageReactionAdd for a person reacting', T, async () => {
    const ch = t.world.textChannelId;
    const msg = await client.rest.channels.createMessage(ch, { content: 'react here' });
    await client.rest.channels.createReaction(ch, msg.id, '🎉');
    const seen = waitEvent<[any, any, any]>(client as any, 'messageReactionAdd', (m, reactor) => m.id === msg.id && reactor.id === person.id);
    await person.react(ch, msg.id);
    const [, , reaction] = await seen;
    assert.equal(reaction.emoji.name, '👍');
    assert.deepEqual(await person.reactions(ch, msg.id), ['🎉', '👍'].sort());
  });

  test('threads and forum posts: startThreadFromMessage, a forum channel and startThreadInThreadOnlyChannel', T, async () => {
    const ch = t.world.textChannelId;
    const root = await client.rest.channels.createMessage(ch, { content: 'thread root' });
    const thread = await client.rest.channels.startThreadFromMessage(ch, root.id, { name: 'oceanic thread', autoArchiveDuration: 60 });
    assert.equal(thread.id, root.id);
    await client.rest.channels.createMessage(thread.id, { content: 'in the thread' });
    const forum = await client.rest.guilds.createChannel(t.world.guildId, oceanic.ChannelTypes.GUILD_FORUM, { name: 'oceanic-forum' });
    const post = await client.rest.channels.startThreadInThreadOnlyChannel(forum.id, { name: 'First post', message: { content: 'forum body' } });
    assert.equal(post.parentID, forum.id);
    assert.equal(await person.starter(post.id), 'forum body');
  });

  test('members and roles: getMember, a member chunk over the gateway, createRole and addMemberRole', T, async () => {
    const alice = await client.rest.guilds.getMember(t.world.guildId, person.id);
    assert.equal(alice.id, person.id);
    const chunk = await client.shards.get(0)!.requestGuildMembers(t.world.guildId, { limit: 0, query: '' });
    assert.ok(chunk.some((m) => m.id === t.world.botUserId));
    const role = await client.rest.guilds.createRole(t.world.guildId, { name: 'oceanic role' });
    const bob = t.world.users[1].id;
    const updated = waitEvent<[any]>(client as any, 'guildMemberUpdate', (m) => m.id === bob && m.roles.includes(role.id));
    await client.rest.guilds.addMemberRole(t.world.guildId, bob, role.id);
    await updated;
    await client.rest.guilds.removeMemberRole(t.world.guildId, bob, role.id);
    assert.ok(!(await client.rest.guilds.getMember(t.world.guildId, bob)).roles.includes(role.id));
  });

  test('interactions: reply, defer + edit + follow-up, a button update and a modal', T, async () => {
    const cmds = await client.application.bulkEditGlobalCommands(COMMANDS as never);
    await interactionRound(person, Object.fromEntries(cmds.map((c) => [c.name, c.id])), t.world.textChannelId);
    assert.deepEqual(errors, []);
  });

  test("errors: DiscordRESTError with Discord's code and status", T, async () => {
    const is = (code: number, status: number) => (e: unknown) => e instanceof DiscordRESTError && e.code === code && e.status === status;
    await assert.rejects(client.rest.channels.get('1'), is(10003, 404));
    await assert.rejects(client.rest.channels.createMessage(t.world.textChannelId, {}), is(50006, 400));
  });

  test('a 429 waited out: the sequential bucket meets it, waits, and the reaction lands', T, async () => {
    const ch = t.world.textChannelId;
    const msg = await client.rest.channels.createMessage(ch, { content: 'rate limit me' });
    const from = debug.length;
    await throughA429(
      t,
      ch,
      msg.id,
      () => client.rest.channels.createReaction(ch, msg.id, '👎'),
      () => debug.slice(from).some((l) => /RateLimit/.test(l) && / 429: /.test(l)),
    );
    const read = await client.rest.channels.getMessage(ch, msg.id);
    assert.ok(read.reactions.some((r) => r.emoji.name === '👎' && r.me));
  });

  test('RESUME: a server-side drop is resumed and the missed message replayed', T, async () => {
    const resumed = waitEvent(client as any, 'shardResume', () => true, 20_000);
    const missed = waitEvent<[Message]>(client as any, 'messageCreate', (m) => m.content === 'while away', 20_000);
    await dropAndResume(t, async () => {
      await person.post('while away');
    });
    await Promise.all([resumed, missed]);
    // oceanic reports the drop itself as an 'error' event (4000 is not a code it names), then resumes.
    assert.deepEqual(
      errors.filter((e) => !/close: 4000/.test(String(e))),
      [],
    );
  });
});
