/**
 * Apps in the browser, answered by an unmodified discord.js bot: a slash command with typed options and
 * autocomplete, its button, its select menu, a modal with every field kind (Checkbox Group and File Upload
 * included), ephemeral answers, "thinking…" for a deferred answer, the failure of an app that does not answer,
 * and the user and message context menus. Everything goes through POST /interactions as the official client does.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationCommandOptionType, ApplicationCommandType, ButtonStyle, ComponentType, MessageFlags, type Client, type Interaction } from 'discord.js';
import { png } from '../../server/conformance/world.ts';
import { newPerson, shot, watchErrors, watchRequests } from './helpers/browser.ts';
import { startBot } from './helpers/bot.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { composer, message } from './helpers/ui.ts';

const DISHES = ['Pizza Margherita', 'Pasta Carbonara', 'Panna Cotta', 'Risotto'];

describe('apps: commands, components, modals and context menus with a discord.js bot', { timeout: 240_000 }, () => {
  let bot: { client: Client; errors: unknown[] };
  // Registered before webSuite(): after-hooks run in order, so the bot logs out before its server stops.
  after(async () => {
    await bot?.client.destroy();
  });
  const env = webSuite();
  const seen: { autocomplete: string[]; modal?: Record<string, unknown> } = { autocomplete: [] };
  let releaseSlow: () => void = () => undefined;
  const slowGate = new Promise<void>((r) => {
    releaseSlow = r;
  });

  async function handle(i: Interaction): Promise<void> {
    if (i.isAutocomplete()) {
      const typed = String(i.options.getFocused());
      seen.autocomplete.push(typed);
      await i.respond(DISHES.filter((d) => d.toLowerCase().includes(typed.toLowerCase())).map((d) => ({ name: d, value: d })));
    } else if (i.isChatInputCommand()) {
      if (i.commandName === 'order') {
        const item = i.options.getString('item', true);
        const qty = i.options.getInteger('quantity', true);
        await i.reply({
          content: `Order: **${qty} × ${item}**`,
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: 'customize', label: 'Customize' },
                { type: ComponentType.Button, style: ButtonStyle.Link, url: 'https://example.com/menu', label: 'Menu' },
              ],
            },
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.StringSelect,
                  custom_id: 'size',
                  placeholder: 'Pick a size',
                  options: [
                    { label: 'Small', value: 'small' },
                    { label: 'Large', value: 'large', description: 'For sharing' },
                  ],
                },
              ],
            },
          ],
        });
      } else if (i.commandName === 'secret') {
        await i.reply({ content: 'The secret sauce is basil.', flags: MessageFlags.Ephemeral });
      } else if (i.commandName === 'slow') {
        await i.deferReply();
        await slowGate;
        await i.editReply('Done thinking: 42');
      }
      // "broken" is never answered: the platform reports the failure after 3 s.
    } else if (i.isButton() && i.customId === 'customize') {
      await i.showModal({
        custom_id: 'kitchen',
        title: 'Customize your order',
        components: [
          { type: 10, content: 'Tell the **kitchen** what you want.' },
          {
            type: 18,
            label: 'Toppings',
            description: 'Pick one or more',
            component: {
              type: 22,
              custom_id: 'toppings',
              min_values: 1,
              max_values: 3,
              options: [
                { label: 'Basil', value: 'basil' },
                { label: 'Olives', value: 'olives' },
                { label: 'Chili', value: 'chili', description: 'Hot' },
              ],
            },
          },
          {
            type: 18,
            label: 'Crust',
            component: {
              type: 21,
              custom_id: 'crust',
              options: [
                { label: 'Thin', value: 'thin' },
                { label: 'Thick', value: 'thick' },
              ],
            },
          },
          { type: 18, label: 'Reference photo', component: { type: 19, custom_id: 'photo', min_values: 1, max_values: 1 } },
          {
            type: 18,
            label: 'Delivery',
            component: {
              type: 3,
              custom_id: 'delivery',
              options: [
                { label: 'Pick up', value: 'pickup' },
                { label: 'Courier', value: 'courier' },
              ],
            },
          },
          { type: 18, label: 'Notes for the chef', component: { type: 4, custom_id: 'notes', style: 2, required: false } },
          { type: 18, label: 'Gift wrap', description: 'We add a ribbon', component: { type: 23, custom_id: 'gift' } },
        ],
      } as any);
    } else if (i.isStringSelectMenu() && i.customId === 'size') {
      await i.update({ content: `${i.message.content} · Size: **${i.values[0]}**` });
    } else if (i.isModalSubmit() && i.customId === 'kitchen') {
      const files = i.fields.getUploadedFiles('photo');
      const photo = files?.first();
      seen.modal = {
        toppings: i.fields.getCheckboxGroup('toppings'),
        crust: i.fields.getRadioGroup('crust'),
        delivery: i.fields.getStringSelectValues('delivery'),
        notes: i.fields.getTextInputValue('notes'),
        gift: i.fields.getCheckbox('gift'),
        photo: photo ? { name: photo.name, size: photo.size } : null,
      };
      await i.reply({
        content: `Kitchen got it: ${(seen.modal.toppings as string[]).join(', ')} on a ${seen.modal.crust} crust, photo ${photo?.name} (${photo?.size} bytes), gift wrap ${seen.modal.gift ? 'yes' : 'no'}.`,
        flags: MessageFlags.Ephemeral,
      });
    } else if (i.isUserSelectMenu() && i.customId === 'who') {
      await i.reply({ content: `You picked ${i.users.map((u) => u.username).join(', ')}.`, flags: MessageFlags.Ephemeral });
    } else if (i.isChannelSelectMenu() && i.customId === 'where') {
      await i.reply({ content: `Posting in #${(i.channels.first() as { name?: string } | undefined)?.name}.`, flags: MessageFlags.Ephemeral });
    } else if (i.isButton() && i.customId === 'v2-ok') {
      await i.reply({ content: 'Section button works.', flags: MessageFlags.Ephemeral });
    } else if (i.isUserContextMenuCommand()) {
      await i.reply(`${i.user.username} high-fived ${i.targetUser.username}!`);
    } else if (i.isMessageContextMenuCommand()) {
      await i.reply({ content: `Quoted: “${i.targetMessage.content}”`, flags: MessageFlags.Ephemeral });
    }
  }

  before(async () => {
    bot = await startBot(env.t, handle);
    const r = await env.t.api(`/applications/${env.t.world.applicationId}/guilds/${env.t.world.guildId}/commands`, {
      method: 'PUT',
      token: env.t.world.botToken,
      bot: true,
      body: [
        {
          name: 'order',
          description: 'Order from the kitchen',
          options: [
            { type: ApplicationCommandOptionType.String, name: 'item', description: 'What to eat', required: true, autocomplete: true },
            { type: ApplicationCommandOptionType.Integer, name: 'quantity', description: 'How many', required: true, min_value: 1, max_value: 5 },
            { type: ApplicationCommandOptionType.Boolean, name: 'spicy', description: 'Make it hot' },
          ],
        },
        { name: 'secret', description: 'Only for you' },
        { name: 'slow', description: 'Takes a while' },
        { name: 'broken', description: 'Never answers' },
        { name: 'High Five', type: ApplicationCommandType.User },
        { name: 'Quote', type: ApplicationCommandType.Message },
      ],
    });
    assert.equal(r.status, 200, r.text);
  });

  const openGeneral = async () => {
    const { page, context } = await newPerson(env.browser);
    const errors = watchErrors(page);
    const requests = watchRequests(page, env.t.server.url);
    await signInAs(page, env.t.server.url, env.t.world.users[0].token, `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`);
    await page.getByText('Welcome to #general!').waitFor();
    /** The end of each test: no page errors, nothing but the public API, the CDN, assets and the Gateway. */
    const done = async () => {
      assert.deepEqual(errors, []);
      assert.deepEqual(requests.offPublicApi(), []);
      assert.deepEqual(bot.errors, []);
      await context.close();
    };
    return { page, context, errors, done };
  };

  test('a slash command with autocomplete, its button, a modal with a Checkbox Group and a File Upload, a select, and an ephemeral answer', async () => {
    const { page, done } = await openGeneral();

    // The picker lists the bot's commands after "/".
    await composer(page).fill('/ord');
    await page.getByRole('option', { name: /\/order/ }).waitFor();
    await shot(page, 'apps-1-picker');
    await composer(page).press('Enter');

    // Typed options: autocomplete from the app, an integer with bounds, an optional boolean.
    const form = page.getByRole('group', { name: '/order' });
    await form.getByLabel('item').pressSequentially('pa', { delay: 30 });
    await page.getByRole('option', { name: 'Pasta Carbonara' }).click();
    await form.getByLabel('quantity').fill('2');
    await form.getByRole('button', { name: '+ spicy' }).click();
    await form.getByLabel('spicy (optional)').selectOption('true');
    await shot(page, 'apps-2-command-form');
    await form.getByRole('button', { name: 'Send' }).click();

    const order = message(page, 'Order:');
    await order.locator('strong', { hasText: '2 × Pasta Carbonara' }).waitFor();
    await order.getByText('used').waitFor();
    assert.ok(
      seen.autocomplete.some((v) => v.toLowerCase().startsWith('pa')),
      `autocomplete saw what was typed: ${seen.autocomplete}`,
    );

    // The button opens the app's modal.
    await order.getByRole('button', { name: 'Customize' }).click();
    const modal = page.getByRole('dialog', { name: 'Customize your order' });
    await modal.waitFor();
    await modal.locator('strong', { hasText: 'kitchen' }).waitFor();
    await modal.getByRole('checkbox', { name: 'Basil' }).check();
    await modal.getByRole('checkbox', { name: /Chili/ }).check();
    await modal.getByRole('radio', { name: 'Thick' }).check();
    await modal
      .getByLabel('Reference photo')
      .setInputFiles({ name: 'pizza.png', mimeType: 'image/png', buffer: Buffer.from('not really a png, 32 bytes long!') });
    await modal.getByText('pizza.png').waitFor();
    await modal.getByRole('button', { name: 'Delivery' }).click();
    await modal.getByRole('option', { name: 'Courier' }).click();
    await modal.getByLabel('Notes for the chef').fill('Extra crispy');
    await modal.getByRole('checkbox', { name: /Gift wrap/ }).check();
    await shot(page, 'apps-3-modal');
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.waitFor({ state: 'detached' });

    // The answer is ephemeral: only the person sees it, marked as such.
    const answer = message(page, 'Kitchen got it');
    await answer.getByText('Only you can see this').waitFor();
    await answer.getByText('basil, chili on a thick crust, photo pizza.png (32 bytes), gift wrap yes').waitFor();
    assert.deepEqual(seen.modal, {
      toppings: ['basil', 'chili'],
      crust: 'thick',
      delivery: ['courier'],
      notes: 'Extra crispy',
      gift: true,
      photo: { name: 'pizza.png', size: 32 },
    });

    // The select menu: the app updates its message.
    await order.getByRole('button', { name: 'Pick a size' }).click();
    await page.getByRole('option', { name: /Large/ }).click();
    await order.getByText('Size: large').waitFor();
    await shot(page, 'apps-4-answers');

    // Bob does not see Alice's ephemeral answer.
    const bobView = await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { token: env.t.world.users[1].token });
    assert.ok(!bobView.body.some((m: any) => m.content.startsWith('Kitchen got it')));
    // Dismiss removes it locally.
    await answer.getByRole('button', { name: 'Dismiss message' }).click();
    await answer.waitFor({ state: 'detached' });
    await done();
  });

  test('ephemeral command, "thinking…" for a deferred answer, and the failure of an app that does not answer', async () => {
    const { page, done } = await openGeneral();
    const run = async (name: string) => {
      await composer(page).fill(`/${name}`);
      await page.getByRole('option', { name: new RegExp(`/${name}`) }).waitFor();
      await composer(page).press('Enter');
      await page
        .getByRole('group', { name: `/${name}` })
        .getByRole('button', { name: 'Send' })
        .click();
    };

    await run('secret');
    await message(page, 'The secret sauce is basil.').getByText('Only you can see this').waitFor();

    await run('slow');
    const thinking = page.locator('article.msg', { hasText: 'is thinking…' });
    await thinking.waitFor();
    await shot(page, 'apps-5-thinking');
    releaseSlow();
    await message(page, 'Done thinking: 42').waitFor();
    await thinking.waitFor({ state: 'detached' });

    await run('broken');
    await page.getByText('Sending command…').waitFor();
    await page.getByText('The application did not respond').waitFor({ timeout: 10_000 });
    await shot(page, 'apps-6-failure');
    await done();
  });

  test('Components V2 (container, section with a button, text, separator, gallery, file), user and channel selects, and a failed click', async () => {
    const { page, done } = await openGeneral();
    const channel = (await bot.client.channels.fetch(env.t.world.textChannelId)) as any;
    await channel.send({
      flags: MessageFlags.IsComponentsV2,
      files: [
        { attachment: png(96), name: 'cover.png' },
        { attachment: Buffer.from('chapter one'), name: 'notes.txt' },
      ],
      components: [
        {
          type: 17,
          accent_color: 0x23a55a,
          components: [
            { type: 10, content: '## Club panel\nPick who reads next and where we post.' },
            {
              type: 9,
              components: [{ type: 10, content: 'Everything ready?' }],
              accessory: { type: 2, style: ButtonStyle.Success, custom_id: 'v2-ok', label: 'Check' },
            },
            { type: 14, divider: true, spacing: 1 },
            { type: 12, items: [{ media: { url: 'attachment://cover.png' }, description: 'Cover' }] },
            { type: 13, file: { url: 'attachment://notes.txt' } },
            { type: 1, components: [{ type: ComponentType.UserSelect, custom_id: 'who', placeholder: 'Who reads next?' }] },
            { type: 1, components: [{ type: ComponentType.ChannelSelect, custom_id: 'where', placeholder: 'Where do we post?', channel_types: [0] }] },
          ],
        },
      ],
    });
    await channel.send({
      content: 'This one is not wired',
      components: [{ type: 1, components: [{ type: 2, style: ButtonStyle.Secondary, custom_id: 'nobody-home', label: 'Try me' }] }],
    });

    const panel = page.locator('article.msg', { has: page.locator('.ccontainer') });
    await panel.locator('h2', { hasText: 'Club panel' }).waitFor();
    await panel.locator('.cgallery img').waitFor();
    await panel.locator('.attach__name', { hasText: /^notes\.txt$/ }).waitFor();
    await panel.getByRole('button', { name: 'Check' }).click();
    await message(page, 'Section button works.').waitFor();
    await panel.getByRole('button', { name: 'Who reads next?' }).click();
    await page.getByRole('option', { name: '@Bob' }).click();
    await message(page, `You picked ${env.t.world.users[1].username}.`).waitFor();
    await panel.getByRole('button', { name: 'Where do we post?' }).click();
    await page.getByRole('option', { name: '#general' }).click();
    await message(page, 'Posting in #general.').waitFor();
    await panel.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot(page, 'apps-8-components-v2');

    // Nobody answers this button: after the 3 s window the client shows the official failure line.
    const lonely = message(page, 'This one is not wired');
    await lonely.getByRole('button', { name: 'Try me' }).click();
    await lonely.getByText('This interaction failed').waitFor({ timeout: 10_000 });
    await shot(page, 'apps-9-component-failed');
    await done();
  });

  test('user and message context menus', async () => {
    const { page, done } = await openGeneral();
    await page.locator('.members .member', { hasText: 'Bob' }).click({ button: 'right' });
    await page
      .getByRole('menu', { name: 'User menu' })
      .getByRole('menuitem', { name: /High Five/ })
      .click();
    await message(page, 'high-fived').getByText(`${env.t.world.users[0].username} high-fived ${env.t.world.users[1].username}!`).waitFor();

    await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, {
      method: 'POST',
      token: env.t.world.users[1].token,
      body: { content: 'Words worth quoting' },
    });
    const m = message(page, 'Words worth quoting');
    await m.hover();
    await m.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: /Quote/ }).click();
    await message(page, 'Quoted: “Words worth quoting”').getByText('Only you can see this').waitFor();
    await shot(page, 'apps-7-context-menus');
    await done();
  });

  test('an app installed with applications.commands only (no bot) has its commands in the picker', async () => {
    const { t } = env;
    const owner = t.world.users[0];
    const app = await t.api('/applications', { method: 'POST', token: owner.token, body: { name: 'Hook Weather' } });
    const install = await t.api(`/oauth2/authorize?${new URLSearchParams({ client_id: app.body.id, scope: 'applications.commands' })}`, {
      method: 'POST',
      token: owner.token,
      body: { authorize: true, guild_id: t.world.guildId },
    });
    assert.equal(install.status, 200, install.text);
    const token = (await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner.token })).body.token;
    const cmd = await t.api(`/applications/${app.body.id}/commands`, {
      method: 'POST',
      token,
      bot: true,
      body: { name: 'forecast', description: "Tomorrow's weather" },
    });
    assert.equal(cmd.status, 201, cmd.text);

    const { page, done } = await openGeneral();
    await composer(page).fill('/forecast');
    await page
      .getByRole('option', { name: /\/forecast/ })
      .getByText('Hook Weather')
      .waitFor();
    await done();
  });
});
