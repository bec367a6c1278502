/**
 * Calls in the browser build (issue 23): a page on the game's own origin uses the SDK's browser bundle, joins a lobby
 * call over WebRTC with DAVE in the page, and a Node player on the SDK's Node build (UDP) joins the same call. Chromium's
 * fake microphone plays a 660 Hz tone made here, the Node player pushes 440 Hz; each side's received-audio callback
 * gets the other's tone (found by FFT), and the server sees only DAVE frames from the page. Then the audio-device
 * calls: enumeration and selection (the constraints getUserMedia got), input volume 0 sending silence, the no-audio
 * callback, mute and deafen as the other player sees them.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { AuthorizationTokenType, CallStatus, Client, ExternalAuthType, type Call } from '../src/index.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { startOidcProvider, type OidcProvider } from '../../server/test/helpers/oidc-provider.js';
import { until } from '../../server/test/helpers/wait.js';
import { launchWithTone } from '../../web/test/helpers/voice.ts';
import { makeBrowserGameApp, peakHz, rms, startGameSite } from './helpers/game-site.js';

const DAVE_MARKER = 0xfa;
const PAGE_HZ = 660;
const NODE_HZ = 440;
/** RMS of heard sound (Chromium's voice processing brings the fake microphone to about -30 dBFS, RMS 900). */
const LOUD = 300;

/** Pushes a stereo sine tone into a Node call, keeping a few frames queued; `sent()` counts the frames sent. */
function pushTone(call: Call, hz: number): { stop: () => void; sent: () => number } {
  let n = 0;
  const timer = setInterval(() => {
    while (call.pendingAudioFrames() < 10) {
      const pcm = new Int16Array(1920);
      for (let i = 0; i < 960; i++, n++) pcm[2 * i] = pcm[2 * i + 1] = Math.round(9000 * Math.sin((2 * Math.PI * hz * n) / 48000));
      call.pushAudio(pcm);
    }
  }, 20);
  return { stop: () => clearInterval(timer), sent: () => n / 960 - call.pendingAudioFrames() };
}

// Page scripts are strings: tsx would wrap named functions in a helper the page does not have.
const SIGN_IN = `async ({ api, appId, idToken }) => {
  const sdk = window.__sdk;
  const c = new sdk.Client(api + '/api', api);
  c.setApplicationId(appId);
  const tok = await c.getProvisionalToken(appId, sdk.ExternalAuthType.OIDC, idToken);
  await c.updateToken(sdk.AuthorizationTokenType.Bearer, tok.accessToken);
  await c.connect();
  window.__c = c;
  window.__heard = {};
  window.__events = [];
  window.__gum = window.__gum || [];
  return c.getCurrentUserV2().id();
}`;

/** Joins the call, keeping the last 64k left-channel samples each participant's received callback got. */
const START_CALL = `(lobbyId) => {
  const heard = window.__heard;
  const call = window.__c.startCallWithAudioCallbacks(lobbyId, (userId, data, n) => {
    const h = heard[userId] || (heard[userId] = { left: [], blocks: 0 });
    h.blocks++;
    for (let i = 0; i < n; i++) h.left.push(data[i * 2]);
    if (h.left.length > 65536) h.left.splice(0, h.left.length - 65536);
  });
  call.setSpeakingStatusChangedCallback((userId, on) => window.__events.push({ kind: 'speaking', userId, on }));
  window.__call = call;
}`;

describe('calls in the browser build (WebRTC + DAVE) with a Node player', { timeout: 240_000 }, () => {
  let t: TestServer;
  let idp: OidcProvider;
  let site: Awaited<ReturnType<typeof startGameSite>>;
  let browser: Browser;
  let page: Page;
  let node: Client;
  let nodeCall: Call;
  let tone = { stop: () => {}, sent: () => 0 };
  let appId = '';
  let lobbyId = '';
  let pageId = '';
  let nodeId = '';
  /** Left-channel samples the Node player received from the page, and the frames (20 ms) they came in. */
  let fromPage: number[] = [];
  let framesFromPage = 0;
  const nodeSpeaking: { userId: string; on: boolean }[] = [];

  const pageHeard = async (userId: string) =>
    page.evaluate(
      `(() => { const h = window.__heard[${JSON.stringify(userId)}]; return h ? { left: h.left.slice(), blocks: h.blocks } : { left: [], blocks: 0 }; })()`,
    ) as Promise<{
      left: number[];
      blocks: number;
    }>;

  before(async () => {
    t = await startTestServer({ voiceDave: 'required', overrides: { dev: true } });
    idp = await startOidcProvider('browser-calls');
    appId = await makeBrowserGameApp(t, idp);
    site = await startGameSite();
    browser = await launchWithTone(PAGE_HZ);
    const ctx = await browser.newContext();
    // getUserMedia's constraints, recorded as the page makes the calls (the browser's own function does the work).
    await ctx.addInitScript(`(() => {
      window.__gum = [];
      const md = navigator.mediaDevices;
      const real = md.getUserMedia.bind(md);
      md.getUserMedia = (c) => { window.__gum.push(JSON.parse(JSON.stringify(c))); return real(c); };
    })()`);
    page = await ctx.newPage();
    page.on('pageerror', (e) => assert.fail(`page error: ${e.stack ?? e}`));
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => (window as any).__sdk);
  });

  after(async () => {
    tone.stop();
    await node?.disconnect().catch(() => {});
    await browser?.close();
    await site?.close();
    await idp?.close();
    await t?.close();
  });

  test('a page and a Node player hear each other in a lobby call, end-to-end encrypted', async () => {
    const now = { now: t.server.ctx.clock.now() };
    pageId = (await page.evaluate(
      `(${SIGN_IN})(${JSON.stringify({ api: t.server.url, appId, idToken: await idp.idToken('page-player', { name: 'Page' }, now) })})`,
    )) as string;

    node = new Client({ apiBase: t.server.url, webBase: t.server.url, voiceCa: fs.readFileSync(t.server.voice.tls!.caPath!, 'utf8') });
    node.setApplicationId(appId);
    const tok = await node.getProvisionalToken(appId, ExternalAuthType.OIDC, await idp.idToken('node-player', { name: 'Node' }, now));
    await node.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
    await node.connect();
    nodeId = node.getCurrentUserV2()!.id();

    lobbyId = await node.createOrJoinLobby('browser-call-secret');
    assert.equal(await page.evaluate(`window.__c.createOrJoinLobby('browser-call-secret')`), lobbyId);

    await page.evaluate(`(${START_CALL})(${JSON.stringify(lobbyId)})`);
    nodeCall = node.startCallWithAudioCallbacks(lobbyId, (userId, data) => {
      if (userId !== pageId) return;
      framesFromPage++;
      for (let i = 0; i < data.length; i += 2) fromPage.push(data[i]);
      if (fromPage.length > 96_000) fromPage = fromPage.slice(-65_536);
    }) as Call;
    tone = pushTone(nodeCall, NODE_HZ);
    nodeCall.setSpeakingStatusChangedCallback((userId, on) => nodeSpeaking.push({ userId, on }));

    await until(
      async () => nodeCall.getStatus() === CallStatus.Connected && (await page.evaluate('window.__call.getStatus()')) === CallStatus.Connected,
      30_000,
      'both calls connected',
    );
    // DAVE keyed in both: the same group, so the same privacy code.
    let pageE2ee: any = null;
    await until(
      async () => {
        pageE2ee = await page.evaluate('window.__call.getEncryptionState()');
        const n = nodeCall.getEncryptionState();
        return pageE2ee.protocolVersion === 1 && pageE2ee.privacyCode !== '' && pageE2ee.privacyCode === n.privacyCode;
      },
      30_000,
      'the page and the Node player in one DAVE group',
    );
    assert.deepEqual(await page.evaluate('window.__call.getParticipants()'), [nodeId]);
    assert.deepEqual(nodeCall.getParticipants(), [pageId]);

    await t.server.voice.media.setCapture(true);
    // The page hears the Node player's 440 Hz through its received callback.
    let last: number[] = [];
    await until(
      async () => {
        last = (await pageHeard(nodeId)).left.slice(-16_384);
        return last.length === 16_384 && rms(last) > LOUD;
      },
      30_000,
      'the page hearing the Node player (a third of a second of sound)',
    );
    const atPage = peakHz(last);
    assert.ok(Math.abs(atPage.hz - NODE_HZ) <= 2 * atPage.binHz, `the page heard ${atPage.hz.toFixed(1)} Hz, not ${NODE_HZ} Hz`);
    await page.waitForFunction(`window.__events.some((e) => e.kind === 'speaking' && e.userId === ${JSON.stringify(nodeId)} && e.on)`);

    // The Node player hears the page's microphone at 660 Hz.
    await until(() => rms(fromPage.slice(-16_384)) > LOUD, 30_000, 'the Node player hearing the page');
    const atNode = peakHz(fromPage.slice(-16_384));
    assert.ok(Math.abs(atNode.hz - PAGE_HZ) <= 2 * atNode.binHz, `the Node player heard ${atNode.hz.toFixed(1)} Hz, not ${PAGE_HZ} Hz`);

    // The server forwarded only DAVE frames from the page (FA FA closes each), bar Opus silence.
    const captured: { payload: Uint8Array }[] = [];
    await until(
      async () => {
        captured.push(...(await t.server.voice.media.takeCaptured()).filter((f) => f.userId === pageId && f.payload.length > 3));
        return captured.length > 50;
      },
      15_000,
      "the server forwarding a second of the page's frames",
    );
    await t.server.voice.media.setCapture(false);
    for (const f of captured) assert.ok(f.payload[f.payload.length - 1] === DAVE_MARKER && f.payload[f.payload.length - 2] === DAVE_MARKER, 'DAVE frame');
  });

  test('audio devices and processing: enumeration and selection, input volume 0 sends silence, no-audio input, mute and deafen', async () => {
    const call = (expr: string) => page.evaluate(expr);
    // Chromium's fake devices, named once the page may use the microphone (the call opened it).
    const dev: any = await call(`(async () => { const c = window.__c; return {
      inputs: await c.getInputDevices(), outputs: await c.getOutputDevices(),
      input: await c.getCurrentInputDevice(), output: await c.getCurrentOutputDevice() }; })()`);
    assert.ok(dev.inputs.length >= 1 && dev.outputs.length >= 1, JSON.stringify(dev));
    assert.ok(
      dev.inputs.every((d: any) => d.id && d.name && d.id !== 'default'),
      JSON.stringify(dev.inputs),
    );
    assert.equal(dev.inputs.filter((d: any) => d.isDefault).length, 1);
    assert.equal(dev.input.isDefault, true);
    assert.match(dev.input.name, /fake/i);

    // Another microphone, without echo cancellation: the call reopens it with those constraints.
    const other = dev.inputs[dev.inputs.length - 1].id;
    await call(`window.__c.setInputDevice(${JSON.stringify(other)})`);
    await call('window.__c.setEchoCancellation(false)');
    await page.waitForFunction(`(() => { const g = window.__gum[window.__gum.length - 1].audio;
      return g.deviceId && g.deviceId.exact === ${JSON.stringify(other)} && g.echoCancellation === false && g.noiseSuppression === true; })()`);
    assert.equal(((await call('window.__c.getCurrentInputDevice()')) as any).id, other);
    assert.equal(await call(`window.__c.setInputDevice('no-such-device').then(() => 'set', (e) => e.type)`), 6, 'ValidationError');
    const speaker = dev.outputs[dev.outputs.length - 1].id;
    await call(`window.__c.setOutputDevice(${JSON.stringify(speaker)})`);
    assert.equal(((await call('window.__c.getCurrentOutputDevice()')) as any).id, speaker);
    await call('window.__c.setOutputDevice("default")');

    // Push to talk held: the gate stays open whatever the level, so input volume 0 sends frames of silence.
    await call('window.__call.setAudioMode(2); window.__call.setPTTActive(true); window.__c.setInputVolume(0)');
    let from = framesFromPage;
    await until(() => framesFromPage - from >= 100 && rms(fromPage.slice(-9600)) < 30, 30_000, 'the Node player receiving silence from the page');
    await call('window.__c.setInputVolume(100)');
    // Until a window holds the tone alone: on a loaded machine a window can still hold a gap, whose step peaks low.
    const isTone = (samples: ArrayLike<number>, hz: number) => {
      const p = peakHz(samples);
      return rms(samples) > LOUD && Math.abs(p.hz - hz) <= 2 * p.binHz;
    };
    await until(() => isTone(fromPage.slice(-16_384), PAGE_HZ), 30_000, `the Node player hearing the page's ${PAGE_HZ} Hz again`);
    await call('window.__call.setPTTActive(false); window.__call.setAudioMode(1)');

    // No audio input: under a threshold of 0 dBFS the tone counts as silence; back at -100 dBFS it is heard.
    await call('window.__noInput = []; window.__c.setNoAudioInputCallback((d) => window.__noInput.push(d)); window.__c.setNoAudioInputThreshold(0)');
    await page.waitForFunction('window.__noInput.includes(false)');
    await call('window.__c.setNoAudioInputThreshold(-100)');
    await page.waitForFunction('window.__noInput[window.__noInput.length - 1] === true');

    // Mute all: the Node player sees the page muted in its voice state and stop speaking.
    nodeSpeaking.length = 0;
    await call('window.__c.setSelfMuteAll(true)');
    assert.equal(await call('window.__call.getSelfMute()'), true);
    await until(() => nodeCall.getVoiceStateHandle(pageId)?.selfMute === true, 15_000, 'the page muted in its voice state');
    await until(() => nodeSpeaking.some((e) => e.userId === pageId && !e.on), 15_000, 'the page no longer speaking');
    await call('window.__c.setSelfMuteAll(false)');
    await until(() => nodeCall.getVoiceStateHandle(pageId)?.selfMute === false, 15_000, 'the page unmuted');

    // Deafen all: the page's received callback gets nothing while the Node player keeps sending a second of tone.
    await call('window.__c.setSelfDeafAll(true)');
    await until(() => nodeCall.getVoiceStateHandle(pageId)?.selfDeaf === true, 15_000, 'the page deafened in its voice state');
    const blocks = (await pageHeard(nodeId)).blocks;
    from = tone.sent();
    await until(() => tone.sent() - from >= 50, 15_000, 'the Node player sending a second of tone');
    assert.equal((await pageHeard(nodeId)).blocks, blocks, 'nothing heard while deafened');
    await call('window.__c.setSelfDeafAll(false)');
    // Undeafening restarts the received stream, whose first blocks can hold gaps: read short windows (4,096 samples,
    // 11.7 Hz bins, enough to tell 440 from 660 and 880 Hz) until one holds the Node player's tone.
    await until(async () => (await pageHeard(nodeId)).blocks > blocks, 15_000, 'the page hearing again');
    await until(async () => isTone((await pageHeard(nodeId)).left.slice(-4096), NODE_HZ), 15_000, `the page hearing the Node player's ${NODE_HZ} Hz again`);
  });
});
