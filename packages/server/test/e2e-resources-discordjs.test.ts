// engine-independent: a client's reading of the wire; the routes and events it meets run on every engine in expressions, scheduled-events, audit-log, automod and the conformance suite
/**
 * End-to-end: unmodified discord.js v14 uses the new resources against a real Accord server — guild emoji, stickers
 * (multipart), scheduled events, audit logs (REST and the guildAuditLogEntryCreate event), application emoji, the
 * soundboard, stage instances, AutoMod rules and integrations. REST and CDN both point at Accord.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  AuditLogEvent,
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleTriggerType,
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
  StickerFormatType,
  type Guild,
  type GuildAuditLogsEntry,
  type GuildEmoji,
  type StageChannel,
} from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent } from './helpers/wait.js';
import { GIF, PNG, mp3 } from './helpers/fixtures.js';

const T = { timeout: 30_000 };

describe('discord.js v14 with emoji, stickers, events, audit logs, soundboard', { timeout: 180_000 }, () => {
  let t: TestServer;
  let client: Client;
  const guild = () => client.guilds.cache.get(t.world.guildId) as Guild;

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildModeration,
        GatewayIntentBits.GuildExpressions,
        GatewayIntentBits.GuildScheduledEvents,
        GatewayIntentBits.GuildIntegrations,
        GatewayIntentBits.AutoModerationConfiguration,
      ],
      rest: { api: `${t.server.url}/api`, cdn: t.server.url },
    });
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  });

  after(async () => {
    await client?.destroy();
    await t?.close();
  });

  test('guild.emojis.create / edit / delete, with guildEmojiCreate and the CDN URL', T, async () => {
    const seen = waitEvent<[GuildEmoji]>(client, Events.GuildEmojiCreate, (e) => e.name === 'djs_emoji');
    const emoji = await guild().emojis.create({ attachment: PNG, name: 'djs_emoji', reason: 'e2e' });
    assert.equal(emoji.name, 'djs_emoji');
    assert.equal(emoji.animated, false);
    assert.equal(emoji.guild.id, t.world.guildId);
    await seen;
    assert.ok(guild().emojis.cache.has(emoji.id));
    const url = emoji.imageURL({ extension: 'png' });
    assert.ok(url.startsWith(t.server.url), url);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
    const author = await emoji.fetchAuthor();
    assert.equal(author.id, t.world.botUserId);
    const animated = await guild().emojis.create({ attachment: GIF, name: 'djs_gif' });
    assert.equal(animated.animated, true);
    const edited = await emoji.edit({ name: 'djs_renamed' });
    assert.equal(edited.name, 'djs_renamed');
    const fetched = await guild().emojis.fetch();
    assert.ok(fetched.has(emoji.id));
    const deleted = waitEvent<[GuildEmoji]>(client, Events.GuildEmojiDelete, (e) => e.id === animated.id);
    await animated.delete();
    await deleted;
  });

  test('guild.stickers.create (multipart) / edit / delete', T, async () => {
    const sticker = await guild().stickers.create({ file: PNG, name: 'djs_sticker', tags: 'wave', description: 'from discord.js' });
    assert.equal(sticker.name, 'djs_sticker');
    assert.equal(sticker.format, StickerFormatType.PNG);
    assert.equal(sticker.guildId, t.world.guildId);
    assert.equal(sticker.description, 'from discord.js');
    const edited = await sticker.edit({ name: 'djs_sticker2' });
    assert.equal(edited.name, 'djs_sticker2');
    const all = await guild().stickers.fetch();
    assert.ok(all.has(sticker.id));
    const fetched = await client.fetchSticker(sticker.id);
    assert.equal(fetched.id, sticker.id);
    const packs = await client.fetchStickerPacks();
    assert.ok(packs.size >= 1);
    await sticker.delete();
  });

  test('guild.scheduledEvents.create / edit / fetch / delete', T, async () => {
    const start = Date.now() + 3600_000;
    const created = waitEvent(client, Events.GuildScheduledEventCreate, (e: any) => e.name === 'djs event');
    const event = await guild().scheduledEvents.create({
      name: 'djs event',
      scheduledStartTime: start,
      scheduledEndTime: start + 3600_000,
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.External,
      entityMetadata: { location: 'Online' },
      description: 'desc',
    });
    await created;
    assert.equal(event.name, 'djs event');
    assert.equal(event.status, GuildScheduledEventStatus.Scheduled);
    assert.equal(event.entityMetadata?.location, 'Online');
    assert.equal(event.creatorId, t.world.botUserId);
    assert.equal(event.scheduledStartTimestamp, start);
    const edited = await event.edit({ name: 'djs event 2' });
    assert.equal(edited.name, 'djs event 2');
    const fetched = await guild().scheduledEvents.fetch({ guildScheduledEvent: event.id, withUserCount: true, force: true });
    assert.equal(fetched.userCount, 0);
    const subscribers = await event.fetchSubscribers();
    assert.equal(subscribers.size, 0);
    const voice = await guild().scheduledEvents.create({
      name: 'djs voice',
      scheduledStartTime: start,
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.Voice,
      channel: t.world.voiceChannelId,
    });
    assert.equal(voice.channelId, t.world.voiceChannelId);
    const active = await voice.setStatus(GuildScheduledEventStatus.Active);
    assert.equal(active.status, GuildScheduledEventStatus.Active);
    await voice.delete();
    await event.delete();
  });

  test('guild.fetchAuditLogs() and the guildAuditLogEntryCreate event', T, async () => {
    const live = waitEvent<[GuildAuditLogsEntry]>(client, Events.GuildAuditLogEntryCreate, (e) => e.action === AuditLogEvent.RoleCreate);
    const role = await guild().roles.create({ name: 'djs audited', reason: 'for the log' });
    const [entry] = await live;
    assert.equal(entry.targetId, role.id);
    assert.equal(entry.executorId, t.world.botUserId);
    assert.equal(entry.reason, 'for the log');
    assert.ok(entry.changes.some((c) => c.key === 'name' && c.new === 'djs audited'));

    const logs = await guild().fetchAuditLogs({ type: AuditLogEvent.RoleCreate, limit: 5 });
    const first = logs.entries.first()!;
    assert.equal(first.action, AuditLogEvent.RoleCreate);
    assert.equal(first.targetId, role.id);
    assert.equal(first.executor?.id, t.world.botUserId);
    const emojiLogs = await guild().fetchAuditLogs({ type: AuditLogEvent.EmojiCreate });
    assert.ok(emojiLogs.entries.size >= 1);
    const all = await guild().fetchAuditLogs({ limit: 100 });
    assert.ok(all.entries.some((e) => e.action === AuditLogEvent.BotAdd));
    assert.ok(all.entries.some((e) => e.action === AuditLogEvent.GuildScheduledEventCreate));
    const mine = await guild().fetchAuditLogs({ user: t.world.botUserId, limit: 10 });
    assert.ok(mine.entries.every((e) => e.executorId === t.world.botUserId));
    await role.delete();
  });

  test('client.application.emojis.create / fetch / edit / delete', T, async () => {
    const app = client.application!;
    const emoji = await app.emojis.create({ attachment: PNG, name: 'djs_app_emoji' });
    assert.equal(emoji.name, 'djs_app_emoji');
    assert.equal(emoji.application.id, t.world.applicationId);
    const all = await app.emojis.fetch();
    assert.ok(all.has(emoji.id));
    const edited = await emoji.edit({ name: 'djs_app_emoji2' });
    assert.equal(edited.name, 'djs_app_emoji2');
    await emoji.delete();
    assert.ok(!(await app.emojis.fetch()).has(emoji.id));
  });

  test('guild.soundboardSounds.create / edit / delete and the default sounds', T, async () => {
    const manager = guild().soundboardSounds;
    const sound = await manager.create({ file: mp3(1), contentType: 'audio/mpeg', name: 'djs sound', volume: 0.75, emojiName: '🎺' });
    assert.equal(sound.name, 'djs sound');
    assert.equal(sound.volume, 0.75);
    assert.equal(sound.guildId, t.world.guildId);
    const edited = await sound.edit({ name: 'djs sound 2' });
    assert.equal(edited.name, 'djs sound 2');
    const fetched = await manager.fetch();
    assert.ok(fetched.has(sound.soundId));
    // Present in discord.js 14.28 at runtime, missing from its typings.
    const defaults = await (client as unknown as { fetchDefaultSoundboardSounds(): Promise<Map<string, unknown>> }).fetchDefaultSoundboardSounds();
    assert.ok(defaults.size >= 1);
    await sound.delete();
  });

  test('stage instances, AutoMod rules and integrations through discord.js', T, async () => {
    const stage = (await guild().channels.create({ name: 'djs stage', type: ChannelType.GuildStageVoice })) as StageChannel;
    const instance = await guild().stageInstances.create(stage, { topic: 'Live from discord.js' });
    assert.equal(instance.topic, 'Live from discord.js');
    assert.equal(instance.channelId, stage.id);
    const edited = await instance.edit({ topic: 'Still live' });
    assert.equal(edited.topic, 'Still live');
    await instance.delete();

    const rule = await guild().autoModerationRules.create({
      name: 'djs rule',
      eventType: AutoModerationRuleEventType.MessageSend,
      triggerType: AutoModerationRuleTriggerType.Keyword,
      triggerMetadata: { keywordFilter: ['forbidden'] },
      actions: [{ type: AutoModerationActionType.BlockMessage }],
      enabled: true,
    });
    assert.equal(rule.name, 'djs rule');
    assert.deepEqual(rule.triggerMetadata.keywordFilter, ['forbidden']);
    const renamed = await rule.edit({ name: 'djs rule 2' });
    assert.equal(renamed.name, 'djs rule 2');
    assert.ok((await guild().autoModerationRules.fetch()).has(rule.id));
    await rule.delete();

    const integrations = await guild().fetchIntegrations();
    const self = integrations.find((i) => i.application?.id === t.world.applicationId);
    assert.ok(self, 'the bot is an integration');
    assert.equal(self!.type, 'discord');
  });
});
