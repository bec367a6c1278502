/**
 * Interactions end to end with the real libraries: a discord.js v14 bot answering over the Gateway, and an HTTP
 * endpoint built on discord-interactions that verifies every request it gets. A person acts through POST
 * /interactions and sees the result over REST and on their own gateway session.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  GatewayIntentBits,
  Events,
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  LabelBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  ApplicationCommandOptionType,
  MessageFlags,
  type Interaction,
} from 'discord.js';
import { verifyKey, InteractionType, InteractionResponseType } from 'discord-interactions';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { waitEvent, until } from './helpers/wait.js';

describe('interactions with discord.js and discord-interactions', { timeout: 120_000 }, () => {
  let t: TestServer;
  let client: Client;
  let userGw: RawGateway;
  const commandIds: Record<string, string> = {};
  const handled: string[] = [];
  const errors: unknown[] = [];
  let nonce = 5000;

  const alice = () => t.world.users[0];

  /** A person runs a slash command (or clicks, or submits) the way the official client does. */
  async function act(type: number, data: unknown, extra: Record<string, unknown> = {}) {
    const n = String(++nonce);
    const r = await t.api('/interactions', {
      method: 'POST',
      token: alice().token,
      body: {
        type,
        application_id: t.world.applicationId,
        guild_id: t.world.guildId,
        channel_id: t.world.textChannelId,
        session_id: 'e2e',
        nonce: n,
        data,
        ...extra,
      },
    });
    assert.equal(r.status, 204, r.text);
    return n;
  }
  const run = (name: string, options: unknown[] = []) => act(2, { id: commandIds[name], name, type: 1, options });
  const seenMessage = (pred: (d: any) => boolean) => userGw.dispatch('MESSAGE_CREATE', pred, 8000);

  before(async () => {
    t = await startTestServer();
    userGw = await RawGateway.connect(t.server.url);
    await userGw.identify(alice().token);
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${t.server.url}/api` } });
    client.on(Events.InteractionCreate, (i: Interaction) => {
      handle(i).catch((e) => errors.push(e));
    });
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  });
  after(async () => {
    await client?.destroy();
    userGw?.close();
    await t?.close();
  });

  /** The bot: one behaviour per command, the modal and the button. */
  async function handle(i: Interaction): Promise<void> {
    if (i.isChatInputCommand()) {
      handled.push(i.commandName);
      if (i.commandName === 'hello') {
        await i.reply(`Hello, ${i.options.getString('name', true)}!`);
      } else if (i.commandName === 'slow') {
        await i.deferReply();
        await i.editReply('Done thinking.');
        await i.followUp({ content: 'And one more thing.' });
      } else if (i.commandName === 'form') {
        const modal = new ModalBuilder()
          .setCustomId('profile')
          .setTitle('Your profile')
          .addLabelComponents(
            new LabelBuilder()
              .setLabel('Nickname')
              .setDescription('What should we call you?')
              .setTextInputComponent(new TextInputBuilder().setCustomId('nick').setStyle(TextInputStyle.Short).setMinLength(2)),
          );
        await i.showModal(modal);
      } else if (i.commandName === 'panel') {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('bump').setLabel('Bump').setStyle(ButtonStyle.Primary));
        await i.reply({ content: 'Counter: 0', components: [row] });
      } else if (i.commandName === 'secret') {
        await i.reply({ content: 'Only you can see this.', flags: MessageFlags.Ephemeral });
      }
    } else if (i.isModalSubmit()) {
      handled.push(`modal:${i.customId}`);
      await i.reply(`Nice to meet you, ${i.fields.getTextInputValue('nick')}.`);
    } else if (i.isButton()) {
      handled.push(`button:${i.customId}`);
      await i.update({ content: 'Counter: 1', components: [] });
    }
  }

  test('discord.js registers global and guild commands', async () => {
    const global = await client.application!.commands.set([
      { name: 'hello', description: 'Say hello', options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'who', required: true }] },
      { name: 'slow', description: 'Defer, edit, follow up' },
      { name: 'form', description: 'Open a modal' },
      { name: 'secret', description: 'An ephemeral reply' },
    ]);
    for (const c of global.values()) commandIds[c.name] = c.id;
    const guildCmd = await client.application!.commands.create({ name: 'panel', description: 'A message with a button' }, t.world.guildId);
    commandIds.panel = guildCmd.id;
    assert.equal(guildCmd.guildId, t.world.guildId);
    assert.equal(Object.keys(commandIds).length, 5);
  });

  test('reply(): the user sees the answer and INTERACTION_SUCCESS', async () => {
    const n = await run('hello', [{ type: 3, name: 'name', value: 'Alice' }]);
    const msg = await seenMessage((d) => d.content === 'Hello, Alice!');
    assert.equal(msg.type, 20);
    assert.equal(msg.author.id, t.world.botUserId);
    assert.equal(msg.interaction_metadata.user.id, alice().id);
    const ok = await userGw.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === n);
    assert.equal(ok.id, msg.interaction_metadata.id);
    const rest = await t.api(`/channels/${t.world.textChannelId}/messages/${msg.id}`, { token: alice().token });
    assert.equal(rest.status, 200);
    assert.equal(rest.body.content, 'Hello, Alice!');
    assert.deepEqual(errors, []);
  });

  test('deferReply() + editReply() + followUp()', async () => {
    await run('slow');
    const loading = await seenMessage((d) => d.interaction_metadata?.type === 2 && (d.flags & 128) === 128);
    const edited = await userGw.dispatch('MESSAGE_UPDATE', (d) => d.id === loading.id && d.content === 'Done thinking.', 8000);
    assert.equal(edited.flags & 128, 0);
    const follow = await seenMessage((d) => d.content === 'And one more thing.');
    assert.equal(follow.interaction_metadata.original_response_message_id, loading.id);
    const rest = await t.api(`/channels/${t.world.textChannelId}/messages/${loading.id}`, { token: alice().token });
    assert.equal(rest.body.content, 'Done thinking.');
    assert.deepEqual(errors, []);
  });

  test('showModal() with a Label-wrapped input, then the submit reaches isModalSubmit()', async () => {
    const n = await run('form');
    const modal = await userGw.dispatch('INTERACTION_MODAL_CREATE', (d) => d.nonce === n, 8000);
    assert.equal(modal.custom_id, 'profile');
    assert.equal(modal.components[0].type, 18);
    assert.equal(modal.components[0].label, 'Nickname');
    assert.equal(modal.components[0].component.custom_id, 'nick');
    const input = modal.components[0].component;
    await act(5, {
      id: modal.id,
      custom_id: 'profile',
      components: [{ type: 18, id: modal.components[0].id, component: { type: 4, id: input.id, custom_id: 'nick', value: 'Ally' } }],
    });
    const msg = await seenMessage((d) => d.content === 'Nice to meet you, Ally.');
    assert.equal(msg.interaction_metadata.type, 5);
    assert.equal(msg.interaction_metadata.triggering_interaction_metadata.id, modal.id);
    assert.ok(handled.includes('modal:profile'));
    assert.deepEqual(errors, []);
  });

  test('a button click: update() edits the message', async () => {
    await act(2, { id: commandIds.panel, name: 'panel', type: 1 });
    const panel = await seenMessage((d) => d.content === 'Counter: 0');
    assert.equal(panel.components[0].components[0].custom_id, 'bump');
    await act(3, { component_type: 2, custom_id: 'bump' }, { message_id: panel.id });
    const updated = await userGw.dispatch('MESSAGE_UPDATE', (d) => d.id === panel.id && d.content === 'Counter: 1', 8000);
    assert.deepEqual(updated.components, []);
    const rest = await t.api(`/channels/${t.world.textChannelId}/messages/${panel.id}`, { token: alice().token });
    assert.equal(rest.body.content, 'Counter: 1');
    assert.ok(handled.includes('button:bump'));
    assert.deepEqual(errors, []);
  });

  test('an ephemeral reply is seen by the user only, and not through the channel', async () => {
    await run('secret');
    const msg = await seenMessage((d) => d.content === 'Only you can see this.');
    assert.equal(msg.flags & 64, 64);
    const rest = await t.api(`/channels/${t.world.textChannelId}/messages/${msg.id}`, { token: alice().token });
    assert.equal(rest.status, 404);
    assert.deepEqual(errors, []);
  });

  describe('an HTTP endpoint on discord-interactions', () => {
    let server: http.Server;
    let url = '';
    let verifyKeyHex = '';
    const log: { type: number; verified: boolean }[] = [];

    /** Reads the raw body, verifies it with discord-interactions, answers PING and commands. */
    function endpoint(req: http.IncomingMessage, res: http.ServerResponse) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const signature = String(req.headers['x-signature-ed25519'] ?? '');
        const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
        const verified = await verifyKey(raw, signature, timestamp, verifyKeyHex);
        const body = JSON.parse(raw.toString() || '{}');
        log.push({ type: body.type, verified });
        if (!verified) {
          res.writeHead(401).end('invalid request signature');
          return;
        }
        res.setHeader('content-type', 'application/json');
        if (body.type === InteractionType.PING) {
          res.end(JSON.stringify({ type: InteractionResponseType.PONG }));
        } else if (body.type === InteractionType.APPLICATION_COMMAND && body.data.name === 'later') {
          // Answer through the callback route, then tell the platform with 202.
          const cb = await fetch(`${t.server.url}/api/v10/interactions/${body.id}/${body.token}/callback`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: 'answered via the callback route' } }),
          });
          res.writeHead(cb.status === 204 ? 202 : 500).end();
        } else if (body.type === InteractionType.APPLICATION_COMMAND && body.data.name === 'broken') {
          res.writeHead(500).end('oops');
        } else if (body.type === InteractionType.APPLICATION_COMMAND) {
          res.end(
            JSON.stringify({ type: InteractionResponseType.CHANNEL_MESSAGE_WITH_SOURCE, data: { content: `HTTP says hi to ${body.member.user.username}` } }),
          );
        } else {
          res.writeHead(400).end();
        }
      });
    }

    before(async () => {
      await client.destroy(); // from here on the app answers over HTTP only
      const me = await t.api('/applications/@me', { token: t.world.botToken, bot: true });
      verifyKeyHex = me.body.verify_key;
      assert.match(verifyKeyHex, /^[0-9a-f]{64}$/);
      server = http.createServer(endpoint);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;
    });
    after(async () => {
      await new Promise<void>((r) => server.close(() => r()));
    });

    test('setting interactions_endpoint_url: a signed PING and a badly signed one are checked', async () => {
      const r = await t.api('/applications/@me', { method: 'PATCH', token: t.world.botToken, bot: true, body: { interactions_endpoint_url: url } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.interactions_endpoint_url, url);
      assert.deepEqual(
        log.map((l) => [l.type, l.verified]),
        [
          [1, true],
          [1, false],
        ],
      );
    });

    test('a command is delivered over HTTP, verified, and the inline answer is the reply', async () => {
      const cmds = await t.api(`/applications/${t.world.applicationId}/commands`, {
        method: 'PUT',
        token: t.world.botToken,
        bot: true,
        body: [
          { name: 'hello', description: 'hi', options: [{ type: 3, name: 'name', description: 'who', required: true }] },
          { name: 'later', description: 'answers with 202' },
          { name: 'broken', description: 'answers 500' },
        ],
      });
      assert.equal(cmds.status, 200, cmds.text);
      const hello = cmds.body.find((c: any) => c.name === 'hello');
      const later = cmds.body.find((c: any) => c.name === 'later');
      const n = await act(2, { id: hello.id, name: 'hello', type: 1, options: [{ type: 3, name: 'name', value: 'x' }] });
      const msg = await seenMessage((d) => d.content === `HTTP says hi to ${alice().username}`);
      assert.equal(msg.interaction_metadata.user.id, alice().id);
      await userGw.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === n);

      await act(2, { id: later.id, name: 'later', type: 1 });
      await seenMessage((d) => d.content === 'answered via the callback route');

      // Anything but 200 or 202 fails the interaction at once.
      const broken = cmds.body.find((c: any) => c.name === 'broken');
      const b = await act(2, { id: broken.id, name: 'broken', type: 1 });
      const failure = await userGw.dispatch('INTERACTION_FAILURE', (d) => d.nonce === b, 2500);
      assert.equal(failure.reason_code, 1);
      await until(() => log.filter((l) => l.type === 2).length === 3, 2000, 'three commands');
      assert.ok(
        log.every((l) => l.type !== 2 || l.verified),
        'every delivery verifies',
      );
    });

    test('an endpoint that does not check signatures is refused', async () => {
      const lax = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 1 })));
      });
      await new Promise<void>((r) => lax.listen(0, '127.0.0.1', r));
      try {
        const laxUrl = `http://127.0.0.1:${(lax.address() as AddressInfo).port}/`;
        const r = await t.api('/applications/@me', { method: 'PATCH', token: t.world.botToken, bot: true, body: { interactions_endpoint_url: laxUrl } });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.code, 50035);
        assert.equal(r.body.errors.interactions_endpoint_url._errors[0].code, 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID');
        // Also refused through the owner's route; the earlier URL stays.
        const owner = await t.api(`/applications/${t.world.applicationId}`, {
          method: 'PATCH',
          token: alice().token,
          body: { interactions_endpoint_url: laxUrl },
        });
        assert.equal(owner.status, 400);
        const me = await t.api('/applications/@me', { token: t.world.botToken, bot: true });
        assert.equal(me.body.interactions_endpoint_url, url);
      } finally {
        await new Promise<void>((r) => lax.close(() => r()));
      }
    });
  });
});
