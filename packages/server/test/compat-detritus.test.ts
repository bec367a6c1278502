// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
/**
 * Compatibility: detritus-client (ShardClient), unmodified. Pointed at Accord only through `rest.baseUrl` (its default
 * is the platform's /api/v9); it finds the gateway through GET /gateway on that base URL. Its 5 s reconnect delay is
 * shortened, to keep the RESUME case quick.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { until, waitEvent } from './helpers/wait.js';
import { compatRun, COMMANDS, answers, PNG, interactionRound, throughA429, dropAndResume } from './helpers/compat.js';

// Its CommonJS build, as Node users load it.
const require = createRequire(import.meta.url);
const { ShardClient } = require('detritus-client') as typeof import('detritus-client');
const { DiscordHTTPError } = require('detritus-client-rest/lib/errors.js') as typeof import('detritus-client-rest/lib/errors.js');
type ShardClient = import('detritus-client').ShardClient;

// GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, GUILD_MESSAGE_REACTIONS, MESSAGE_CONTENT
const INTENTS = 1 | 2 | 512 | 1024 | 32768;

/** The bot's answers to the shared command set (see helpers/compat.ts), from the raw INTERACTION_CREATE payload. */
async function answer(client: ShardClient, i: any): Promise<void> {
  const rest = client.rest;
  if (i.type === 2 && i.data.name === 'hello') {
    await rest.createInteractionResponse(i.id, i.token, 4, { content: answers.hello(i.data.options[0].value) });
  } else if (i.type === 2 && i.data.name === 'slow') {
    await rest.createInteractionResponse(i.id, i.token, 5);
    await rest.editWebhookTokenMessage(i.application_id, i.token, '@original', { content: answers.edited });
    await rest.executeWebhook(i.application_id, i.token, { content: answers.followUp });
  } else if (i.type === 2 && i.data.name === 'panel') {
    const [row] = answers.button.components;
    await rest.createInteractionResponse(i.id, i.token, 4, {
      content: answers.panel,
      components: [{ type: 1, components: [{ type: 2, style: 1, customId: row.custom_id, label: row.label }] }] as never,
    });
  } else if (i.type === 2 && i.data.name === 'form') {
    // 0.16 predates modals: createInteractionResponse keeps only message fields, so the modal goes through its generic post.
    await rest.post({
      route: { method: 'POST', path: '/interactions/:id/:token/callback', params: { id: i.id, token: i.token } },
      body: { type: 9, data: answers.modal },
      useAuth: false,
    } as never);
  } else if (i.type === 3) {
    await rest.createInteractionResponse(i.id, i.token, 7, { content: answers.bumped, components: [] });
  } else if (i.type === 5) {
    await rest.createInteractionResponse(i.id, i.token, 4, { content: answers.nice(i.data.components[0].components[0].value) });
  }
}

describe('detritus-client against Accord', { timeout: 60_000 }, () => {
  let client: ShardClient;
  const s = compatRun(() => client?.kill());
  const ch = () => s.t.world.textChannelId;

  before(async () => {
    client = new ShardClient(s.t.world.botToken, {
      isBot: true,
      gateway: { intents: INTENTS, reconnectDelay: 100 },
      rest: { baseUrl: `${s.t.server.url}/api/v9` },
    } as never);
    client.on('raw', (p: { t?: string; d?: any }) => {
      if (p.t) s.dispatched.push(p.t);
      if (p.t === 'INTERACTION_CREATE') answer(client, p.d).catch((e) => s.errors.push(e));
    });
    await client.run();
  });

  test('login: READY with the bot user, the seeded guild cached', async () => {
    assert.equal(s.dispatched[0], 'READY');
    assert.equal(client.userId, s.t.world.botUserId);
    assert.equal(client.user?.bot, true);
    // run() resolves at READY, where the guild is still unavailable; its GUILD_CREATE follows.
    const guild = await until(() => client.guilds.get(s.t.world.guildId)?.name || null, 10_000, 'the seeded guild cached from GUILD_CREATE');
    assert.equal(guild, 'Accord Dev');
    assert.equal((await client.rest.fetchMe()).id, s.t.world.botUserId);
  });

  test("messages: a person's post arrives with content; an embed and a file go out and download byte for byte", async () => {
    const seen = waitEvent<[{ message: any }]>(client as never, 'messageCreate', ({ message }) => message.content === 'hi detritus');
    const posted = await s.person.post('hi detritus');
    const [{ message }] = await seen;
    assert.equal(message.id, posted.id);
    assert.equal(message.author.id, s.person.id);

    const sent = await client.rest.createMessage(ch(), {
      content: 'with a file',
      embed: { title: 'Card', description: 'an embed' },
      file: { filename: 'dot.png', value: PNG },
    });
    await s.person.expectCard(ch(), sent.id);
  });

  test('reactions: createReaction, and messageReactionAdd for a person reacting', async () => {
    const msg = await client.rest.createMessage(ch(), { content: 'react here' });
    await client.rest.createReaction(ch(), msg.id, '🎉');
    const seen = waitEvent<[{ messageId: string; userId: string; reaction: any }]>(
      client as never,
      'messageReactionAdd',
      (p) => p.messageId === msg.id && p.userId === s.person.id,
    );
    await s.person.react(ch(), msg.id);
    const [p] = await seen;
    assert.equal(p.reaction.emoji.name, '👍');
    assert.deepEqual(await s.person.reactions(ch(), msg.id), ['🎉', '👍'].sort());
  });

  test('threads and forum posts: a thread from a message, a forum channel and a post in it', async () => {
    const root = await client.rest.createMessage(ch(), { content: 'thread root' });
    const thread = await client.rest.createChannelMessageThread(ch(), root.id, { name: 'detritus thread', autoArchiveDuration: 60 });
    assert.equal(thread.id, root.id);
    await client.rest.createMessage(thread.id, { content: 'in the thread' });
    const forum = await client.rest.createGuildChannel(s.t.world.guildId, { name: 'detritus-forum', type: 15 });
    // createChannelThread sends no `message` (0.16 predates forums): the post goes through the generic post.
    const post: any = await client.rest.post({
      route: { method: 'POST', path: '/channels/:channelId/threads', params: { channelId: forum.id } },
      body: { name: 'First post', message: { content: 'forum body' } },
    } as never);
    assert.equal(post.parent_id, forum.id);
    assert.equal(await s.person.starter(post.id), 'forum body');
  });

  test('members: fetchGuildMember, fetchGuildMembers, and requestGuildMembers over the gateway', async () => {
    const alice = await client.rest.fetchGuildMember(s.t.world.guildId, s.person.id);
    assert.equal(alice.id, s.person.id);
    const all = await client.rest.fetchGuildMembers(s.t.world.guildId, { limit: 10 });
    assert.ok(all.has(s.t.world.botUserId));
    const chunk = await client.requestGuildMembers(s.t.world.guildId, { query: '', limit: 0, timeout: 10_000 });
    assert.equal(chunk.members.size, all.size);
  });

  test('roles: createGuildRole, addGuildMemberRole seen as guildMemberUpdate, removeGuildMemberRole', async () => {
    const role = await client.rest.createGuildRole(s.t.world.guildId, { name: 'detritus role', color: 0x00ff00 });
    const bob = s.t.world.users[1].id;
    const updated = waitEvent<[{ member: any }]>(client as never, 'guildMemberUpdate', ({ member }) => member.id === bob && member._roles?.includes(role.id));
    await client.rest.addGuildMemberRole(s.t.world.guildId, bob, role.id);
    await updated;
    await client.rest.removeGuildMemberRole(s.t.world.guildId, bob, role.id);
    assert.ok(!(await client.rest.fetchGuildMember(s.t.world.guildId, bob)).roles.has(role.id));
  });

  test('interactions: reply, defer + edit + follow-up, a button update and a modal', async () => {
    const cmds = await client.rest.bulkOverwriteApplicationCommands(s.t.world.applicationId, COMMANDS as never);
    await interactionRound(s.person, Object.fromEntries(cmds.map((c) => [c.name, c.id])), ch());
    assert.deepEqual(s.errors, []);
  });

  test("errors: DiscordHTTPError with Discord's code and status", async () => {
    const is = (code: number, status: number) => (e: any) => e instanceof DiscordHTTPError && e.code === code && e.response.statusCode === status;
    await assert.rejects(client.rest.fetchChannel('1'), is(10003, 404));
    await assert.rejects(client.rest.createMessage(ch(), { content: '' }), is(50006, 400));
  });

  test('a 429 waited out: the bucket meets it, waits, and the reaction lands', async () => {
    const msg = await client.rest.createMessage(ch(), { content: 'rate limit me' });
    const statuses: number[] = [];
    client.rest.raw.on('response', ({ response }: { response: { statusCode: number } }) => statuses.push(response.statusCode));
    await throughA429(
      s.t,
      ch(),
      msg.id,
      () => client.rest.createReaction(ch(), msg.id, '👎'),
      () => statuses.includes(429),
    );
    assert.equal(statuses.at(-1), 204, 'the retried request succeeded');
    const read = await client.rest.fetchMessage(ch(), msg.id);
    assert.ok(read.reactions.some((r: any) => r.emoji.name === '👎' && r.me));
  });

  test('RESUME: a server-side drop is resumed and the missed message replayed', async () => {
    const resumed = waitEvent(client as never, 'gatewayResumed', () => true, 20_000);
    const missed = waitEvent<[{ message: any }]>(client as never, 'messageCreate', ({ message }) => message.content === 'while away', 20_000);
    const readies = s.dispatched.filter((x) => x === 'READY').length;
    await dropAndResume(s.t, async () => {
      await s.person.post('while away');
    });
    await Promise.all([resumed, missed]);
    assert.equal(s.dispatched.filter((x) => x === 'READY').length, readies, 'no new READY');
  });
});
