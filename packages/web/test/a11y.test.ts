/**
 * axe-core over the main screens (login, chat, a DM, the developer portal, the consent page), on a desktop and on a
 * phone: no violation of impact "serious" or "critical".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './helpers/axe.ts';
import { newPerson, shot } from './helpers/browser.ts';
import { newPhonePerson } from './helpers/phone.ts';
import { signInAs } from './helpers/session.ts';
import { webSuite } from './helpers/suite.ts';
import { message } from './helpers/ui.ts';

describe('accessibility of the main screens (axe-core)', { timeout: 180_000 }, () => {
  const env = webSuite();
  const alice = () => env.t.world.users[0];
  const bob = () => env.t.world.users[1];

  const screens: { name: string; open: (page: Page) => Promise<void> }[] = [
    {
      name: 'login',
      open: async (page) => {
        await page.goto(`${env.t.server.url}/login`);
        await page.getByLabel('Password').waitFor();
      },
    },
    {
      name: 'chat',
      open: async (page) => {
        await signInAs(page, env.t.server.url, alice().token, `/channels/${env.t.world.guildId}/${env.t.world.textChannelId}`);
        await message(page, 'Checked by axe').waitFor();
      },
    },
    {
      name: 'a DM',
      open: async (page) => {
        const dm = await env.t.api('/users/@me/channels', { method: 'POST', token: alice().token, body: { recipient_id: bob().id } });
        await env.t.api(`/channels/${dm.body.id}/messages`, { method: 'POST', token: bob().token, body: { content: 'A private hello' } });
        await signInAs(page, env.t.server.url, alice().token, `/channels/@me/${dm.body.id}`);
        await message(page, 'A private hello').waitFor();
      },
    },
    {
      name: 'the portal',
      open: async (page) => {
        await signInAs(page, env.t.server.url, alice().token, `/developers/applications/${env.t.world.applicationId}/information`);
        await page.getByLabel('Name', { exact: false }).first().waitFor();
      },
    },
    {
      name: 'the consent page',
      open: async (page) => {
        await signInAs(
          page,
          env.t.server.url,
          alice().token,
          `/oauth2/authorize?client_id=${env.t.world.applicationId}&scope=bot%20applications.commands&permissions=2048`,
        );
        await page.getByRole('heading', { name: 'Dev Bot' }).waitFor();
      },
    },
  ];

  for (const size of ['desktop', 'phone'] as const)
    test(`no serious or critical violation on the ${size}`, async () => {
      await env.t.api(`/channels/${env.t.world.textChannelId}/messages`, { method: 'POST', token: bob().token, body: { content: 'Checked by axe' } });
      const { page, context } = size === 'phone' ? await newPhonePerson(env.browser) : await newPerson(env.browser);
      const found: string[] = [];
      for (const s of screens) {
        await s.open(page);
        await shot(page, `a11y-${size}-${s.name.replace(/^(a|the) /, '').replace(/ /g, '-')}`);
        for (const p of await seriousA11yProblems(page)) found.push(`${s.name}: ${p.impact} ${p.id} (${p.help}) at ${p.targets.join(' | ')}`);
      }
      assert.deepEqual(found, []);
      await context.close();
    });
});
