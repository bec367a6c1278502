// engine-independent: voice faults act on UDP forwarding in the media plane; storage only seeds the world
/**
 * Dev faults on one application's voice: packets forwarded to or from its bot are lost (`loss`) or held back
 * (`jitter_ms`). Real discord.js bots with @discordjs/voice (test/voice/driver.ts): with loss 1 the faulty bot hears
 * nothing while a third bot hears every frame; once the rule is deleted the stream comes back. Each fault then breaks a
 * naive receiving bot and not a robust one: under loss, a bot waiting for every frame spoken never gets them while one
 * whose stream ends after silence keeps (and decodes) what came; under jitter, a short silence timeout cuts the
 * utterance while one well above the jitter gets every frame in one stream.
 */
import { describe, test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import OpusScript from 'opusscript';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';
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
  const names = ['A', 'B', 'C', 'naive', 'robust'];

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
    for (const name of names) {
      bots[name] = await makeBot(t, `voice bot ${name}`);
      await d.call('login', { name, token: bots[name].token, api: `${t.server.url}/api` });
    }
    for (const name of names) await d.call('join', { name, guildId: t.world.guildId, channelId: t.world.voiceChannelId });
    await until(
      async () => {
        const states = await Promise.all(names.map((name) => d.call('dave', { name })));
        return states.every((s) => s.ready && s.userIds.length === names.length && s.privacyCode === states[0].privacyCode);
      },
      20_000,
      'the bots in one DAVE group',
    );
    await d.call('subscribe', { name: 'B', userId: bots.A.userId });
    await d.call('subscribe', { name: 'C', userId: bots.A.userId });
  });
  afterEach(() => clearFaults(t));
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

  /** The streams `name` opened on A since its `listen` (test/voice/driver.ts), silence left out. */
  async function utterances(name: string): Promise<{ frames: string[]; ended: boolean }[]> {
    const all = await d.call<{ frames: string[]; ended: boolean }[]>('utterances', { name, userId: bots.A.userId });
    return all.map((u) => ({ ...u, frames: u.frames.filter((f) => f !== SILENCE) }));
  }

  /** Waits (3 s at most) for the first stream of `name` to end and returns its streams. */
  async function ended(name: string): Promise<{ frames: string[]; ended: boolean }[]> {
    let u: { frames: string[]; ended: boolean }[] = [];
    await until(async () => (u = await utterances(name))[0]?.ended, 3000, `${name}'s stream ends`);
    return u;
  }

  const N = 40;
  /**
   * Puts the voice fault on the naive and the robust bot's apps, opens each one's stream on A (ending after that much
   * silence; undefined: never), has A speak N frames and waits for the robust bot's first stream to end.
   */
  async function speakUnder(fault: { loss?: number; jitter_ms?: number }, silenceMs: { naive?: number; robust: number }, seed: number) {
    for (const name of ['naive', 'robust']) await addFault(t, { application_id: bots[name].appId, kind: 'voice', ...fault });
    await d.call('listen', { name: 'naive', userId: bots.A.userId, afterSilenceMs: silenceMs.naive });
    await d.call('listen', { name: 'robust', userId: bots.A.userId, afterSilenceMs: silenceMs.robust });
    const frames = opusFrames(N, seed);
    await d.call('play', { name: 'A', frames });
    return { frames, robust: await ended('robust') };
  }

  test('loss 0.25: a bot waiting for all N frames never has them; one whose stream ends after silence keeps what came', async () => {
    // naive: an open-ended stream, the utterance processed once it holds the N frames spoken; robust: the stream ends
    // after 1 s of silence (50 frames lost in a row, or a loaded machine's stall, cannot split it) and the bot takes
    // what it holds
    const { frames, robust } = await speakUnder({ loss: 0.25 }, { robust: 1000 }, 10);
    assert.equal(robust.length, 1, 'one utterance');
    const got = robust[0].frames;
    assert.ok(got.length > N / 4 && got.length < N, `a share of the frames (${got.length} of ${N})`);
    assert.deepEqual(
      got,
      frames.filter((f) => got.includes(f)),
      'frames that were spoken, in order',
    );
    const decoder = new OpusScript(48000, 2);
    for (const f of got) assert.equal(decoder.decode(Buffer.from(f, 'base64')).length, 960 * 2 * 2, 'each decodes to 20 ms of stereo');
    decoder.delete();

    let naive = 0;
    await until(async () => (naive = (await utterances('naive'))[0]?.frames.length ?? 0) >= N, 1000).catch(() => {});
    assert.ok(naive > 0 && naive < N, `the naive bot still waits, with ${naive} of ${N} frames`);
  });

  test('jitter 100 ms: a 30 ms silence timeout cuts the utterance; a 1 s one gets every frame in one stream', async () => {
    // Frames leave every 20 ms and each is held back 0-100 ms at random, so arrivals more than 30 ms apart come early on;
    // the jitter alone makes gaps of at most 20 + 100 ms, and 1 s also covers a loaded machine's stall (two CI runs side
    // by side split a 500 ms stream once). Frames may come out of order.
    const { frames, robust } = await speakUnder({ jitter_ms: 100 }, { naive: 30, robust: 1000 }, 11);
    assert.equal(robust.length, 1, 'one utterance');
    assert.deepEqual([...robust[0].frames].sort(), [...frames].sort(), 'every frame');

    const naive = await utterances('naive');
    assert.ok(naive[0].ended && naive[0].frames.length < N, `the first utterance ended with ${naive[0].frames.length} of ${N} frames`);
  });
});
