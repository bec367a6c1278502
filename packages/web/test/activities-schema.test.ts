/**
 * Every answer the parent sends is valid against the Embedded App SDK's own schemas: the parent module runs in Node
 * against a real server, every command of SDK 2.5.0 is sent (successes and refusals), every event is dispatched, and
 * each message is parsed with the SDK package's `parseIncomingPayload` (2.5.0, and 2.1.0 for the commands 2.1 knows).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { RawGateway } from '../../server/test/helpers/gateway-client.ts';
import { ActivityParent } from '../src/activity/parent/parent.ts';
import { COMMANDS, EVENTS, type Message } from '../src/activity/parent/protocol.ts';
import type { LaunchContext } from '../src/activity/parent/host.ts';
import { nodeHost, type NodeHost } from './helpers/node-host.ts';
import { makeActivityApp, type ActivityWorld } from './helpers/activity-world.ts';
import { checkMessage, loadSdkSchemas } from './helpers/sdk-schemas.ts';

describe("the parent answers on the SDK's schema", { timeout: 120_000 }, () => {
  let t: TestServer;
  let world: ActivityWorld;
  let gw: RawGateway;
  let launch: LaunchContext;
  const sent: Message[] = [];

  before(async () => {
    t = await startTestServer();
    world = await makeActivityApp(t, 'http://127.0.0.1:9');
    gw = await RawGateway.connect(t.server.url);
    const ready = await gw.identify(t.world.users[0].token);
    const r = await t.api(`/activities/${t.world.textChannelId}/${world.appId}`, {
      token: t.world.users[0].token,
      method: 'POST',
      body: { session_id: ready.session_id },
    });
    assert.equal(r.status, 204, r.text);
    const inst = await gw.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2');
    launch = {
      applicationId: world.appId,
      instanceId: inst.instance_id,
      launchId: inst.launch_id,
      channelId: t.world.textChannelId,
      guildId: t.world.guildId,
      locationId: inst.location.id,
      frameId: 'frame-1',
      platform: 'desktop',
    };
  });
  after(async () => {
    gw?.ws.close(1000);
    await t?.close();
  });

  function makeParent(host: NodeHost, out: Message[] = sent) {
    const closes: [number, string | undefined][] = [];
    const waiters: ((m: Message) => boolean)[] = [];
    const parent = new ActivityParent({
      host,
      post: (m) => {
        out.push(m);
        for (const w of [...waiters]) if (w(m)) waiters.splice(waiters.indexOf(w), 1);
      },
      onClose: (code, message) => closes.push([code, message]),
    });
    let n = 0;
    const call = (cmd: string, args?: unknown, evt?: string): Promise<any> => {
      const nonce = `nonce-${++n}`;
      const p = new Promise<any>((resolve) =>
        waiters.push((m) => {
          const f = m[1] as any;
          if (m[0] === 1 && f.nonce === nonce) {
            resolve(f);
            return true;
          }
          return false;
        }),
      );
      parent.receive([1, { cmd, args, nonce, ...(evt ? { evt } : {}) }]);
      return p;
    };
    return { parent, call, closes };
  }

  const me = () => ({ id: t.world.users[0].id, username: t.world.users[0].username, discriminator: '0', global_name: 'Alice', avatar: null, public_flags: 0 });
  const host = (over: Parameters<typeof nodeHost>[0]['ui'] = {}) =>
    nodeHost({
      baseUrl: t.server.url,
      token: t.world.users[0].token,
      me: me(),
      launch,
      application: { id: world.appId, name: 'Dev Bot', description: '', icon: null },
      ui: over,
    });

  test('handshakes: bad version, encoding and client id close the frame; a good one gets READY', async () => {
    const mine: Message[] = [];
    for (const [payload, code] of [
      [{ v: 2, client_id: world.appId, frame_id: 'frame-1' }, 4004],
      [{ v: 1, encoding: 'etf', client_id: world.appId, frame_id: 'frame-1' }, 4005],
      [{ v: 1, client_id: '1', frame_id: 'frame-1' }, 4000],
    ] as const) {
      const { parent, closes } = makeParent(host(), mine);
      parent.receive([0, payload]);
      assert.equal(closes[0][0], code);
      assert.deepEqual(mine.at(-1), [2, { code, message: closes[0][1] }]);
    }
    const { parent } = makeParent(host());
    parent.receive([0, { v: 1, encoding: 'json', client_id: world.appId, frame_id: 'frame-1', sdk_version: '2.5.0' }]);
    const ready = sent.at(-1)![1] as any;
    assert.equal(ready.evt, 'READY');
    assert.equal(ready.nonce, null);
    assert.equal('avatar' in ready.data.user, false, 'no avatar: null in READY');
    sent.push(...mine);
  });

  test('every command of SDK 2.5.0 is answered: results and refusals', async () => {
    const h = host();
    const { parent, call } = makeParent(h);
    parent.receive([0, { v: 1, encoding: 'json', client_id: world.appId, frame_id: 'frame-1' }]);
    const replied = new Set<string>();
    const ok = async (cmd: string, args?: unknown, evt?: string) => {
      const f = await call(cmd, args, evt);
      replied.add(cmd);
      assert.equal(f.evt, null, `${cmd}: ${JSON.stringify(f.data)}`);
      return f.data;
    };
    const refused = async (cmd: string, args: unknown, code: number, evt?: string) => {
      const f = await call(cmd, args, evt);
      replied.add(cmd);
      assert.equal(f.evt, 'ERROR', `${cmd} should be refused`);
      assert.equal(f.data.code, code, `${cmd}: ${JSON.stringify(f.data)}`);
    };

    // Scoped commands before AUTHENTICATE.
    await refused('GET_CHANNEL', { channel_id: launch.channelId }, 4006);
    await refused('AUTHORIZE', { client_id: '1', scope: ['identify'] }, 4007);
    const scopes = ['identify', 'guilds', 'guilds.members.read', 'rpc.activities.write', 'relationships.read', 'rpc.voice.read'];
    const { code } = await ok('AUTHORIZE', { client_id: world.appId, response_type: 'code', state: '', prompt: 'none', scope: scopes });
    // The Activity's backend exchanges the code without a redirect_uri.
    const form = new URLSearchParams({ client_id: world.appId, client_secret: world.clientSecret, grant_type: 'authorization_code', code });
    const token = (await (await fetch(`${t.server.url}/api/v10/oauth2/token`, { method: 'POST', body: form })).json()) as any;
    assert.ok(token.access_token, JSON.stringify(token));
    await refused('AUTHENTICATE', { access_token: 'nope' }, 4009);
    const auth = await ok('AUTHENTICATE', { access_token: token.access_token });
    assert.equal(auth.user.id, me().id);
    assert.deepEqual([...auth.scopes].sort(), [...scopes].sort());

    const ch = await ok('GET_CHANNEL', { channel_id: launch.channelId });
    assert.deepEqual([ch.id, ch.voice_states, ch.messages], [launch.channelId, [], []]);
    await refused('GET_CHANNEL', { channel_id: '1' }, 4005);
    assert.equal(typeof (await ok('GET_CHANNEL_PERMISSIONS')).permissions, 'string');
    assert.equal((await ok('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS')).participants[0].id, me().id);
    assert.equal((await ok('GET_USER', { id: me().id })).id, me().id);
    assert.equal(await ok('GET_USER', { id: '42' }), null);

    const activity = await ok('SET_ACTIVITY', {
      activity: {
        type: 0,
        state: 'In a match',
        details: 'Round 2',
        timestamps: { start: 1 },
        party: { id: 'p', size: [1, 4] },
        assets: { large_image: 'paddle', large_text: 'Paddle' },
        instance: true,
      },
    });
    assert.equal(activity.name, 'Dev Bot');
    assert.equal(h.presences.at(-1)!.state, 'In a match');
    await refused('SET_ACTIVITY', { activity: { type: 1 } }, 4000);
    await ok('SET_ACTIVITY', { activity: null });

    const share = await ok('SHARE_LINK', { message: 'Play with me', custom_id: 'room-7' });
    assert.deepEqual(share, { success: true, didCopyLink: false, didSendMessage: true });
    assert.deepEqual(await ok('OPEN_EXTERNAL_LINK', { url: 'https://example.org/page' }), { opened: true });
    await refused('OPEN_EXTERNAL_LINK', { url: 'javascript:alert(1)' }, 4000);
    assert.equal(await ok('OPEN_INVITE_DIALOG'), null);
    assert.deepEqual(await ok('GET_RELATIONSHIPS'), { relationships: [] });
    assert.equal(await ok('INVITE_USER_EMBEDDED', { user_id: t.world.users[1].id, content: 'Come play' }), null);
    await refused('SHARE_INTERACTION', { command: 'nope' }, 4000);
    assert.equal(await ok('OPEN_SHARE_MOMENT_DIALOG', { mediaUrl: 'https://example.org/clip.png' }), null);

    const skus = await ok('GET_SKUS_EMBEDDED');
    assert.equal(skus.skus[0].id, world.skuId);
    assert.deepEqual(await ok('GET_ENTITLEMENTS_EMBEDDED'), { entitlements: [] });
    assert.deepEqual(await ok('SUBSCRIBE', {}, 'ENTITLEMENT_CREATE'), { evt: 'ENTITLEMENT_CREATE' });
    const bought = await ok('START_PURCHASE', { sku_id: world.skuId });
    assert.equal(bought[0].sku_id, world.skuId);
    const created = sent.find((m) => (m[1] as any).evt === 'ENTITLEMENT_CREATE') as any;
    assert.equal(created[1].data.entitlement.id, bought[0].id, 'ENTITLEMENT_CREATE was dispatched');
    assert.equal((await ok('GET_ENTITLEMENTS_EMBEDDED')).entitlements.length, 1);
    await refused('START_PURCHASE', { sku_id: '1' }, 4000);

    assert.equal(await ok('SET_ORIENTATION_LOCK_STATE', { lock_state: 3, picture_in_picture_lock_state: 1, grid_lock_state: null }), null);
    await refused('SET_ORIENTATION_LOCK_STATE', { lock_state: 9 }, 4000);
    assert.equal(await ok('CAPTURE_LOG', { level: 'info', message: 'hello' }), null);
    assert.deepEqual(h.logs.at(-1), ['info', 'hello']);
    assert.match((await ok('INITIATE_IMAGE_UPLOAD')).image_url, /^data:image\/png;base64,/);
    assert.deepEqual(await ok('SET_CONFIG', { use_interactive_pip: true }), { use_interactive_pip: true });
    assert.equal((await ok('USER_SETTINGS_GET_LOCALE')).locale, 'en-US');
    assert.deepEqual(await ok('ENCOURAGE_HW_ACCELERATION'), { enabled: true });
    assert.deepEqual(await ok('GET_PLATFORM_BEHAVIORS'), {});
    assert.match((await ok('REQUEST_PROXY_TICKET_REFRESH')).ticket, /^[\w-]+\.[0-9a-f]{128}$/);
    for (const cmd of [
      'GET_QUEST',
      'GET_QUEST_ENROLLMENT_STATUS',
      'QUEST_START_TIMER',
      'GET_GUILDS',
      'GET_GUILD',
      'GET_CHANNELS',
      'SELECT_VOICE_CHANNEL',
      'SELECT_TEXT_CHANNEL',
      'CAPTURE_SHORTCUT',
      'SET_CERTIFIED_DEVICES',
      'GET_SKUS',
      'GET_ENTITLEMENTS',
      'SEND_ANALYTICS_EVENT',
    ]) {
      await refused(cmd, { quest_id: '1' }, 4002);
    }

    // Events: each subscribable one, then a dispatch of each.
    for (const evt of EVENTS.filter((e) => e !== 'READY' && e !== 'ENTITLEMENT_CREATE')) {
      const args =
        evt === 'VOICE_STATE_UPDATE' || evt.startsWith('SPEAKING')
          ? { channel_id: launch.channelId }
          : evt === 'CURRENT_GUILD_MEMBER_UPDATE'
            ? { guild_id: launch.guildId }
            : {};
      assert.deepEqual(await ok('SUBSCRIBE', args, evt), { evt });
    }
    await refused('SUBSCRIBE', {}, 4004, 'READY');
    await refused('SUBSCRIBE', {}, 4004, 'NOT_AN_EVENT');
    const u = me();
    parent.participantsChanged([u, { id: t.world.users[1].id, username: t.world.users[1].username, global_name: 'Bob', avatar: 'abc', public_flags: 64 }]);
    parent.voiceStateChanged(launch.channelId, { user: u, nick: null, mute: false, deaf: false, self_mute: true, self_deaf: false, suppress: false });
    parent.speaking(launch.channelId, u.id, true);
    parent.speaking(launch.channelId, u.id, false);
    parent.relationshipChanged({ type: 1, user: u });
    parent.currentUserChanged(u);
    parent.memberChanged({ user_id: u.id, guild_id: launch.guildId!, nick: 'Al' });
    parent.layoutChanged();
    parent.orientationChanged();
    const dispatched = new Set(sent.filter((m) => (m[1] as any).cmd === 'DISPATCH').map((m) => (m[1] as any).evt));
    for (const evt of [
      'READY',
      'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
      'VOICE_STATE_UPDATE',
      'SPEAKING_START',
      'SPEAKING_STOP',
      'RELATIONSHIP_UPDATE',
      'CURRENT_USER_UPDATE',
      'CURRENT_GUILD_MEMBER_UPDATE',
      'ACTIVITY_LAYOUT_MODE_UPDATE',
      'ORIENTATION_UPDATE',
      'ENTITLEMENT_CREATE',
    ]) {
      assert.ok(dispatched.has(evt), `${evt} dispatched`);
    }
    assert.deepEqual(await ok('UNSUBSCRIBE', {}, 'ORIENTATION_UPDATE'), { evt: 'ORIENTATION_UPDATE' });

    // Malformed frames still get the error shape.
    await refused('NOT_A_COMMAND', {}, 4002);
    const missing = COMMANDS.filter((c) => !replied.has(c));
    assert.deepEqual(missing, [], 'every command of the SDK was answered');
  });

  test("each message sent parses with the SDK's schemas (2.5.0 and 2.1.0)", async () => {
    const v25 = await loadSdkSchemas('@discord/embedded-app-sdk');
    const v21 = await loadSdkSchemas('eas21');
    assert.equal(v25.version, '2.5.0');
    assert.match(v21.version, /^2\.1\./);
    const known21 = new Set(Object.values((await import('eas21')).Commands as Record<string, string>));
    assert.ok(sent.length > 80, `${sent.length} messages`);
    const failures: string[] = [];
    for (const m of sent) {
      const f = m[1] as any;
      // The NOT_A_COMMAND refusal names a command no SDK has; the SDK could not have sent it.
      if (f?.cmd === 'NOT_A_COMMAND') continue;
      try {
        checkMessage(v25, m);
      } catch (e) {
        failures.push(`2.5.0 ${JSON.stringify(m).slice(0, 300)}: ${String(e).slice(0, 300)}`);
      }
      if (m[0] === 2 || f.cmd === 'DISPATCH' || known21.has(f.cmd)) {
        try {
          checkMessage(v21, m);
        } catch (e) {
          failures.push(`2.1.0 ${JSON.stringify(m).slice(0, 300)}: ${String(e).slice(0, 300)}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});
