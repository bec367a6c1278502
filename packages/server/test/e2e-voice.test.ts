// engine-independent: media and DAVE between bots; voice states on each engine are covered by voice-states and voice-dm-calls
/**
 * Voice end to end: real discord.js v14 bots with the real @discordjs/voice 0.19.2 and @snazzah/davey join one voice
 * channel over the main gateway, the voice gateway (wss, its own TLS port) and UDP. Opus frames go through the SFU
 * bit-exact in each AEAD mode, DAVE-encrypted end to end; the group re-keys when a third bot joins and leaves; a cut
 * voice WebSocket resumes with replay. The bots live in a child process (test/voice/driver.ts) started with
 * NODE_EXTRA_CA_CERTS pointing at the server's generated CA.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { until } from './helpers/wait.js';
import { VoiceDriver, makeBot, opusFrames, SILENCE } from './voice/harness.js';

const AES = 'aead_aes256_gcm_rtpsize';
const XCHACHA = 'aead_xchacha20_poly1305_rtpsize';

describe('voice end to end (discord.js + @discordjs/voice + davey)', { timeout: 60_000 }, () => {
  let t: TestServer;
  let d: VoiceDriver;
  const bots: Record<string, { token: string; userId: string }> = {};
  const guild = () => t.world.guildId;
  const channel = () => t.world.voiceChannelId;

  const dave = (name: string) => d.call('dave', { name });
  async function join(name: string) {
    await d.call('join', { name, guildId: guild(), channelId: channel() });
  }
  /** Waits until every named bot is in the DAVE group at `epoch` with the same privacy code; returns it. */
  async function settled(names: string[], epoch: number): Promise<string> {
    let states: any[] = [];
    await until(
      async () => {
        states = await Promise.all(names.map(dave));
        return states.every(
          (s) => s.ready && s.epoch === String(epoch) && s.privacyCode && s.privacyCode === states[0].privacyCode && s.userIds.length === names.length,
        );
      },
      15_000,
      `DAVE epoch ${epoch} for ${names.join(', ')}`,
    ).catch((err) => {
      throw new Error(`${err.message}: ${JSON.stringify(states)}`);
    });
    return states[0].privacyCode;
  }
  /** A plays `frames`; each listener receives exactly them (Opus silence after the stream is left out). */
  async function playAndCheck(speaker: string, listeners: string[], frames: string[]) {
    for (const l of listeners) await d.call('received', { name: l, userId: bots[speaker].userId, clear: true });
    await d.call('play', { name: speaker, frames });
    for (const l of listeners) {
      let got: string[] = [];
      await until(
        async () => {
          got = (await d.call<string[]>('received', { name: l, userId: bots[speaker].userId })).filter((f) => f !== SILENCE);
          return got.length >= frames.length;
        },
        5000,
        `${l} receiving ${frames.length} frames`,
      ).catch(() => {});
      assert.equal(got.length, frames.length, `${l} received ${got.length}/${frames.length} frames`);
      assert.ok(
        got.every((f, i) => f === frames[i]),
        `${l} received the frames bit-exact and in order`,
      );
    }
  }

  before(async () => {
    t = await startTestServer({ voiceModes: AES });
    assert.ok(t.server.voice.tls?.caPath, 'a CA was generated into the data dir');
    d = new VoiceDriver(t.server.voice.tls!.caPath!);
    await d.ready;
    const api = `${t.server.url}/api`;
    for (const name of ['A', 'B', 'C']) {
      bots[name] = await makeBot(t, `voice bot ${name}`);
      await d.call('login', { name, token: bots[name].token, api });
    }
  });

  after(async () => {
    await d?.close();
    await t?.close();
  });

  test('two bots join; DAVE group created; Opus bit-exact over AES-256-GCM; the server only sees DAVE frames', async () => {
    await join('A');
    await join('B');
    const code = await settled(['A', 'B'], 1);
    assert.match(code, /^\d{30}$/);
    assert.equal((await dave('A')).mode, AES);
    await d.call('subscribe', { name: 'B', userId: bots.A.userId });
    const ssrc = t.server.voice.sessionOf(guild(), bots.A.userId)!.ssrc;
    await t.server.voice.media.setCapture(true);
    const frames = opusFrames(100);
    await playAndCheck('A', ['B'], frames);
    const seen = (await t.server.voice.media.takeCaptured()).filter((f) => f.ssrc === ssrc && f.payload.toString('base64') !== SILENCE);
    await t.server.voice.media.setCapture(false);
    assert.ok(seen.length >= 100, `captured ${seen.length} packets of A at the server`);
    const plain = frames.map((f) => Buffer.from(f, 'base64'));
    for (const f of seen) {
      assert.deepEqual([...f.payload.subarray(-2)], [0xfa, 0xfa], 'DAVE frame marker');
      assert.ok(!plain.some((p) => p.equals(f.payload) || f.payload.includes(p.subarray(0, 16))), 'the server never sees plaintext Opus');
    }
  });

  test('a third bot joins and leaves: the group re-keys each time and audio continues', async () => {
    const before = await settled(['A', 'B'], 1);
    await join('C');
    const withC = await settled(['A', 'B', 'C'], 2);
    assert.notEqual(withC, before, 'new epoch, new privacy code');
    await d.call('subscribe', { name: 'C', userId: bots.A.userId });
    await playAndCheck('A', ['B', 'C'], opusFrames(40, 1));
    await d.call('leave', { name: 'C' });
    const after = await settled(['A', 'B'], 3);
    assert.notEqual(after, withC);
    await playAndCheck('A', ['B'], opusFrames(40, 2));
  });

  test('a voice WebSocket cut by the server resumes with replay and no lost message', async () => {
    const bSession = t.server.voice.sessionOf(guild(), bots.B.userId)!;
    const seqBefore = bSession.seq;
    assert.ok(t.server.voice.dropSocket(bots.B.userId));
    // While B is away, C joins: op 11, op 5 and DAVE proposals/commit for B are buffered, then replayed on resume.
    await join('C');
    await settled(['A', 'B', 'C'], 4);
    const log = await d.call('log', { name: 'B' });
    assert.ok(log.closeCodes.includes(1006), `B saw the cut (close codes ${log.closeCodes})`);
    const resumed = log.ops.findIndex((o: any) => o.op === 9);
    assert.ok(resumed > 0, 'B got op 9 Resumed');
    assert.ok(
      log.ops.slice(resumed + 1).some((o: any) => o.seq && o.seq > seqBefore),
      'messages after the cut were replayed after op 9',
    );
    // Every numbered message reached B exactly once, in order: the sequence has no gap and no repeat.
    const seqs: number[] = log.seqs;
    for (let i = 1; i < seqs.length; i++) assert.equal(seqs[i], (seqs[i - 1] % 0xffff) + 1, `seq ${seqs[i - 1]} then ${seqs[i]}`);
    assert.equal(seqs[seqs.length - 1], bSession.seq, 'B holds the last message the server sent');
    assert.ok(!seqs.includes(0), 'seq is never 0');
    assert.equal(t.server.voice.sessionOf(guild(), bots.B.userId), bSession, 'same voice session (same SSRC, key and DAVE membership)');
    await playAndCheck('A', ['B'], opusFrames(40, 3));
    await d.call('leave', { name: 'C' });
    await settled(['A', 'B'], 5);
  });

  test('a client without DAVE (policy optional): downgrade to transport-only, then upgrade when it leaves', async () => {
    t.server.ctx.config.voiceDave = 'optional';
    const ssrc = t.server.voice.sessionOf(guild(), bots.A.userId)!.ssrc;
    await d.call('join', { name: 'C', guildId: guild(), channelId: channel(), dave: false });
    await d.call('subscribe', { name: 'C', userId: bots.A.userId });
    await until(async () => (await dave('A')).protocolVersion === 0 && (await dave('B')).protocolVersion === 0, 10_000, 'A and B downgraded');
    await t.server.voice.media.setCapture(true);
    const frames = opusFrames(30, 5);
    await playAndCheck('A', ['B', 'C'], frames);
    const seen = (await t.server.voice.media.takeCaptured()).filter((f) => f.ssrc === ssrc && f.payload.toString('base64') !== SILENCE);
    assert.ok(seen.length >= 30 && seen.every((f) => frames.includes(f.payload.toString('base64'))), 'transport encryption only: the server sees Opus');
    await d.call('leave', { name: 'C' });
    await settled(['A', 'B'], 1);
    assert.equal((await dave('A')).protocolVersion, 1, 'upgraded');
    await playAndCheck('A', ['B'], opusFrames(30, 6));
    const after = (await t.server.voice.media.takeCaptured()).filter((f) => f.ssrc === ssrc && f.payload.toString('base64') !== SILENCE);
    await t.server.voice.media.setCapture(false);
    assert.ok(after.length >= 30 && after.every((f) => f.payload.at(-1) === 0xfa), 'end-to-end encrypted again');
    t.server.ctx.config.voiceDave = 'auto';
  });

  test('XChaCha20-Poly1305: Opus bit-exact with DAVE', async () => {
    await d.call('leave', { name: 'A' });
    await d.call('leave', { name: 'B' });
    await until(() => !t.server.voice.rooms.size, 5000, 'the room to empty');
    t.server.voice.modes = [XCHACHA];
    await join('A');
    await join('B');
    await settled(['A', 'B'], 1);
    assert.equal((await dave('A')).mode, XCHACHA);
    assert.equal((await dave('B')).mode, XCHACHA);
    await d.call('subscribe', { name: 'B', userId: bots.A.userId });
    await playAndCheck('A', ['B'], opusFrames(100, 4));
  });

  test('no bot process crashed and no voice library error surfaced', async () => {
    assert.deepEqual(d.crashes, []);
    for (const name of ['A', 'B', 'C']) assert.deepEqual((await d.call('log', { name })).errors, [], `${name} errors`);
  });
});
