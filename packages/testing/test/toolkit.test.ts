/**
 * The toolkit as a bot developer uses it: a discord.js bot of the test's own, a world in one call, a person who runs
 * its slash command, clicks its button and fills its modal, and the ephemeral answer only she sees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  MessageFlags,
} from 'discord.js';
import { AccordApiError, startAccord, type Accord } from '../src/index.ts';

const REMIND = {
  name: 'remind',
  description: 'Remind me later',
  options: [{ type: 3, name: 'when', description: 'e.g. 30m', required: true, autocomplete: true }],
};

/** The app under test: /remind asks for a note with a button and a modal, then confirms privately. */
async function startRemindBot(accord: Accord, token: string): Promise<Client> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: accord.api.replace(/\/v10$/, '') } });
  client.on(Events.InteractionCreate, async (i) => {
    if (i.isAutocomplete()) {
      const typed = String(i.options.getFocused());
      await i.respond(['30m', '3h', '1d'].filter((w) => w.startsWith(typed)).map((w) => ({ name: `in ${w}`, value: w })));
    } else if (i.isChatInputCommand()) {
      const button = new ButtonBuilder()
        .setCustomId(`note:${i.options.getString('when')}`)
        .setLabel('Add a note')
        .setStyle(ButtonStyle.Primary);
      await i.reply({
        content: `Reminder in ${i.options.getString('when')}. Add a note?`,
        components: [new ActionRowBuilder<ButtonBuilder>().addComponents(button)],
      });
    } else if (i.isButton()) {
      const input = new TextInputBuilder().setCustomId('note').setLabel('Note').setStyle(TextInputStyle.Short);
      await i.showModal(
        new ModalBuilder().setCustomId(i.customId).setTitle('Your note').addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
      );
    } else if (i.isModalSubmit()) {
      await i.reply({ content: `Saved: I will remind you in ${i.customId.slice(5)}: ${i.fields.getTextInputValue('note')}`, flags: MessageFlags.Ephemeral });
    }
  });
  await Promise.all([new Promise((r) => client.once(Events.ClientReady, r)), client.login(token)]);
  return client;
}

test('slash command → button → modal → ephemeral answer, in a few lines', { timeout: 60_000 }, async () => {
  const accord = await startAccord();
  const {
    people: { alice, bob },
    guild,
    apps: { remind },
  } = await accord.world({ apps: { remind: { commands: [REMIND] } } });
  const bot = await startRemindBot(accord, remind.token);
  accord.onClose(() => bot.destroy());

  await alice.runCommand(remind, 'remind', { when: '30m' }, { channel: guild.channels.general });
  await alice.click(await alice.nextMessage({ from: remind, match: 'Add a note?' }), 'note:30m');
  await alice.submitModal(await alice.nextModal(), { note: 'stretch' });
  const answer = await alice.nextMessage({ from: remind, ephemeral: true });
  assert.equal(answer.content, 'Saved: I will remind you in 30m: stretch');

  // Only she saw it: Bob's session got the public prompt but not the ephemeral answer.
  await bob.nextMessage({ from: remind, match: 'Add a note?' });
  await assert.rejects(bob.nextMessage({ from: remind, ephemeral: true, timeout: 300 }), /no MESSAGE_CREATE .* \(ephemeral\) within 300 ms; what arrived/);
});

test('the clock moves, waits explain what arrived, bad commands say what the app has', { timeout: 60_000 }, async () => {
  const accord = await startAccord();
  const before = await accord.clock.now();
  const after30 = await accord.clock.advance('30m');
  assert.ok(Math.abs(after30.getTime() - before.getTime() - 30 * 60_000) < 5_000);

  const {
    people: { alice },
    guild,
    apps: { remind },
  } = await accord.world({ people: ['alice'], apps: { remind: { commands: [REMIND] } } });
  await assert.rejects(alice.runCommand(remind, 'nope', {}, { channel: guild.channels.general }), /no \/nope of app \d+ .* the app has: \/remind/);
  await assert.rejects(alice.runCommand(remind, 'remind', {}, { channel: guild.channels.general }), /\/remind needs when/);
  await alice.send(guild.channels.general, 'hello there');
  await assert.rejects(alice.nextMessage({ match: 'never sent', timeout: 200 }), /what arrived[\s\S]*"hello there"/);
  const watch = accord.watch(remind);
  await accord.request(`/channels/${guild.channels.general}/messages`, { body: { content: 'from the bot' }, auth: `Bot ${remind.token}` });
  const post = await watch.nextRequest({ method: 'POST' });
  assert.equal(post.path, `/channels/${guild.channels.general}/messages`);
  assert.equal(post.status, 200);
  assert.equal((await watch.requests({ method: 'POST' })).length, 1);
});

test("faults: one app's route answers 500 once, then it is served again; other apps are untouched", { timeout: 60_000 }, async () => {
  const accord = await startAccord();
  const {
    guild,
    apps: { flaky, steady },
  } = await accord.world({ people: ['alice'], apps: { flaky: {}, steady: {} } });
  const post = (app: { token: string }) =>
    accord.request(`/channels/${guild.channels.general}/messages`, { body: { content: 'hi' }, auth: `Bot ${app.token}` });
  const fault = await accord.faults.add(flaky.id, 'http', { route: 'POST /channels/:channel_id/messages', status: 500, count: 1 });
  assert.equal((await accord.faults.list(flaky.id)).length, 1);
  await post(steady);
  await assert.rejects(post(flaky), (err: AccordApiError) => err.status === 500 && err.code === 0);
  assert.equal((await post(flaky)).content, 'hi', 'served again once the count is spent');
  assert.deepEqual(await accord.faults.list(flaky.id), []);
  await accord.faults.remove(fault.id);
});

test("autocomplete answers what the bot offers; a purchase grants the SKU's entitlement", { timeout: 60_000 }, async () => {
  const accord = await startAccord();
  const {
    people: { alice },
    guild,
    apps: { remind },
  } = await accord.world({ people: ['alice'], apps: { remind: { commands: [REMIND] } } });
  const bot = await startRemindBot(accord, remind.token);
  accord.onClose(() => bot.destroy());
  assert.deepEqual(await alice.autocomplete(remind, 'remind', { when: '30' }, 'when', { channel: guild.channels.general }), [{ name: 'in 30m', value: '30m' }]);

  const sku = await alice.call(`/applications/${remind.id}/skus`, 'POST', { name: 'Premium', type: 5, price: 299, published: true });
  const [entitlement] = await alice.buy(sku);
  assert.equal(entitlement.sku_id, sku.id);
  assert.equal(entitlement.user_id, alice.id);
});
