/**
 * The store in the browser: a premium button on the bot's message opens the purchase, the person subscribes,
 * and the bot's unmodified discord.js client sees entitlementCreate. The app's store page lists its SKUs, buys a
 * one-time item, and cancels (and resumes) the subscription.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ButtonStyle, ComponentType, Events, type Client, type Entitlement, type TextChannel } from 'discord.js';
import { waitEvent } from '../../server/test/helpers/wait.ts';
import { newPerson, shot, watchErrors } from './helpers/browser.ts';
import { startBot } from './helpers/bot.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message } from './helpers/ui.ts';

describe('store: SKUs, premium buttons, purchase and cancel', { timeout: 180_000 }, () => {
  let bot: { client: Client; errors: unknown[] };
  // Registered before webSuite(): after-hooks run in order, so the bot logs out before its server stops.
  after(async () => {
    await bot?.client.destroy();
  });
  const env = webSuite();
  before(async () => {
    bot = await startBot(env.t, async () => undefined);
  });

  const createSku = async (body: Record<string, unknown>) => {
    const r = await env.t.api(`/applications/${env.t.world.applicationId}/skus`, { method: 'POST', token: env.t.world.users[0].token, body });
    assert.equal(r.status, 201, r.text);
    return r.body as { id: string };
  };

  test('a premium button opens the purchase; buying the subscription reaches discord.js as entitlementCreate; the store page cancels it', async () => {
    const gold = await createSku({ name: 'Gold', type: 5, price: 499, published: true });
    const stickers = await createSku({ name: 'Sticker Pack', type: 2, price: 199, published: true });
    const channel = (await bot.client.channels.fetch(env.t.world.textChannelId)) as TextChannel;
    await channel.send({
      content: 'Unlock **Gold** for the whole club:',
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Premium, sku_id: gold.id }] }],
    } as any);

    const bob = env.t.world.users[1];
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    await signInAs(page, env.t.server.url, bob.token, `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`);
    const offer = message(page, 'Unlock');
    const premium = offer.getByRole('button', { name: /Gold · \$4\.99/ });
    await premium.waitFor();
    await shot(page, 'store-1-premium-button');
    await premium.click();
    const dialog = page.getByRole('dialog', { name: 'Complete your purchase' });
    await dialog.getByText('Subscription', { exact: true }).waitFor();
    await shot(page, 'store-2-checkout');

    const created = waitEvent<[Entitlement]>(bot.client, Events.EntitlementCreate, (e) => e.skuId === gold.id, 15_000);
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Thanks for your purchase!').waitFor();
    await shot(page, 'store-3-thanks');
    const [ent] = await created;
    assert.equal(ent.userId, bob.id);
    assert.equal(ent.applicationId, env.t.world.applicationId);
    assert.equal(ent.isActive(), true);
    await page.getByRole('button', { name: 'Done' }).click();

    // The app's store page: the subscription is owned and renews; buy the one-time item; cancel the subscription.
    await page.locator('.members .member', { hasText: 'Dev Bot' }).click();
    await page.getByRole('button', { name: 'Open Store' }).click();
    await page.waitForURL(new RegExp(`/application-directory/${env.t.world.applicationId}/store$`));
    const goldRow = page.locator(`[data-sku="${gold.id}"]`);
    await goldRow.getByText(/^Renews /).waitFor();
    const stickerRow = page.locator(`[data-sku="${stickers.id}"]`);
    await stickerRow.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Complete your purchase' }).getByRole('button', { name: 'Purchase' }).click();
    await page.getByText('Sticker Pack is yours.').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await stickerRow.getByText('Owned').waitFor();
    await goldRow.getByRole('button', { name: 'Cancel subscription' }).click();
    await goldRow.getByText(/^Cancelled: ends /).waitFor();
    await shot(page, 'store-4-store-page');

    const subs = await env.t.api(`/users/@me/subscriptions?application_id=${env.t.world.applicationId}`, { token: bob.token });
    const sub = subs.body.find((s: any) => s.sku_ids.includes(gold.id));
    assert.equal(sub.status, 2, 'ENDING: it stops at the period end');
    assert.ok(sub.canceled_at);
    const ents = await env.t.api('/users/@me/entitlements', { token: bob.token });
    assert.ok(ents.body.some((e: any) => e.sku_id === stickers.id));

    await goldRow.getByRole('button', { name: 'Resume' }).click();
    await goldRow.getByText(/^Renews /).waitFor();
    assert.deepEqual(errors, []);
    assert.deepEqual(bot.errors, []);
    await context.close();
  });
});
