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

/** Pushes a stereo sine tone into a Node call, keeping a few frames queued. */
function pushTone(call: Call, hz: number): () => void {
  let n = 0;
  const timer = setInterval(() => {
    while (call.pendingAudioFrames() < 10) {
      const pcm = new Int16Array(1920);
      for (let i = 0; i < 960; i++, n++) pcm[2 * i] = pcm[2 * i + 1] = Math.round(9000 * Math.sin((2 * Math.PI * hz * n) / 48000));
      call.pushAudio(pcm);
    }
  }, 20);
  return () => clearInterval(timer);
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
  let stopTone = () => {};
  let appId = '';
  let lobbyId = '';
  let pageId = '';
  let nodeId = '';
  /** Left-channel samples the Node player received from the page. */
  let fromPage: number[] = [];

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
    stopTone();
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
      for (let i = 0; i < data.length; i += 2) fromPage.push(data[i]);
      if (fromPage.length > 96_000) fromPage = fromPage.slice(-65_536);
    }) as Call;
    stopTone = pushTone(nodeCall, NODE_HZ);

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
    const captured = (await t.server.voice.media.takeCaptured()).filter((f) => f.userId === pageId && f.payload.length > 3);
    await t.server.voice.media.setCapture(false);
    assert.ok(captured.length > 20, `the server forwarded the page's frames (${captured.length})`);
    for (const f of captured) assert.ok(f.payload[f.payload.length - 1] === DAVE_MARKER && f.payload[f.payload.length - 2] === DAVE_MARKER, 'DAVE frame');
  });
});
