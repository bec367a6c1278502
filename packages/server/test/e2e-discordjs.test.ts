/**
 * End-to-end acceptance: the real discord.js v14 client, unmodified, against a real Accord server.
 * Only the REST base URL is pointed at Accord; the gateway URL comes from GET /gateway/bot like on the platform.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  GatewayIntentBits,
  Partials,
  Events,
  EmbedBuilder,
  WebhookClient,
  DiscordAPIError,
  ChannelType,
  MessageType,
  RESTEvents,
  type TextChannel,
  type Message,
  type Guild,
  type ThreadChannel,
  type Collection,
  type Snowflake,
} from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent, until, sleep } from './helpers/wait.js';

const T = { timeout: 30_000 };
/** An API answer's body as JSON text, for assertion messages and token-leak checks. */
const show = (r: { body: unknown }) => (typeof r.body === 'string' ? r.body : (JSON.stringify(r.body) ?? ''));
const THUMBS_UP = '%F0%9F%91%8D';

const INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.GuildMessageReactions,
  GatewayIntentBits.GuildWebhooks,
  GatewayIntentBits.MessageContent,
];
const PARTIALS = [Partials.Message, Partials.Channel, Partials.Reaction, Partials.User, Partials.GuildMember, Partials.ThreadMember];

function newClient(t: TestServer): Client {
  return new Client({ intents: INTENTS, partials: PARTIALS, rest: { api: `${t.server.url}/api` } });
}

/** Logs the bot in and resolves once discord.js says it is ready (READY plus every GUILD_CREATE). */
async function login(client: Client, token: string): Promise<void> {
  await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(token)]);
}

const isApiError = (code: number, status: number) => (e: unknown) => {
  assert.ok(e instanceof DiscordAPIError, `expected a DiscordAPIError, got ${String(e)}`);
  assert.equal(e.code, code, `error code (message: ${e.message})`);
  assert.equal(e.status, status);
  return true;
};

describe('discord.js v14 against Accord', { timeout: 240_000 }, () => {
  let t: TestServer;
  let client: Client;
  let readyFired = false;
  /** Every dispatch discord.js received, as the raw gateway payload. */
  const raw: { t: string; s: number; d: any }[] = [];
  const debug: string[] = [];
  const nonce = Math.random().toString(36).slice(2, 8);

  const w = () => t.world;
  const alice = () => t.world.users[0];
  const bob = () => t.world.users[1];
  const channel = () => client.channels.cache.get(t.world.textChannelId) as TextChannel;
  const guild = () => client.guilds.cache.get(t.world.guildId) as Guild;
  /** Posts a message as a user over REST (Authorization: <user token>). */
  async function userPost(content: string, user = alice(), channelId = t.world.textChannelId) {
    const r = await t.api(`/channels/${channelId}/messages`, { method: 'POST', token: user.token, body: { content } });
    assert.equal(r.status, 200, `user message POST: ${show(r)}`);
    return r.body as { id: string; content: string };
  }

  before(async () => {
    t = await startTestServer();
    client = newClient(t);
    // A copy as received: discord.js later links cached structures into the payload objects.
    client.on(Events.Raw, (p: any) => raw.push(JSON.parse(JSON.stringify(p))));
    client.on(Events.Debug, (m: string) => debug.push(m));
    client.once(Events.ClientReady, () => {
      readyFired = true;
    });
    await login(client, t.world.botToken);
  });

  after(async () => {
    await client?.destroy();
    await t?.close();
  });

  test('READY (clientReady) and the guild cache: name, channels, roles incl. the managed bot role', T, async () => {
    assert.ok(readyFired, 'clientReady fired');
    assert.ok(client.isReady());
    assert.equal(client.user!.id, w().botUserId);
    assert.equal(client.user!.bot, true);
    assert.equal(client.application?.id, w().applicationId);
    const readyPacket = raw.find((p) => p.t === 'READY');
    assert.ok(readyPacket, 'READY dispatch received');
    assert.equal(readyPacket.s, 1, 'READY carries seq 1');
    assert.equal(readyPacket.d.v, 10);
    assert.match(readyPacket.d.session_id, /\S+/);
    assert.match(readyPacket.d.resume_gateway_url, /^wss?:\/\//);

    const g = guild();
    assert.ok(g, 'seeded guild is cached');
    assert.equal(g.name, 'Accord Dev');
    assert.equal(g.ownerId, alice().id);
    assert.equal(g.available, true);

    const text = g.channels.cache.get(w().textChannelId);
    assert.ok(text, 'text channel cached');
    assert.equal(text.type, ChannelType.GuildText);
    assert.equal(text.name, 'general');
    const voice = g.channels.cache.get(w().voiceChannelId);
    assert.ok(voice, 'voice channel cached');
    assert.equal(voice.type, ChannelType.GuildVoice);
    assert.ok(
      g.channels.cache.some((c) => c.type === ChannelType.GuildCategory),
      'categories cached',
    );

    const everyone = g.roles.cache.get(g.id);
    assert.ok(everyone, '@everyone role (id = guild id)');
    assert.equal(everyone.name, '@everyone');
    const managed = g.roles.cache.find((r) => r.managed && r.tags?.botId === w().botUserId);
    assert.ok(managed, 'the bot has a managed role tagged with its bot id');
    assert.equal(managed.permissions.has('Administrator'), false);
    assert.equal(managed.permissions.has('ManageRoles'), true);

    const me = g.members.me;
    assert.ok(me, 'the bot member is cached');
    assert.ok(me.roles.cache.has(managed.id), 'the bot member carries its managed role');
    assert.equal(me.permissions.has('SendMessages'), true);
  });

  test('messageCreate with content for a message a user posts over REST', T, async () => {
    const content = `hello from alice ${nonce}`;
    const seen = waitEvent<[Message]>(client, Events.MessageCreate, (m) => m.content === content);
    const posted = await userPost(content);
    const [m] = await seen;
    assert.equal(m.id, posted.id);
    assert.equal(m.content, content, 'content visible (MessageContent intent)');
    assert.equal(m.author.id, alice().id);
    assert.equal(m.author.bot, false);
    assert.equal(m.channelId, w().textChannelId);
    assert.equal(m.guildId, w().guildId);
    assert.equal(m.type, MessageType.Default);
    assert.equal(m.member?.id, alice().id, 'guild messages carry the member');
    assert.equal(m.webhookId, null);
  });

  test('reply, edit, delete and bulk delete, with messageUpdate/messageDelete/messageDeleteBulk', T, async () => {
    const ch = channel();
    const posted = await userPost(`ping ${nonce}`);
    const original = await ch.messages.fetch(posted.id);
    assert.equal(original.content, `ping ${nonce}`);

    const reply = await original.reply('pong');
    assert.equal(reply.content, 'pong');
    assert.equal(reply.type, MessageType.Reply);
    assert.equal(reply.reference?.messageId, original.id);
    assert.equal(reply.author.id, w().botUserId);
    const asSeen = await t.api(`/channels/${ch.id}/messages/${reply.id}`, { token: alice().token });
    assert.equal(asSeen.status, 200, show(asSeen));
    assert.equal(asSeen.body.referenced_message?.id, original.id);
    assert.equal(asSeen.body.message_reference?.message_id, original.id);

    const updated = waitEvent<[Message | null, Message]>(client, Events.MessageUpdate, (_o, n) => n.id === reply.id && n.content === 'pong (edited)');
    const edited = await reply.edit('pong (edited)');
    assert.equal(edited.content, 'pong (edited)');
    assert.ok(edited.editedTimestamp, 'edited_timestamp set');
    await updated;
    const afterEdit = await t.api(`/channels/${ch.id}/messages/${reply.id}`, { token: alice().token });
    assert.equal(afterEdit.body.content, 'pong (edited)');

    const deleted = waitEvent<[Message]>(client, Events.MessageDelete, (m) => m.id === reply.id);
    await reply.delete();
    await deleted;
    const gone = await t.api(`/channels/${ch.id}/messages/${reply.id}`, { token: alice().token });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 10008);

    const batch: Message[] = [];
    for (let i = 0; i < 3; i++) batch.push(await ch.send(`bulk ${i} ${nonce}`));
    batch.push(await ch.messages.fetch((await userPost(`bulk from alice ${nonce}`)).id));
    const ids = batch.map((m) => m.id);
    const bulkSeen = waitEvent<[Collection<Snowflake, Message>]>(client, Events.MessageBulkDelete, (msgs) => ids.every((id) => msgs.has(id)));
    const result = await ch.bulkDelete(ids);
    assert.equal(result.size, ids.length);
    const [msgs] = await bulkSeen;
    assert.equal(msgs.size, ids.length);
    const rawBulk = raw.find((p) => p.t === 'MESSAGE_DELETE_BULK' && ids.every((id) => p.d.ids.includes(id)));
    assert.ok(rawBulk, 'MESSAGE_DELETE_BULK dispatched');
    assert.equal(rawBulk.d.channel_id, ch.id);
    assert.equal(rawBulk.d.guild_id, w().guildId);
    for (const id of ids) {
      const r = await t.api(`/channels/${ch.id}/messages/${id}`, { token: alice().token });
      assert.equal(r.status, 404, `message ${id} is gone after bulk delete`);
    }
  });

  test('reactions: msg.react, messageReactionAdd/Remove for a user reacting over REST', T, async () => {
    const ch = channel();
    const msg = await ch.send(`react to me ${nonce}`);
    const reaction = await msg.react('👍');
    assert.equal(reaction.emoji.name, '👍');
    assert.equal(reaction.me, true);

    const who = await t.api(`/channels/${ch.id}/messages/${msg.id}/reactions/${THUMBS_UP}`, { token: alice().token });
    assert.equal(who.status, 200, show(who));
    assert.deepEqual(
      who.body.map((u: any) => u.id),
      [w().botUserId],
    );

    const added = waitEvent<[any, any]>(client, Events.MessageReactionAdd, (r, u) => u.id === alice().id && r.message.id === msg.id && r.emoji.name === '👍');
    const put = await t.api(`/channels/${ch.id}/messages/${msg.id}/reactions/${THUMBS_UP}/@me`, { method: 'PUT', token: alice().token });
    assert.equal(put.status, 204, show(put));
    const [r] = await added;
    assert.equal(r.count, 2);
    const rawAdd = raw.find((p) => p.t === 'MESSAGE_REACTION_ADD' && p.d.message_id === msg.id && p.d.user_id === alice().id);
    assert.ok(rawAdd);
    assert.equal(rawAdd.d.emoji.name, '👍');
    assert.equal(rawAdd.d.emoji.id, null);
    assert.equal(rawAdd.d.guild_id, w().guildId);
    assert.equal(rawAdd.d.member?.user?.id, alice().id, 'guild reaction adds carry the member');
    assert.equal(rawAdd.d.message_author_id, w().botUserId);

    const fetched = await t.api(`/channels/${ch.id}/messages/${msg.id}`, { token: w().botToken, bot: true });
    assert.equal(fetched.body.reactions?.length, 1);
    assert.equal(fetched.body.reactions[0].count, 2);
    assert.equal(fetched.body.reactions[0].me, true);
    assert.equal(fetched.body.reactions[0].emoji.name, '👍');

    const removed = waitEvent<[any, any]>(client, Events.MessageReactionRemove, (rr, u) => u.id === alice().id && rr.message.id === msg.id);
    const del = await t.api(`/channels/${ch.id}/messages/${msg.id}/reactions/${THUMBS_UP}/@me`, { method: 'DELETE', token: alice().token });
    assert.equal(del.status, 204, show(del));
    await removed;
    const whoAfter = await t.api(`/channels/${ch.id}/messages/${msg.id}/reactions/${THUMBS_UP}`, { token: alice().token });
    assert.deepEqual(
      whoAfter.body.map((u: any) => u.id),
      [w().botUserId],
    );
  });

  test('pins: msg.pin, fetchPins, channelPinsUpdate, msg.unpin', T, async () => {
    const ch = channel();
    const msg = await ch.send(`pin me ${nonce}`);
    const pinsUpdate = waitEvent<[any, Date]>(client, Events.ChannelPinsUpdate, (c) => c.id === ch.id);
    const systemMessage = waitEvent<[Message]>(
      client,
      Events.MessageCreate,
      (m) => m.type === MessageType.ChannelPinnedMessage && m.reference?.messageId === msg.id,
    );
    await msg.pin();
    await pinsUpdate;
    await systemMessage;

    const pins = await ch.messages.fetchPins();
    const entry = pins.items.find((p) => p.message.id === msg.id);
    assert.ok(entry, 'the pinned message is listed');
    assert.equal(entry.message.pinned, true);
    assert.ok(entry.pinnedTimestamp && entry.pinnedTimestamp <= Date.now() + 1000);
    const again = await ch.messages.fetch({ message: msg.id, force: true });
    assert.equal(again.pinned, true);

    await msg.unpin();
    const pinsAfter = await ch.messages.fetchPins();
    assert.equal(
      pinsAfter.items.some((p) => p.message.id === msg.id),
      false,
      'unpinned message not listed',
    );
    const final = await ch.messages.fetch({ message: msg.id, force: true });
    assert.equal(final.pinned, false);
  });

  test('threads: startThread, threadCreate, a message in the thread, members add/leave/join', T, async () => {
    const ch = channel();
    const starter = await ch.send(`thread starter ${nonce}`);
    const name = `thread-${nonce}`;
    const created = waitEvent<[ThreadChannel, boolean]>(client, Events.ThreadCreate, (th) => th.name === name);
    // newly_created is a THREAD_CREATE field only (the REST answer is the bare channel, as on the real platform), so
    // discord.js's newlyCreated depends on which of the two arrives first: read it off the raw dispatch.
    const rawCreate = waitEvent<[any]>(client, 'raw', (p) => p.t === 'THREAD_CREATE' && p.d?.name === name);
    const thread = await starter.startThread({ name });
    assert.equal(thread.name, name);
    assert.equal(thread.type, ChannelType.PublicThread);
    assert.equal(thread.parentId, ch.id);
    assert.equal(thread.id, starter.id, 'a thread started from a message has the message id');
    assert.equal(thread.ownerId, w().botUserId);
    const [seen] = await created;
    assert.equal(seen.id, thread.id);
    const [packet] = await rawCreate;
    assert.equal(packet.d.newly_created, true);

    const inside = await thread.send(`inside the thread ${nonce}`);
    assert.equal(inside.channelId, thread.id);
    const listed = await t.api(`/channels/${thread.id}/messages`, { token: alice().token });
    assert.equal(listed.status, 200, show(listed));
    assert.ok(
      listed.body.some((m: any) => m.id === inside.id),
      'a user sees the thread message',
    );
    const starterNow = await t.api(`/channels/${ch.id}/messages/${starter.id}`, { token: alice().token });
    assert.equal(starterNow.body.thread?.id, thread.id, 'the starter message links its thread');

    await thread.members.add('@me');
    let members = await thread.members.fetch({ cache: false });
    assert.ok(members.has(w().botUserId), 'bot is a thread member');

    const aliceJoined = waitEvent<[any, any, ThreadChannel]>(
      client,
      Events.ThreadMembersUpdate,
      (added: any, _removed: any, th: ThreadChannel) => th.id === thread.id && added.has(alice().id),
    );
    const join = await t.api(`/channels/${thread.id}/thread-members/@me`, { method: 'PUT', token: alice().token });
    assert.equal(join.status, 204, show(join));
    await aliceJoined;

    await thread.leave();
    const afterLeave = await t.api(`/channels/${thread.id}/thread-members`, { token: alice().token });
    assert.equal(afterLeave.status, 200, show(afterLeave));
    assert.deepEqual(afterLeave.body.map((m: any) => m.user_id).sort(), [alice().id]);

    await thread.join();
    members = await thread.members.fetch({ cache: false });
    assert.deepEqual([...members.keys()].sort(), [alice().id, w().botUserId].sort());
  });

  test('forum posts: a GuildForum channel, forum.threads.create with its message, fetchStarterMessage', T, async () => {
    const forum = await guild().channels.create({ name: `forum-${nonce}`, type: ChannelType.GuildForum });
    const post = await forum.threads.create({ name: `post-${nonce}`, message: { content: `forum body ${nonce}` } });
    assert.equal(post.parentId, forum.id);
    const starter = await post.fetchStarterMessage();
    assert.equal(starter?.id, post.id, 'the starter message has the post id');
    assert.equal(starter?.content, `forum body ${nonce}`);
  });

  test('roles: guild.roles.create, member.roles.add with guildMemberUpdate, members.fetch() over op 8', T, async () => {
    const g = guild();
    const role = await g.roles.create({
      name: `testers-${nonce}`,
      colors: { primaryColor: 0x3498db },
      hoist: true,
      mentionable: true,
      permissions: ['SendMessages'],
    });
    assert.equal(role.name, `testers-${nonce}`);
    assert.equal(role.hoist, true);
    assert.equal(role.mentionable, true);
    assert.equal(role.managed, false);
    assert.equal(role.permissions.bitfield, 2048n);
    const roles = await t.api(`/guilds/${g.id}/roles`, { token: alice().token });
    const stored = roles.body.find((r: any) => r.id === role.id);
    assert.ok(stored, 'the role is listed over REST');
    assert.equal(stored.color, 0x3498db);
    assert.equal(stored.permissions, '2048');

    const member = await g.members.fetch(bob().id);
    assert.equal(member.roles.cache.has(role.id), false);
    const updated = waitEvent<[any, any]>(client, Events.GuildMemberUpdate, (_o, n) => n.id === bob().id && n.roles.cache.has(role.id));
    await member.roles.add(role);
    const [, after] = await updated;
    assert.ok(after.roles.cache.has(role.id));
    const rest = await t.api(`/guilds/${g.id}/members/${bob().id}`, { token: alice().token });
    assert.equal(rest.status, 200, show(rest));
    assert.ok(rest.body.roles.includes(role.id));

    const chunksBefore = raw.filter((p) => p.t === 'GUILD_MEMBERS_CHUNK').length;
    const all = await g.members.fetch();
    assert.deepEqual([...all.keys()].sort(), [alice().id, bob().id, w().botUserId].sort());
    assert.ok(raw.filter((p) => p.t === 'GUILD_MEMBERS_CHUNK').length > chunksBefore, 'members came in GUILD_MEMBERS_CHUNK');
    assert.ok(all.get(bob().id)!.roles.cache.has(role.id));
    assert.equal(all.get(w().botUserId)!.user.bot, true);
  });

  test('embeds and a file upload; the attachment downloads byte for byte', T, async () => {
    const ch = channel();
    const embed = new EmbedBuilder()
      .setTitle('t')
      .setDescription('an embed from discord.js')
      .setColor(0xff0000)
      .addFields({ name: 'first', value: '1', inline: true }, { name: 'second', value: '2' });
    const bytes = Buffer.from('hello accord');
    const sent = await ch.send({ content: `with a file ${nonce}`, embeds: [embed], files: [{ attachment: bytes, name: 'hello.txt' }] });
    assert.equal(sent.embeds.length, 1);
    assert.equal(sent.embeds[0].title, 't');
    assert.equal(sent.embeds[0].description, 'an embed from discord.js');
    assert.equal(sent.embeds[0].color, 0xff0000);
    assert.deepEqual(sent.embeds[0].fields, [
      { name: 'first', value: '1', inline: true },
      { name: 'second', value: '2', inline: false },
    ]);
    assert.equal(sent.attachments.size, 1);
    const att = sent.attachments.first()!;
    assert.equal(att.name, 'hello.txt');
    assert.equal(att.size, bytes.length);

    const res = await fetch(att.url);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);

    const asUser = await t.api(`/channels/${ch.id}/messages/${sent.id}`, { token: alice().token });
    assert.equal(asUser.body.attachments[0].filename, 'hello.txt');
    assert.equal(asUser.body.attachments[0].size, bytes.length);
    assert.equal(asUser.body.embeds[0].fields.length, 2);
  });

  test('webhooks: the token never reaches the bot; executing yields messageCreate with webhookId', T, async () => {
    const ch = channel();
    const hooksUpdated = waitEvent<[any]>(client, Events.WebhooksUpdate, (c) => c.id === ch.id);
    const created = await t.api(`/channels/${ch.id}/webhooks`, { method: 'POST', token: alice().token, body: { name: 'Hooky' } });
    assert.equal(created.status, 200, show(created));
    const { id, token } = created.body;
    assert.equal(typeof token, 'string', 'the creator sees the token');
    assert.ok(token.length >= 20);
    assert.equal(created.body.type, 1);
    assert.equal(created.body.channel_id, ch.id);
    assert.equal(created.body.user?.id, alice().id);
    await hooksUpdated;

    const hooks = await ch.fetchWebhooks();
    const hook = hooks.get(id);
    assert.ok(hook, 'the bot lists the webhook');
    assert.equal(hook.name, 'Hooky');
    assert.ok(hook.token == null, 'the bot does not see a webhook token it did not create');
    const rawList = await t.api(`/channels/${ch.id}/webhooks`, { token: w().botToken, bot: true });
    assert.equal(show(rawList).includes(token), false, 'GET channel webhooks (bot) JSON has no token');

    const seen = waitEvent<[Message]>(client, Events.MessageCreate, (m) => m.webhookId === id);
    const hookClient = new WebhookClient({ id, token }, { rest: { api: `${t.server.url}/api` } });
    try {
      const sent: any = await hookClient.send({ content: `from the hook ${nonce}`, username: 'Custom Hook Name' });
      assert.equal(sent.webhook_id, id);
      assert.equal(sent.content, `from the hook ${nonce}`);
    } finally {
      hookClient.destroy();
    }
    const [m] = await seen;
    assert.equal(m.webhookId, id);
    assert.equal(m.content, `from the hook ${nonce}`);
    assert.equal(m.author.username, 'Custom Hook Name');
    assert.equal(m.author.bot, true);
    assert.equal(m.author.id, id, 'webhook messages are authored by the webhook id');

    const list = await t.api(`/channels/${ch.id}/messages?limit=50`, { token: w().botToken, bot: true });
    assert.equal(list.status, 200);
    assert.ok(
      list.body.some((x: any) => x.webhook_id === id),
      'the webhook message is listed',
    );
    assert.equal(JSON.stringify(list.body).includes(token), false, 'REST messages JSON never contains the webhook token');
    assert.equal(JSON.stringify(raw).includes(token), false, 'no gateway dispatch ever contained the webhook token');

    const viaToken = await t.api(`/webhooks/${id}/${token}`);
    assert.equal(viaToken.status, 200, 'GET /webhooks/{id}/{token} works without auth');
    assert.equal(viaToken.body.id, id);
  });

  test('errors: missing permission is 50013/403, an unknown channel is 10003/404', T, async () => {
    const ch = channel();
    const deny = await t.api(`/channels/${ch.id}/permissions/${w().botUserId}`, {
      method: 'PUT',
      token: alice().token,
      body: { type: 1, deny: '2048', allow: '0' },
    });
    assert.equal(deny.status, 204, show(deny));
    try {
      await assert.rejects(ch.send('this must be refused'), isApiError(50013, 403));
      const check = await t.api(`/channels/${ch.id}/messages?limit=5`, { token: alice().token });
      assert.equal(
        check.body.some((m: any) => m.content === 'this must be refused'),
        false,
      );
    } finally {
      const undo = await t.api(`/channels/${ch.id}/permissions/${w().botUserId}`, { method: 'DELETE', token: alice().token });
      assert.equal(undo.status, 204, show(undo));
    }
    const ok = await ch.send(`allowed again ${nonce}`);
    assert.equal(ok.content, `allowed again ${nonce}`);

    await assert.rejects(client.channels.fetch('1'), isApiError(10003, 404));
    await assert.rejects(ch.messages.fetch({ message: '1', force: true }), isApiError(10008, 404));
    await assert.rejects(
      guild().members.fetch({ user: '1', force: true }),
      (e: unknown) => e instanceof DiscordAPIError && (e.code === 10007 || e.code === 10013) && e.status === 404,
    );
  });

  test('forced RESUME after a server-side 4000 close loses no event and duplicates none', T, async () => {
    const ch = channel();
    const conn = [...t.server.gateway.connections].find((c) => c.session?.userId === w().botUserId);
    assert.ok(conn, 'the bot has a gateway connection');
    const sessionId = conn.session!.id;
    const readiesBefore = raw.filter((p) => p.t === 'READY').length;
    const tag = `resume-${nonce}-${Date.now()}`;
    const seenIds: string[] = [];
    const rawCounts = new Map<string, number>();
    const onMessage = (m: Message) => {
      if (m.content.startsWith(tag)) seenIds.push(m.id);
    };
    const onRaw = (p: any) => {
      if (p.t === 'MESSAGE_CREATE' && typeof p.d?.content === 'string' && p.d.content.startsWith(tag)) rawCounts.set(p.d.id, (rawCounts.get(p.d.id) ?? 0) + 1);
    };
    client.on(Events.MessageCreate, onMessage);
    client.on(Events.Raw, onRaw);
    const debugFrom = debug.length;
    const resumed = waitEvent<[number, number]>(client, Events.ShardResume, () => true, 20_000);
    try {
      conn.close(4000, 'forced by test');
      const posted: string[] = [];
      for (let i = 0; i < 20; i++) posted.push((await userPost(`${tag} #${i}`)).id);
      const [shardId, replayed] = await resumed;
      assert.equal(shardId, 0);
      assert.ok(replayed >= 1, `the resume replayed missed events (${replayed})`);
      // And a few more on the resumed connection, so both the replay and the live path are covered.
      for (let i = 20; i < 25; i++) posted.push((await userPost(`${tag} #${i}`)).id);
      await until(() => seenIds.length >= posted.length, 15_000, `all ${posted.length} messageCreate events`);
      // Barrier: the gateway delivers in order, so a duplicate of any of them would arrive before this sentinel.
      const sentinel = await userPost(`sentinel ${tag}`);
      await until(() => raw.some((p) => p.t === 'MESSAGE_CREATE' && p.d?.id === sentinel.id), 15_000, 'the sentinel message');
      assert.deepEqual([...seenIds].sort(), [...posted].sort(), 'messageCreate exactly once per message');
      assert.equal(rawCounts.size, posted.length);
      for (const id of posted) assert.equal(rawCounts.get(id), 1, `MESSAGE_CREATE ${id} dispatched exactly once`);
      assert.ok(
        debug.slice(debugFrom).some((l) => /resum/i.test(l)),
        'discord.js logged a resume',
      );
      assert.equal(raw.filter((p) => p.t === 'READY').length, readiesBefore, 'no new READY: the session was resumed, not re-identified');
      assert.ok(
        raw.some((p) => p.t === 'RESUMED'),
        'RESUMED dispatch received',
      );
      const now = [...t.server.gateway.connections].find((c) => c.session?.userId === w().botUserId);
      assert.ok(now && now !== conn, 'a new connection carries the session');
      assert.equal(now.session!.id, sessionId, 'the same session id');
      const seqs = raw.map((p) => p.s).filter((s) => typeof s === 'number');
      for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i] > seqs[i - 1], `sequence strictly increasing (${seqs[i - 1]} then ${seqs[i]})`);
    } finally {
      client.off(Events.MessageCreate, onMessage);
      client.off(Events.Raw, onRaw);
    }
    // The resumed session still works both ways.
    const after = await ch.send(`after resume ${nonce}`);
    assert.equal(after.channelId, ch.id);
  });
});

describe('discord.js waits out a 429 (rate limits on)', { timeout: 90_000 }, () => {
  let t: TestServer;
  let client: Client;

  before(async () => {
    t = await startTestServer({ rateLimits: true });
    client = newClient(t);
    await login(client, t.world.botToken);
  });

  after(async () => {
    await client?.destroy();
    await t?.close();
  });

  test('a reactions PUT 429 carries retry_after/global:false and the headers; message.react retries and resolves', T, async () => {
    const ch = client.channels.cache.get(t.world.textChannelId) as TextChannel;
    const msg = await ch.send('rate limit me');
    const responses: { method: string; path: string; status: number }[] = [];
    client.rest.on(RESTEvents.Response, (req, res) => {
      responses.push({ method: req.method, path: req.path, status: res.status });
    });
    const limited: any[] = [];
    client.rest.on(RESTEvents.RateLimited, (info) => limited.push(info));

    let first429: { status: number; headers: Headers; body: any } | null = null;
    // The window could roll over between exhausting the bucket and the library's call; try a few times.
    for (let attempt = 0; attempt < 4; attempt++) {
      let got429 = false;
      for (let i = 0; i < 60 && !got429; i++) {
        const r = await t.api(`/channels/${ch.id}/messages/${msg.id}/reactions/${THUMBS_UP}/@me`, { method: 'PUT', token: t.world.botToken, bot: true });
        if (r.status === 429) {
          got429 = true;
          first429 ??= r;
        } else assert.equal(r.status, 204, show(r));
      }
      assert.ok(got429, 'the reactions bucket ran out');
      const started = Date.now();
      await msg.react('👎');
      const waited = Date.now() - started;
      const reactResponses = responses.filter((x) => x.method.toUpperCase() === 'PUT' && x.path.includes(`/messages/${msg.id}/reactions/`));
      if (reactResponses.some((x) => x.status === 429)) {
        assert.equal(reactResponses.at(-1)!.status, 204, 'the retried request succeeded');
        assert.ok(limited.length >= 1, 'discord.js emitted rateLimited');
        assert.equal(limited[0].global, false);
        assert.ok(waited >= 50, `discord.js waited before retrying (${waited} ms)`);
        break;
      }
      assert.ok(attempt < 3, 'discord.js never met the 429 in four attempts');
      await sleep(1100);
    }

    assert.ok(first429);
    assert.equal(typeof first429.body.retry_after, 'number');
    assert.ok(first429.body.retry_after > 0 && first429.body.retry_after <= 60);
    assert.equal(first429.body.global, false);
    assert.equal(typeof first429.body.message, 'string');
    const h = first429.headers;
    assert.ok(Number(h.get('retry-after')) > 0, 'Retry-After header');
    assert.ok(h.get('x-ratelimit-limit'), 'X-RateLimit-Limit');
    assert.ok(Number(h.get('x-ratelimit-limit')) <= 10, `tight reactions bucket (limit ${h.get('x-ratelimit-limit')})`);
    assert.equal(h.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(h.get('x-ratelimit-reset-after')) > 0, 'X-RateLimit-Reset-After');
    assert.ok(h.get('x-ratelimit-reset'), 'X-RateLimit-Reset');
    assert.ok(h.get('x-ratelimit-bucket'), 'X-RateLimit-Bucket');
    assert.equal(h.get('x-ratelimit-scope'), 'user');
    assert.equal(h.get('x-ratelimit-global'), null);

    const reactions = await t.api(`/channels/${ch.id}/messages/${msg.id}`, { token: t.world.botToken, bot: true });
    assert.ok(
      reactions.body.reactions.some((r: any) => r.emoji.name === '👎' && r.me),
      'the retried reaction landed',
    );
  });
});
