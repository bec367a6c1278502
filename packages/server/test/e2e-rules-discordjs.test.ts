// engine-independent: a client's reading of the wire; the routes and events it meets run on every engine in rules-messages, rules-obfuscation and the conformance suite
/**
 * End to end with the real, unmodified discord.js v14: polls (send, vote events, voters, end), forwarding,
 * crossposting to a followed channel, and obfuscated channels in the cache when obfuscation is on for the bot.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, GatewayIntentBits, Partials, Events, ChannelType, MessageReferenceType, MessageFlags, type TextChannel, type NewsChannel } from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent, until } from './helpers/wait.js';
import { P } from '@accord/protocol';

const T = { timeout: 30_000 };
const show = (r: { body: unknown }) => JSON.stringify(r.body);

describe('discord.js v14: polls, forwards, crossposts, obfuscated channels', { timeout: 180_000 }, () => {
  let t: TestServer;
  let client: Client;
  const alice = () => t.world.users[0];
  const bob = () => t.world.users[1];
  const channel = () => client.channels.cache.get(t.world.textChannelId) as TextChannel;

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    // The portal's "Private Channel Obfuscation" toggle: discord.js sends no Identify capabilities.
    const on = await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: alice().token, body: { private_channel_obfuscation: true } });
    assert.equal(on.status, 200, show(on));
    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.GuildMessagePolls],
      partials: [Partials.Message, Partials.Channel],
      rest: { api: `${t.server.url}/api` },
    });
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  });

  after(async () => {
    await client?.destroy();
    await t?.close();
  });

  test('polls: channel.send({ poll }), vote events, voters, message.poll.end()', T, async () => {
    const m = await channel().send({
      poll: { question: { text: 'Best drink?' }, answers: [{ text: 'Tea', emoji: '🍵' }, { text: 'Coffee' }], duration: 1, allowMultiselect: false },
    });
    assert.ok(m.poll, 'the message carries a poll');
    assert.equal(m.poll.question.text, 'Best drink?');
    assert.equal(m.poll.answers.size, 2);
    assert.equal(m.poll.answers.get(1)?.text, 'Tea');
    assert.equal(m.poll.answers.get(1)?.emoji?.name, '🍵');
    assert.equal(m.poll.allowMultiselect, false);
    assert.ok(m.poll.expiresTimestamp! > Date.now());

    const voted = waitEvent(client, Events.MessagePollVoteAdd, (answer: any, userId: string) => answer.id === 2 && userId === bob().id);
    const r = await t.api(`/channels/${m.channelId}/polls/${m.id}/answers/@me`, { method: 'PUT', token: bob().token, body: { answer_ids: ['2'] } });
    assert.equal(r.status, 204, show(r));
    const [answer] = await voted;
    assert.equal(answer.voteCount, 1);
    const voters = await m.poll.answers.get(2)!.voters.fetch();
    assert.deepEqual([...voters.keys()], [bob().id]);

    const ended = await m.poll.end();
    assert.equal(ended.id, m.id);
    assert.equal(ended.poll?.resultsFinalized, true);
    const result = await until(
      async () => (await channel().messages.fetch({ limit: 5 })).find((x) => x.type === 46 && x.reference?.messageId === m.id),
      5000,
      'the POLL_RESULT message',
    );
    assert.equal(result.embeds[0].fields.find((f) => f.name === 'victor_answer_text')?.value, 'Coffee');
  });

  test('forwarding: message.forward(channel) makes a snapshot without guild_id', T, async () => {
    const guild = client.guilds.cache.get(t.world.guildId)!;
    const target = await guild.channels.create({ name: 'forwards', type: ChannelType.GuildText });
    const original = await channel().send('forward this');
    const fwd = await original.forward(target);
    assert.equal(fwd.reference?.type, MessageReferenceType.Forward);
    assert.equal(fwd.reference?.messageId, original.id);
    assert.ok(fwd.flags.has(MessageFlags.HasSnapshot));
    const snap = fwd.messageSnapshots.first();
    assert.equal(snap?.content, 'forward this');
    const raw = await t.api(`/channels/${target.id}/messages/${fwd.id}`, { token: t.world.botToken, bot: true });
    assert.equal('guild_id' in raw.body.message_snapshots[0].message, false);
  });

  test('crossposting: an announcement channel, a follower, message.crosspost()', T, async () => {
    const guild = client.guilds.cache.get(t.world.guildId)!;
    const news = (await guild.channels.create({ name: 'news', type: ChannelType.GuildAnnouncement })) as NewsChannel;
    const feed = await guild.channels.create({ name: 'news-feed', type: ChannelType.GuildText });
    await news.addFollower(feed);
    const copyArrived = waitEvent(client, Events.MessageCreate, (msg: any) => msg.channelId === feed.id);
    const m = await news.send('Version 2 is out');
    const crossposted = await m.crosspost();
    assert.equal(crossposted.id, m.id);
    // discord.js hands back its cached message; MESSAGE_UPDATE brings the CROSSPOSTED flag.
    await until(() => m.flags.has(MessageFlags.Crossposted), 5000, 'CROSSPOSTED on the cached message');
    const [copy] = await copyArrived;
    assert.equal(copy.content, 'Version 2 is out');
    assert.ok(copy.flags.has(MessageFlags.IsCrosspost));
    assert.equal(copy.reference?.messageId, m.id);
    await assert.rejects(m.crosspost(), (e: any) => e.code === 40033);
  });

  test('channel obfuscation: discord.js caches channels the bot cannot view as ___hidden___ with CHANNEL_OBFUSCATED', T, async () => {
    const created = waitEvent(client, Events.ChannelCreate, (c: any) => c.name === '___hidden___');
    const r = await t.api(`/guilds/${t.world.guildId}/channels`, {
      method: 'POST',
      token: alice().token,
      body: { name: 'staff-only', topic: 'plans', permission_overwrites: [{ id: t.world.botUserId, type: 1, deny: String(P.VIEW_CHANNEL) }] },
    });
    assert.equal(r.status, 201, show(r));
    const [ch] = await created;
    assert.equal(ch.id, r.body.id);
    const cached = client.channels.cache.get(r.body.id) as TextChannel;
    assert.equal(cached.name, '___hidden___');
    assert.ok(cached.flags.has(1 << 17));
    assert.equal(cached.topic, null);
    assert.equal(cached.viewable, false);
    // Access gained: discord.js updates its cache from the full CHANNEL_UPDATE.
    const updated = waitEvent(client, Events.ChannelUpdate, (_old: any, c: any) => c.id === r.body.id && c.name === 'staff-only');
    await t.api(`/channels/${r.body.id}/permissions/${t.world.botUserId}`, {
      method: 'PUT',
      token: alice().token,
      body: { type: 1, allow: String(P.VIEW_CHANNEL) },
    });
    await updated;
    assert.equal((client.channels.cache.get(r.body.id) as TextChannel).topic, 'plans');
  });
});
