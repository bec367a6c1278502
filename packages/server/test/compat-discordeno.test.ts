// engine-independent: a client's reading of the wire; the same routes run on every engine in e2e-discordjs and the service tests
/**
 * Compatibility: @discordeno/bot, unmodified. Pointed at Accord only through `rest.proxy.baseUrl`; `bot.start()` finds
 * the gateway through GET /gateway/bot on that base URL. With a base URL that is not the platform's, discordeno treats
 * it as a rate-limiting REST proxy and sends straight through, so the 429 case also runs with its own queue on.
 */
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createBot, createDesiredPropertiesObject, Intents, LeakyBucket, InteractionResponseTypes, InteractionTypes } from '@discordeno/bot';
import { waitEvent } from './helpers/wait.js';
import { compatRun, COMMANDS, answers, PNG, interactionRound, throughA429, dropAndResume } from './helpers/compat.js';

const INTENTS = Intents.Guilds | Intents.GuildMembers | Intents.GuildMessages | Intents.GuildMessageReactions | Intents.MessageContent;

function newBot(token: string, baseUrl: string, events: EventEmitter) {
  const on =
    (name: string) =>
    (...args: unknown[]) =>
      events.emit(name, ...args);
  return createBot({
    token,
    intents: INTENTS,
    // Every field kept: discordeno drops what is not asked for.
    desiredProperties: createDesiredPropertiesObject({}, true) as never,
    rest: { token, proxy: { baseUrl } },
    // One shard: no need to wait between identifies; member requests answered as promises.
    gateway: { token, spawnShardDelay: 0, cache: { requestMembers: { enabled: true } } },
    events: {
      raw: on('raw'),
      messageCreate: on('messageCreate'),
      reactionAdd: on('reactionAdd'),
      guildMemberUpdate: on('guildMemberUpdate'),
      interactionCreate: on('interactionCreate'),
    },
  });
}
type Bot = ReturnType<typeof newBot>;

/**
 * Every leaky bucket that was used, for the teardown: a shard's first send bucket is replaced at HELLO with its 60 s
 * refill timer still armed, and shutdown disarms none, which would hold the process open for a minute.
 */
const usedBuckets = new Set<LeakyBucket>();
const acquire = LeakyBucket.prototype.acquire;
LeakyBucket.prototype.acquire = function (this: LeakyBucket, ...args: Parameters<typeof acquire>) {
  usedBuckets.add(this);
  return acquire.apply(this, args);
};

async function stop(bot: Bot | undefined): Promise<void> {
  await bot?.shutdown();
  for (const b of usedBuckets) clearTimeout(b.timeoutId);
}

/** The bot's answers to the shared command set (see helpers/compat.ts). */
async function answer(bot: Bot, i: any): Promise<void> {
  const h = bot.helpers;
  const respond = (type: number, data?: object) => h.sendInteractionResponse(i.id, i.token, { type, data } as never);
  if (i.type === InteractionTypes.ApplicationCommand) {
    const name = i.data.name;
    if (name === 'hello') await respond(InteractionResponseTypes.ChannelMessageWithSource, { content: answers.hello(i.data.options[0].value) });
    else if (name === 'slow') {
      await respond(InteractionResponseTypes.DeferredChannelMessageWithSource);
      await h.editOriginalInteractionResponse(i.token, { content: answers.edited });
      await h.sendFollowupMessage(i.token, { content: answers.followUp });
    } else if (name === 'panel') await respond(InteractionResponseTypes.ChannelMessageWithSource, { content: answers.panel, components: [answers.button] });
    else if (name === 'form') await respond(InteractionResponseTypes.Modal, answers.modal);
  } else if (i.type === InteractionTypes.MessageComponent) {
    await respond(InteractionResponseTypes.UpdateMessage, { content: answers.bumped, components: [] });
  } else if (i.type === InteractionTypes.ModalSubmit) {
    await respond(InteractionResponseTypes.ChannelMessageWithSource, { content: answers.nice(i.data.components[0].components[0].value) });
  }
}

/** discordeno's REST error: an Error whose cause holds the status and the platform's body. */
const apiError = (code: number, status: number) => (e: any) => e?.cause?.status === status && JSON.parse(e.cause.body).code === code;

describe('@discordeno/bot against Accord', { timeout: 60_000 }, () => {
  let bot: Bot;
  const events = new EventEmitter();
  const s = compatRun(() => stop(bot));
  const ch = () => s.t.world.textChannelId;
  const id = (x: unknown) => String(x);

  before(async () => {
    events.on('raw', (p: { t?: string }) => {
      if (p.t) s.dispatched.push(p.t);
    });
    events.on('interactionCreate', (i) => {
      answer(bot, i).catch((e) => s.errors.push(e));
    });
    bot = newBot(s.t.world.botToken, `${s.t.server.url}/api`, events);
    const guild = waitEvent(events, 'raw', (p: { t?: string }) => p.t === 'GUILD_CREATE', 20_000);
    await bot.start();
    await guild;
  });

  test('login: READY with the bot user, then GUILD_CREATE for the seeded guild', async () => {
    assert.deepEqual(s.dispatched.slice(0, 2), ['READY', 'GUILD_CREATE']);
    assert.equal(id(bot.id), s.t.world.botUserId);
    const me = await bot.helpers.getUser(bot.id);
    assert.equal(me.username, 'Dev Bot');
  });

  test("messages: a person's post arrives with content; an embed and a file go out and download byte for byte", async () => {
    const seen = waitEvent<[any]>(events, 'messageCreate', (m) => m.content === 'hi discordeno');
    const posted = await s.person.post('hi discordeno');
    const [m] = await seen;
    assert.equal(id(m.id), posted.id);
    assert.equal(id(m.author.id), s.person.id);

    const sent = await bot.helpers.sendMessage(ch(), {
      content: 'with a file',
      embeds: [{ title: 'Card', description: 'an embed' }],
      files: [{ name: 'dot.png', blob: new Blob([PNG]) }],
    });
    await s.person.expectCard(ch(), id(sent.id));
  });

  test('reactions: addReaction, and reactionAdd for a person reacting', async () => {
    const msg = await bot.helpers.sendMessage(ch(), { content: 'react here' });
    await bot.helpers.addReaction(ch(), msg.id, '🎉');
    const seen = waitEvent<[any]>(events, 'reactionAdd', (p) => p.messageId === msg.id && id(p.userId) === s.person.id);
    await s.person.react(ch(), id(msg.id));
    const [p] = await seen;
    assert.equal(p.emoji.name, '👍');
    assert.deepEqual(await s.person.reactions(ch(), id(msg.id)), ['🎉', '👍'].sort());
  });

  test('threads and forum posts: a thread from a message, a forum channel and a post in it', async () => {
    const root = await bot.helpers.sendMessage(ch(), { content: 'thread root' });
    const thread = await bot.helpers.startThreadWithMessage(ch(), root.id, { name: 'discordeno thread', autoArchiveDuration: 60 });
    assert.equal(thread.id, root.id);
    await bot.helpers.sendMessage(thread.id, { content: 'in the thread' });
    const forum = await bot.helpers.createChannel(s.t.world.guildId, { name: 'discordeno-forum', type: 15 });
    const post = await bot.helpers.createForumThread(forum.id, { name: 'First post', autoArchiveDuration: 1440, message: { content: 'forum body' } });
    assert.equal(post.parentId, forum.id);
    assert.equal(await s.person.starter(id(post.id)), 'forum body');
  });

  test('members: getMember, getMembers, and requestMembers over the gateway', async () => {
    const alice = await bot.helpers.getMember(s.t.world.guildId, s.person.id);
    assert.equal(id(alice.id), s.person.id);
    const all = await bot.helpers.getMembers(s.t.world.guildId, { limit: 10 });
    assert.ok(all.some((m) => id(m.id) === s.t.world.botUserId));
    const chunk = await bot.gateway.requestMembers(BigInt(s.t.world.guildId), { limit: 0, query: '' });
    assert.equal(chunk.length, all.length);
  });

  test('roles: createRole, addRole seen as guildMemberUpdate, removeRole', async () => {
    const role = await bot.helpers.createRole(s.t.world.guildId, { name: 'discordeno role', color: 0x00ff00 });
    const bob = s.t.world.users[1].id;
    const updated = waitEvent<[any]>(events, 'guildMemberUpdate', (m) => id(m.id) === bob && m.roles.includes(role.id));
    await bot.helpers.addRole(s.t.world.guildId, bob, role.id);
    await updated;
    await bot.helpers.removeRole(s.t.world.guildId, bob, role.id);
    assert.ok(!(await bot.helpers.getMember(s.t.world.guildId, bob)).roles.includes(role.id));
  });

  test('interactions: reply, defer + edit + follow-up, a button update and a modal', async () => {
    const cmds = await bot.helpers.upsertGlobalApplicationCommands(COMMANDS as never);
    await interactionRound(s.person, Object.fromEntries(cmds.map((c) => [c.name, id(c.id)])), ch());
    assert.deepEqual(s.errors, []);
  });

  test("errors: an Error whose cause carries the status and Discord's code", async () => {
    await assert.rejects(bot.helpers.getChannel('1'), apiError(10003, 404));
    await assert.rejects(bot.helpers.sendMessage(ch(), {}), apiError(50006, 400));
  });

  test("a 429: surfaced through a proxy base URL; waited out by discordeno's own queue", async () => {
    const msg = await bot.helpers.sendMessage(ch(), { content: 'rate limit me' });
    // As configured (a proxy base URL): the 429 comes back as the error, with the platform's body.
    let surfaced: any = null;
    await throughA429(
      s.t,
      ch(),
      id(msg.id),
      () =>
        bot.helpers.addReaction(ch(), msg.id, '👎').catch((e) => {
          surfaced = e;
        }),
      () => surfaced !== null,
    );
    assert.equal(surfaced.cause.status, 429);
    assert.equal(typeof JSON.parse(surfaced.cause.body).retry_after, 'number');
    // Its own queue (isProxied off): it meets the 429, waits Reset-After and succeeds.
    const waited: string[] = [];
    const logger = bot.rest.logger;
    bot.rest.logger = {
      ...logger,
      debug: (...a: unknown[]) => {
        waited.push(a.map(String).join(' '));
      },
    } as typeof logger;
    bot.rest.isProxied = false;
    bot.rest.deleteQueueDelay = 1; // its idle queues would otherwise hold the process open for a minute
    try {
      await throughA429(
        s.t,
        ch(),
        id(msg.id),
        () => bot.helpers.addReaction(ch(), msg.id, '🙂'),
        () => waited.some((l) => /was ratelimited/.test(l)),
      );
    } finally {
      bot.rest.isProxied = true;
      bot.rest.logger = logger;
    }
    const read = await bot.helpers.getMessage(ch(), msg.id);
    assert.ok(read.reactions?.some((r) => r.emoji.name === '🙂' && r.me));
  });

  test('RESUME: a server-side drop is resumed and the missed message replayed', async () => {
    const resumed = waitEvent(events, 'raw', (p: { t?: string }) => p.t === 'RESUMED', 20_000);
    const missed = waitEvent<[any]>(events, 'messageCreate', (m) => m.content === 'while away', 20_000);
    const readies = s.dispatched.filter((x) => x === 'READY').length;
    await dropAndResume(s.t, async () => {
      await s.person.post('while away');
    });
    await Promise.all([resumed, missed]);
    assert.equal(s.dispatched.filter((x) => x === 'READY').length, readies, 'no new READY');
  });
});
