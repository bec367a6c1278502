// engine-independent: a discord.js bot driven through the toolkit; nothing here depends on the storage engine.
/**
 * Remind, tested the way people use it, with nothing but @accord/testing: a slash command, a button, a modal and the
 * ephemeral confirmation; the reminder posted once Accord's clock has moved 30 minutes; and /premium, which answers
 * only a person with an entitlement to the app's SKU.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startAccord, type Person } from '@accord/testing';
import { createBot } from '../src/bot.ts';
import { COMMANDS } from '../src/commands.ts';

// One Accord, one world and one bot for the file, set up at its top level (node:test runs an `after` registered in a
// `before` hook when that hook ends).
const accord = await startAccord();
const {
  people: { alice, bob },
  apps: { remind },
  guild: {
    channels: { general },
  },
} = await accord.world({ apps: { remind: { commands: COMMANDS } } });
const premiumSku = await alice.call(`/applications/${remind.id}/skus`, 'POST', { name: 'Remind Premium', type: 5, price: 299, published: true });
const clock = await accord.clock.scheduler();
const bot = createBot({ token: remind.token, api: accord.api.replace(/\/v10$/, ''), premiumSkuId: premiumSku.id, now: clock.now, schedule: clock.schedule });
await bot.start();
accord.onClose(() => bot.stop()); // before the platform goes away, or discord.js keeps trying to reconnect

/** A test entitlement to the premium SKU, as the app grants one with its bot token. */
const grantPremium = (p: Person) =>
  accord.request(`/applications/${remind.id}/entitlements`, { body: { sku_id: premiumSku.id, owner_id: p.id, owner_type: 2 }, auth: `Bot ${remind.token}` });

test('/remind → "Add a note" → modal → a confirmation only Alice sees', async () => {
  await alice.runCommand(remind, 'remind', { when: '30m' }, { channel: general });
  await alice.click(await alice.nextMessage({ from: remind, match: 'Add a note?' }), `remind:30m:${alice.id}`);
  await alice.submitModal(await alice.nextModal(), { note: 'stretch' });
  const answer = await alice.nextMessage({ from: remind, ephemeral: true });
  assert.equal(answer.content, 'Saved: I will remind you in 30m: stretch');
  await assert.rejects(bob.nextMessage({ from: remind, ephemeral: true, timeout: '300ms' }), /no MESSAGE_CREATE .* within 300 ms/);
});

test("the reminder is posted in the channel once Accord's clock has moved 30 minutes", async () => {
  await alice.runCommand(remind, 'remind', { when: '30m' }, { channel: general });
  await alice.click(await alice.nextMessage({ from: remind, match: 'Add a note?' }), `remind:30m:${alice.id}`);
  await alice.submitModal(await alice.nextModal(), { note: 'drink water' });
  await alice.nextMessage({ from: remind, ephemeral: true, match: 'drink water' });
  const waiting = clock.pending;

  await accord.clock.advance('29m');
  assert.equal(clock.pending, waiting, 'nothing is due after 29 minutes');
  await accord.clock.advance('1m');
  assert.equal(clock.pending, 0);
  const reminder = await bob.nextMessage({ channel: general, from: remind, match: 'drink water' });
  assert.equal(reminder.content, `Reminder for <@${alice.id}>: drink water`);
  assert.deepEqual(
    reminder.mentions.map((u: { id: string }) => u.id),
    [alice.id],
  );
});

test("only the reminder's author can add its note", async () => {
  await alice.runCommand(remind, 'remind', { when: '2h' }, { channel: general });
  await bob.click(await bob.nextMessage({ from: remind, match: 'Reminder in 2h' }), `remind:2h:${alice.id}`);
  const refusal = await bob.nextMessage({ from: remind, ephemeral: true });
  assert.equal(refusal.content, 'This reminder is not yours: run /remind for your own.');
});

test('/premium offers the premium SKU without an entitlement, and answers with one', async () => {
  await bob.runCommand(remind, 'premium', {}, { channel: general });
  const offer = await bob.nextMessage({ from: remind, ephemeral: true });
  assert.equal(offer.content, 'This needs Remind Premium.');
  const [button] = offer.components[0].components;
  assert.deepEqual({ style: button.style, sku_id: button.sku_id }, { style: 6, sku_id: premiumSku.id });

  await grantPremium(bob);
  await bob.runCommand(remind, 'premium', {}, { channel: general });
  assert.equal((await bob.nextMessage({ from: remind, ephemeral: true })).content, 'You have Remind Premium. Thank you!');
});
