// engine-independent: voice faults act on UDP forwarding in the media plane; storage only seeds the world
/**
 * Dev faults on one application's voice: packets forwarded to or from its bot are lost (`loss`) or held back
 * (`jitter_ms`). Real discord.js bots with @discordjs/voice (test/voice/driver.ts): with loss 1 the faulty bot hears
 * nothing while a third bot hears every frame; once the rule is deleted the stream comes back.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { addFault, faultsApi } from './helpers/faults.js';
import { VoiceDriver, makeBot, opusFrames, SILENCE } from './voice/harness.js';
import { packetFate } from '../src/dev/faults/voice.js';

test("packet fate: the sender's and the receiver's faults both apply; users without one pass untouched", () => {
  const table = { lossy: { loss: 0.5, jitterMs: 0 }, slow: { loss: 0, jitterMs: 100 } };
  const seq =
    (...values: number[]) =>
    () =>
      values.shift()!;
  assert.equal(packetFate(table, 'a', 'b'), 0);
  assert.equal(packetFate(table, 'lossy', 'b', seq(0.4)), -1);
  assert.equal(packetFate(table, 'a', 'lossy', seq(0.6)), 0);
  assert.equal(packetFate(table, 'slow', 'lossy', seq(0.25, 0.9)), 25);
  assert.equal(packetFate(table, 'slow', 'lossy', seq(0.25, 0.1)), -1);
});

describe('voice faults with @discordjs/voice', { timeout: 90_000 }, () => {
  let t: TestServer;
  let d: VoiceDriver;
  const bots: Record<string, { token: string; userId: string; appId: string }> = {};

  /** What `listener` hears of `speaker` playing `frames` (silence left out): waits for as many frames, or 3 s. */
  async function hear(listener: string, speaker: string, frames: string[]): Promise<string[]> {
    await d.call('received', { name: listener, userId: bots[speaker].userId, clear: true });
    await d.call('play', { name: speaker, frames });
    let got: string[] = [];
    await until(
      async () => {
        got = (await d.call<string[]>('received', { name: listener, userId: bots[speaker].userId })).filter((f) => f !== SILENCE);
        return got.length >= frames.length;
      },
      3000,
      'frames',
    ).catch(() => {});
    return got;
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true, voiceModes: 'aead_aes256_gcm_rtpsize' } });
    d = new VoiceDriver(t.server.voice.tls!.caPath!);
    await d.ready;
    for (const name of ['A', 'B', 'C']) {
      bots[name] = await makeBot(t, `voice bot ${name}`);
      await d.call('login', { name, token: bots[name].token, api: `${t.server.url}/api` });
    }
    for (const name of ['A', 'B', 'C']) await d.call('join', { name, guildId: t.world.guildId, channelId: t.world.voiceChannelId });
    await until(
      async () => {
        const states = await Promise.all(['A', 'B', 'C'].map((name) => d.call('dave', { name })));
        return states.every((s) => s.ready && s.userIds.length === 3 && s.privacyCode === states[0].privacyCode);
      },
      20_000,
      'the three bots in one DAVE group',
    );
    await d.call('subscribe', { name: 'B', userId: bots.A.userId });
    await d.call('subscribe', { name: 'C', userId: bots.A.userId });
  });
  after(async () => {
    await d?.close();
    await t?.close();
  });

  test("loss 1 on B's app: B hears nothing, C hears every frame; deleting the rule brings B's audio back", async () => {
    const rule = await addFault(t, { application_id: bots.B.appId, kind: 'voice', loss: 1 });
    assert.deepEqual([rule.loss, rule.remaining], [1, null]);
    const frames = opusFrames(40, 7);
    assert.deepEqual(await hear('C', 'A', frames), frames, 'C (another app) hears every frame, in order');
    const heardByB = (await d.call<string[]>('received', { name: 'B', userId: bots.A.userId })).filter((f) => f !== SILENCE);
    assert.deepEqual(heardByB, [], 'B heard nothing');

    assert.equal((await faultsApi(t, 'DELETE', `/${rule.id}`)).status, 204);
    const again = opusFrames(40, 8);
    assert.deepEqual(await hear('B', 'A', again), again, 'B hears again once the fault is gone');
  });

  test("jitter on B's app: packets come late and maybe out of order, and none is lost", async () => {
    const rule = await addFault(t, { application_id: bots.B.appId, kind: 'voice', jitter_ms: 30 });
    const frames = opusFrames(40, 9);
    const got = await hear('B', 'A', frames);
    assert.deepEqual([...got].sort(), [...frames].sort(), 'every frame arrived');
    await faultsApi(t, 'DELETE', `/${rule.id}`);
  });
});
