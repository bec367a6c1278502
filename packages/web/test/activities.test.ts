/**
 * Activities in Chromium with the real Embedded App SDK: a test Activity (SDK 2.5.0, then 2.1 with /.proxy paths)
 * served by its own backend through the proxy host, launched from the entry-point command in the client, joined by a
 * second person, seen in a third person's presence, shared by link, and selling a SKU. Every message the client's
 * parent sent is then parsed with the SDK's own schemas.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { register } from '../../server/test/helpers/fixtures.ts';
import { ensureBuilt } from './helpers/build.ts';
import { launch, shot, watchErrors } from './helpers/browser.ts';
import { startActivityBackend, type ActivityBackend } from './helpers/activity-backend.ts';
import { makeActivityApp, type ActivityWorld } from './helpers/activity-world.ts';
import { checkMessage, loadSdkSchemas } from './helpers/sdk-schemas.ts';

interface Person {
  name: string;
  id: string;
  token: string;
  context: BrowserContext;
  page: Page;
  errors: string[];
}

describe('Activities in the client, with the real Embedded App SDK', { timeout: 240_000 }, () => {
  let t: TestServer;
  let browser: Browser;
  let backend: ActivityBackend;
  let world: ActivityWorld;
  let alice: Person;
  let bob: Person;
  let carol: Person;
  let carolGw: RawGateway;
  const channelPath = () => `/channels/${t.world.guildId}/${t.world.textChannelId}`;

  /** The Activity's own frame: the client's iframe holds the bridge page, which holds the Activity. */
  const activity = (p: Page): FrameLocator => p.frameLocator('iframe.act-frame').frameLocator('iframe');
  const state = async (p: Page): Promise<any> => {
    const frame = p.frames().find((f) => /\.localhost:\d+\/\?/.test(f.url()));
    assert.ok(frame, 'the Activity frame is loaded');
    return frame.evaluate('window.activityState');
  };
  async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    let last: unknown;
    while (Date.now() < end) {
      try {
        const v = await check();
        if (v) return v;
      } catch (err) {
        last = err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out: ${what}${last ? ` (${String(last)})` : ''}`);
  }

  /** Lets a dialog's opening animation (0.15 s) finish before a screenshot. */
  const settle = (p: Page) => p.waitForTimeout(300);

  async function person(name: string, id: string, token: string): Promise<Person> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    // The client's own pages only (the script also runs in the Activity's frames, which have other origins).
    await context.addInitScript(
      `if (location.origin === ${JSON.stringify(t.server.url)}) { localStorage.setItem('accord.token', ${JSON.stringify(token)}); window.__accordActivityLog = []; }`,
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { name, id, token, context, page, errors: watchErrors(page) };
  }

  before(async () => {
    await ensureBuilt();
    t = await startTestServer();
    browser = await launch();
    const owner = t.world.users[0];
    const app = (await t.api(`/applications/${t.world.applicationId}`, { token: owner.token })).body;
    const opts = { platformUrl: t.server.url, clientId: t.world.applicationId, clientSecret: '', verifyKey: app.verify_key };
    backend = await startActivityBackend(opts);
    world = await makeActivityApp(t, backend.origin);
    const sketch = await t.api('/applications', { token: owner.token, method: 'POST', body: { name: 'Sketchpad' } });
    assert.equal(
      (await t.api(`/applications/${sketch.body.id}`, { token: owner.token, method: 'PATCH', body: { flags: sketch.body.flags | (1 << 17) } })).status,
      200,
    );
    opts.clientSecret = world.clientSecret;
    // A third person in the guild, watching presences over a Gateway session of their own.
    const c = await register(t, `carol_${Date.now().toString(36)}`);
    await t.api(`/users/@me`, { token: c.token, method: 'PATCH', body: { global_name: 'Carol' } });
    const invite = await t.api(`/channels/${t.world.textChannelId}/invites`, { token: owner.token, method: 'POST', body: {} });
    assert.equal((await t.api(`/invites/${invite.body.code}`, { token: c.token, method: 'POST', body: {} })).status, 200);
    carolGw = await RawGateway.connect(t.server.url);
    await carolGw.identify(c.token);
    alice = await person('Alice', owner.id, owner.token);
    bob = await person('Bob', t.world.users[1].id, t.world.users[1].token);
    carol = await person('Carol', c.id, c.token);
  });
  after(async () => {
    carolGw?.ws.close(1000);
    await browser?.close();
    await backend?.close();
    await t?.close();
  });

  test('launched from the entry-point command in the App Launcher, the SDK reaches READY', async () => {
    const p = alice.page;
    await p.goto(t.server.url + channelPath());
    await p.getByRole('button', { name: 'Activities', exact: true }).click();
    const launcher = p.getByRole('dialog', { name: 'App Launcher' });
    await launcher.getByRole('button', { name: 'Launch Dev Bot' }).waitFor();
    // Alice's other app, Activities just enabled and installed nowhere: her in-development preview.
    await launcher.getByRole('button', { name: 'Launch Sketchpad' }).waitFor();
    await settle(p);
    await shot(p, 'activities-launcher');
    await launcher.getByRole('button', { name: 'Launch Dev Bot' }).click();
    await p.getByRole('region', { name: 'Dev Bot Activity' }).waitFor();
    await activity(p).locator('#status[data-ready="true"]').waitFor();
    // The platform posted its launch message for the entry point (handler 2).
    const msgs = await t.api(`/channels/${t.world.textChannelId}/messages?limit=5`, { token: alice.token });
    assert.ok(
      msgs.body.some((m: any) => /launched \*\*Dev Bot\*\*/.test(m.content) && m.interaction_metadata),
      'the launch message',
    );
  });

  test("authorize, the backend's token exchange and authenticate: the Activity shows the person's name", async () => {
    const p = alice.page;
    const consent = p.getByRole('dialog', { name: 'Authorize the Activity' });
    await consent.waitFor();
    await settle(p);
    await shot(p, 'activities-consent');
    await consent.getByRole('button', { name: 'Authorize' }).click();
    await activity(p).getByText('Hello, Alice!').waitFor();
    assert.deepEqual(
      backend.exchanges.map((e) => e.ok),
      [true],
    );
    // Through the proxy: the proxy's signed user headers reached the backend, and a WebSocket echoed.
    await until('proxy user and socket', async () => {
      const x = await state(p);
      return x.proxyUser && x.socketEcho;
    });
    const after = await state(p);
    assert.deepEqual(after.scopes.sort(), ['guilds', 'guilds.members.read', 'identify', 'rpc.activities.write']);
    assert.equal(after.channel, 'general');
    assert.ok(BigInt(after.permissions) > 0n);
    assert.equal(after.proxyUser, alice.id);
    assert.equal(after.socketEcho, 'pong:ping');
    assert.ok(backend.signed.every((x) => x.verified));
  });

  test('a second person joins the same instance; both see the participants; the instance route lists both', async () => {
    const p = bob.page;
    await p.goto(t.server.url + channelPath());
    const bar = p.getByRole('region', { name: 'Dev Bot is running' });
    await bar.waitFor();
    await shot(p, 'activities-join-bar');
    await bar.getByRole('button', { name: 'Join Activity' }).click();
    await p.getByRole('dialog', { name: 'Authorize the Activity' }).getByRole('button', { name: 'Authorize' }).click();
    await activity(p).getByText('Hello, Bob!').waitFor();
    for (const who of [alice, bob]) {
      await until(`${who.name} sees both`, async () => JSON.stringify((await state(who.page)).participants.sort()) === '["Alice","Bob"]');
      await who.page.getByRole('list', { name: 'Participants' }).getByText('Bob').waitFor();
    }
    assert.ok((await state(alice.page)).events.includes('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE'));
    const mine = await alice.page.evaluate('window.__accordActivityLog.find((m) => m[1] && m[1].evt === "READY") ? 1 : 0');
    assert.equal(mine, 1);
    const inst = (await t.api(`/applications/${world.appId}/activity-instances/${await instanceId()}`, { token: t.world.botToken, bot: true })).body;
    assert.deepEqual(inst.users.sort(), [alice.id, bob.id].sort());
    await shot(alice.page, 'activities-panel-two-people');
  });

  async function instanceId(): Promise<string> {
    const s = await alice.page.evaluate<string>('document.querySelector("iframe.act-frame").src');
    return new URL(s).searchParams.get('instance_id')!;
  }

  test("setActivity becomes the person's presence, seen by a third person's Gateway session", async () => {
    await activity(alice.page).getByRole('button', { name: 'Show my status' }).click();
    const presence = await carolGw.dispatch('PRESENCE_UPDATE', (d) => d.user?.id === alice.id && d.activities?.length > 0, 10_000);
    const a = presence.activities[0];
    assert.equal(a.name, 'Dev Bot');
    assert.equal(a.type, 0);
    assert.equal(a.application_id, world.appId);
    assert.equal(a.state, 'Winning 3-1');
    assert.equal(a.details, 'Table 3');
  });

  test('shareLink resolves; opening the link launches the Activity with custom_id and referrer_id', async () => {
    const p = alice.page;
    await activity(p).getByRole('button', { name: 'Invite friends' }).click();
    const share = p.getByRole('dialog', { name: 'Share link' });
    await share.waitFor();
    await settle(p);
    await shot(p, 'activities-share');
    await share.getByRole('button', { name: /Send to #general/ }).click();
    const shared = await until('shareLink resolved', async () => (await state(p)).shared);
    assert.deepEqual(shared, { success: true, didCopyLink: false, didSendMessage: true });
    const msgs = await t.api(`/channels/${t.world.textChannelId}/messages?limit=5`, { token: carol.token });
    const link = /https?:\/\/\S+\/activities\/\d+\?\S+/.exec(msgs.body.find((m: any) => m.content.startsWith('Come play paddle ball'))?.content ?? '')?.[0];
    assert.ok(link, 'the shared message carries the link');
    const url = new URL(link);
    assert.equal(url.searchParams.get('custom_id'), 'table-3');
    assert.equal(url.searchParams.get('referrer_id'), alice.id);

    const c = carol.page;
    await c.goto(link);
    await c.getByText('Alice invited you to play').waitFor();
    await shot(c, 'activities-link-page');
    await c.getByRole('button', { name: 'Launch Dev Bot' }).click();
    await c.waitForURL(/\/channels\//);
    await activity(c).locator('#status[data-ready="true"]').waitFor();
    await activity(c).getByText(`custom_id: table-3 · referrer_id: ${alice.id}`).waitFor();
    const s = await state(c);
    assert.equal(s.customId, 'table-3');
    assert.equal(s.referrerId, alice.id);
    await c.getByRole('dialog', { name: 'Authorize the Activity' }).getByRole('button', { name: 'Authorize' }).click();
    await activity(c).getByText('Hello, Carol!').waitFor();
  });

  test('startPurchase buys the SKU through the store and the Activity receives ENTITLEMENT_CREATE', async () => {
    const p = alice.page;
    await activity(p).getByRole('button', { name: 'Buy Golden Paddle' }).click();
    const dialog = p.getByRole('dialog', { name: 'Confirm purchase' });
    await dialog.waitFor();
    await settle(p);
    await shot(p, 'activities-purchase');
    await dialog.getByRole('button', { name: /Buy for/ }).click();
    await activity(p).getByText(`Owned: ${world.skuId}`).waitFor();
    const s = await state(p);
    assert.ok(s.events.includes('ENTITLEMENT_CREATE'));
    assert.equal(s.bought[0].sku_id, world.skuId);
    const owned = await t.api(`/users/@me/entitlements?application_id=${world.appId}`, { token: alice.token });
    assert.deepEqual(
      owned.body.map((e: any) => e.sku_id),
      [world.skuId],
    );
  });

  test('an external link asks first; the panel pops out and comes back', async () => {
    const p = alice.page;
    await activity(p).getByRole('button', { name: 'Rules' }).click();
    await p.getByRole('dialog', { name: 'Leaving Accord' }).getByRole('button', { name: 'Go back' }).click();
    await until('openExternalLink answered', async () => (await state(p)).events.includes('opened:{"opened":false}'));

    const popped = alice.context.waitForEvent('page');
    await p.getByRole('button', { name: 'Pop out' }).click();
    const popup = await popped;
    await popup.frameLocator('iframe').locator('#status[data-ready="true"]').waitFor();
    await popup.frameLocator('iframe').getByText('Hello, Alice!').waitFor();
    await p.getByText('Dev Bot is open in another window').waitFor();
    await shot(popup, 'activities-popup-window');
    await shot(p, 'activities-popped-out');
    await popup.close();
    await activity(p).locator('#status[data-ready="true"]').waitFor();
  });

  test('the same app works with /.proxy/ paths and SDK 2.1', async () => {
    backend.variant = { sdk: '2.1', proxyPrefix: true };
    for (const who of [bob, carol]) {
      await who.page.getByRole('button', { name: 'Leave' }).click();
      await who.page.getByRole('region', { name: 'Dev Bot is running' }).waitFor();
    }
    const p = bob.page;
    await p.reload();
    await p.getByRole('region', { name: 'Dev Bot is running' }).getByRole('button', { name: 'Join Activity' }).click();
    // Already authorized: prompt "none" skips the consent.
    await activity(p).getByText('Hello, Bob!').waitFor();
    const s = await until('2.1 fully connected', async () => {
      const x = await state(p);
      return x.socketEcho && x.proxyUser ? x : null;
    });
    assert.match(s.sdkVersion, /^2\.1\./);
    assert.equal(s.proxyUser, bob.id);
    assert.equal(s.socketEcho, 'pong:ping');
    await activity(p)
      .getByText(/SDK 2\.1\.\d+ · \/\.proxy paths/)
      .waitFor();
    const frameUrl = p
      .frames()
      .map((f) => f.url())
      .find((u) => /localhost:\d+\/\?/.test(u))!;
    assert.ok(frameUrl, 'the Activity page');
    await until('Alice sees Bob again', async () => (await state(alice.page)).participants.includes('Bob'));
    await shot(p, 'activities-sdk21-proxy');
  });

  test("every message the client's parent sent parses with the SDK's schemas; no client errors", async () => {
    const v25 = await loadSdkSchemas('@discord/embedded-app-sdk');
    let count = 0;
    for (const who of [alice, bob, carol]) {
      const log = await who.page.evaluate<unknown[]>('window.__accordActivityLog');
      for (const m of log) {
        checkMessage(v25, m);
        count++;
      }
      assert.deepEqual(
        who.errors.filter((e) => !/Failed to load resource/.test(e)),
        [],
        `${who.name}'s page`,
      );
    }
    assert.ok(count > 30, `${count} messages checked`);
    // Leaving ends the instance once the last person is out.
    const lastInstance = await instanceId();
    for (const who of [alice, bob]) await who.page.getByRole('button', { name: 'Leave' }).click();
    await alice.page.getByRole('region', { name: 'Dev Bot Activity' }).waitFor({ state: 'detached' });
    await until(
      'the instance ended',
      async () => (await t.api(`/applications/${world.appId}/activity-instances/${lastInstance}`, { token: t.world.botToken, bot: true })).status === 404,
    );
  });
});
