// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
/**
 * Compatibility: @discordjs/core over @discordjs/rest and @discordjs/ws, unmodified. Pointed at Accord only through
 * REST's `api` option; the WebSocketManager finds the gateway through GET /gateway/bot on that REST instance.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { REST, RESTEvents, DiscordAPIError } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { Client, GatewayDispatchEvents, GatewayIntentBits, InteractionType, ComponentType, type API, type APIInteraction } from '@discordjs/core';
import { waitEvent } from './helpers/wait.js';
import { compatRun, COMMANDS, answers, PNG, interactionRound, throughA429, dropAndResume } from './helpers/compat.js';

const INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.MessageContent;

/** The bot's answers to the shared command set (see helpers/compat.ts). */
async function answer(api: API, i: APIInteraction): Promise<void> {
  if (i.type === InteractionType.ApplicationCommand) {
    const name = i.data.name;
    if (name === 'hello') {
      const who = 'options' in i.data ? (i.data.options?.[0] as { value: string }).value : '';
      await api.interactions.reply(i.id, i.token, { content: answers.hello(who) });
    } else if (name === 'slow') {
      await api.interactions.defer(i.id, i.token);
      await api.interactions.editReply(i.application_id, i.token, { content: answers.edited });
      await api.interactions.followUp(i.application_id, i.token, { content: answers.followUp });
    } else if (name === 'panel') {
      await api.interactions.reply(i.id, i.token, { content: answers.panel, components: [answers.button] });
    } else if (name === 'form') {
      await api.interactions.createModal(i.id, i.token, answers.modal as never);
    }
  } else if (i.type === InteractionType.MessageComponent && i.data.component_type === ComponentType.Button) {
    await api.interactions.updateMessage(i.id, i.token, { content: answers.bumped, components: [] });
  } else if (i.type === InteractionType.ModalSubmit) {
    const row = i.data.components[0] as { components: { value: string }[] };
    await api.interactions.reply(i.id, i.token, { content: answers.nice(row.components[0].value) });
  }
}

describe('@discordjs/core against Accord', { timeout: 60_000 }, () => {
  let rest: REST;
  let gateway: WebSocketManager;
  let client: Client;
  const s = compatRun(() => gateway?.destroy());
  const ch = () => s.t.world.textChannelId;

  before(async () => {
    rest = new REST({ api: `${s.t.server.url}/api`, version: '10' }).setToken(s.t.world.botToken);
    gateway = new WebSocketManager({ token: s.t.world.botToken, intents: INTENTS, rest });
    client = new Client({ rest, gateway });
    gateway.on(WebSocketShardEvents.Dispatch, (p) => {
      s.dispatched.push(p.t);
    });
    client.on(GatewayDispatchEvents.InteractionCreate, ({ data, api }) => {
      answer(api, data).catch((e) => s.errors.push(e));
    });
    const guild = waitEvent(client as never, GatewayDispatchEvents.GuildCreate, () => true, 20_000);
    await gateway.connect();
    await guild;
  });

  test('login: READY with the bot user, then GUILD_CREATE for the seeded guild', async () => {
    assert.deepEqual(s.dispatched.slice(0, 2), ['READY', 'GUILD_CREATE']);
    const me = await client.api.users.getCurrent();
    assert.equal(me.id, s.t.world.botUserId);
    assert.equal(me.bot, true);
  });

  test("messages: a person's post arrives with content; an embed and a file go out and download byte for byte", async () => {
    const seen = waitEvent<[{ data: any }]>(client as never, GatewayDispatchEvents.MessageCreate, ({ data }) => data.content === 'hi core');
    const posted = await s.person.post('hi core');
    const [{ data }] = await seen;
    assert.equal(data.id, posted.id);
    assert.equal(data.author.id, s.person.id);

    const sent = await client.api.channels.createMessage(ch(), {
      content: 'with a file',
      embeds: [{ title: 'Card', description: 'an embed', color: 0x5865f2 }],
      files: [{ name: 'dot.png', data: PNG }],
    });
    await s.person.expectCard(ch(), sent.id);
  });

  test('reactions: addMessageReaction, and MESSAGE_REACTION_ADD for a person reacting', async () => {
    const msg = await client.api.channels.createMessage(ch(), { content: 'react here' });
    await client.api.channels.addMessageReaction(ch(), msg.id, '🎉');
    const seen = waitEvent<[{ data: any }]>(
      client as never,
      GatewayDispatchEvents.MessageReactionAdd,
      ({ data }) => data.message_id === msg.id && data.user_id === s.person.id,
    );
    await s.person.react(ch(), msg.id);
    const [{ data }] = await seen;
    assert.equal(data.emoji.name, '👍');
    assert.deepEqual(await s.person.reactions(ch(), msg.id), ['🎉', '👍'].sort());
  });

  test('threads and forum posts: a thread from a message, a forum channel and a post in it', async () => {
    const root = await client.api.channels.createMessage(ch(), { content: 'thread root' });
    const thread = await client.api.channels.createThread(ch(), { name: 'core thread' }, root.id);
    assert.equal(thread.id, root.id, 'a thread from a message takes its id');
    await client.api.channels.createMessage(thread.id, { content: 'in the thread' });
    const forum = await client.api.guilds.createChannel(s.t.world.guildId, { name: 'core-forum', type: 15 });
    const post = await client.api.channels.createForumThread(forum.id, { name: 'First post', message: { content: 'forum body' } });
    assert.equal(post.parent_id, forum.id);
    assert.equal((post as { message?: { content: string } }).message?.content, 'forum body');
    assert.equal(await s.person.starter(post.id), 'forum body', 'the starter message takes the thread id');
  });

  test('members: getMember, getMembers, and a member chunk over the gateway', async () => {
    const alice = await client.api.guilds.getMember(s.t.world.guildId, s.person.id);
    assert.equal(alice.user.id, s.person.id);
    const all = await client.api.guilds.getMembers(s.t.world.guildId, { limit: 10 });
    assert.ok(all.some((m) => m.user.id === s.t.world.botUserId));
    const chunk = await client.requestGuildMembers({ guild_id: s.t.world.guildId, query: '', limit: 0 });
    assert.equal(chunk.members.length, all.length);
  });

  test('roles: createRole, addRoleToMember seen as GUILD_MEMBER_UPDATE, removeRoleFromMember', async () => {
    const role = await client.api.guilds.createRole(s.t.world.guildId, { name: 'core role', color: 0x00ff00 });
    const bob = s.t.world.users[1].id;
    const updated = waitEvent<[{ data: any }]>(
      client as never,
      GatewayDispatchEvents.GuildMemberUpdate,
      ({ data }) => data.user.id === bob && data.roles.includes(role.id),
    );
    await client.api.guilds.addRoleToMember(s.t.world.guildId, bob, role.id);
    await updated;
    await client.api.guilds.removeRoleFromMember(s.t.world.guildId, bob, role.id);
    assert.ok(!(await client.api.guilds.getMember(s.t.world.guildId, bob)).roles.includes(role.id));
  });

  test('interactions: reply, defer + edit + follow-up, a button update and a modal', async () => {
    const cmds = await client.api.applicationCommands.bulkOverwriteGlobalCommands(s.t.world.applicationId, COMMANDS);
    await interactionRound(s.person, Object.fromEntries(cmds.map((c) => [c.name, c.id])), ch());
    assert.deepEqual(s.errors, []);
  });

  test("errors: DiscordAPIError with Discord's code and status", async () => {
    await assert.rejects(client.api.channels.get('1'), (e: unknown) => e instanceof DiscordAPIError && e.code === 10003 && e.status === 404);
    await assert.rejects(client.api.channels.createMessage(ch(), {}), (e: unknown) => e instanceof DiscordAPIError && e.code === 50006 && e.status === 400);
  });

  test('a 429 waited out: the REST queue meets it, waits, and the reaction lands', async () => {
    const msg = await client.api.channels.createMessage(ch(), { content: 'rate limit me' });
    const limited: unknown[] = [];
    const statuses: number[] = [];
    rest.on(RESTEvents.RateLimited, (info) => limited.push(info));
    rest.on(RESTEvents.Response, (_req, res) => statuses.push(res.status));
    await throughA429(
      s.t,
      ch(),
      msg.id,
      () => client.api.channels.addMessageReaction(ch(), msg.id, '👎'),
      () => statuses.includes(429),
    );
    assert.ok(limited.length > 0, 'it reported the rate limit');
    assert.equal(statuses.at(-1), 204, 'the retried request succeeded');
    assert.ok((await client.api.channels.getMessage(ch(), msg.id)).reactions?.some((r) => r.emoji.name === '👎' && r.me));
  });

  test('RESUME: a server-side drop is resumed and the missed message replayed', async () => {
    const resumed = waitEvent(gateway as never, WebSocketShardEvents.Resumed, () => true, 20_000);
    const missed = waitEvent<[{ data: any }]>(client as never, GatewayDispatchEvents.MessageCreate, ({ data }) => data.content === 'while away', 20_000);
    const readies = s.dispatched.filter((x) => x === 'READY').length;
    await dropAndResume(s.t, async () => {
      await s.person.post('while away');
    });
    await Promise.all([resumed, missed]);
    assert.equal(s.dispatched.filter((x) => x === 'READY').length, readies, 'no new READY');
    assert.ok(s.dispatched.includes('RESUMED'));
  });
});
