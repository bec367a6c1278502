/**
 * Voice in the browser (issue 24): Chromium joins a voice channel over WebRTC (protocol `webrtc` on the voice gateway)
 * with DAVE running in the page, in the same room as a real discord.js bot on @discordjs/voice (UDP, AEAD, DAVE).
 * Chromium's fake microphone plays a tone file made here; what each side hears is measured: the page's received audio
 * through an AnalyserNode, the bot's by decoding the Opus it received.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';
import { VoiceDriver, makeBot } from '../../server/test/voice/harness.ts';
import { until } from '../../server/test/helpers/wait.ts';
import { dominantFrequency } from '../../testing/src/voice/pcm.ts';
import { ensureBuilt } from './helpers/build.ts';
import { shot, watchErrors } from './helpers/browser.ts';
import { signInAs } from './helpers/session.ts';
import { decodeFrames, launchWithTone, peakHeard, toneFrames } from './helpers/voice.ts';

const DAVE_MARKER = 0xfa;

describe('voice in the browser (WebRTC + DAVE)', { timeout: 180_000 }, () => {
  let t: TestServer;
  let d: VoiceDriver;
  let browser: Browser;
  let bot: { token: string; userId: string };

  before(async () => {
    await ensureBuilt();
    t = await startTestServer({ voiceDave: 'required' });
    d = new VoiceDriver(t.server.voice.tls!.caPath!);
    await d.ready;
    bot = await makeBot(t, 'tone bot');
    await d.call('login', { name: 'bot', token: bot.token, api: `${t.server.url}/api` });
    browser = await launchWithTone(660);
  });

  after(async () => {
    await browser?.close();
    await d?.close();
    await t?.close();
  });

  const voicePath = () => `/channels/${t.world.guildId}/${t.world.voiceChannelId}`;

  async function joinInBrowser(page: Page, alone = true): Promise<void> {
    await page.getByRole('button', { name: 'Join Voice' }).click();
    await page.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });
    // Alone in the room there is no group to key yet: DAVE starts with the second member.
    if (alone) await page.locator('.vc [data-e2ee="waiting"]').waitFor();
  }

  /**
   * Alice in this suite's browser (microphone at 660 Hz) and Bob in a second one (880 Hz), signed in at the given
   * paths; the page errors of both must stay empty.
   */
  async function twoPeople(pathA: string, pathB: string, run: (pa: Page, pb: Page) => Promise<void>): Promise<void> {
    const [alice, bob] = t.world.users;
    const other = await launchWithTone(880);
    try {
      const a = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const b = await other.newContext({ viewport: { width: 1280, height: 800 } });
      const pa = await a.newPage();
      const pb = await b.newPage();
      const errors = [...watchErrors(pa), ...watchErrors(pb)];
      await signInAs(pa, t.server.url, alice.token, pathA);
      await signInAs(pb, t.server.url, bob.token, pathB);
      await run(pa, pb);
      assert.deepEqual(errors, []);
      await a.close();
      await b.close();
    } finally {
      await other.close();
    }
  }

  /** Both pages keyed (DAVE on); A's microphone plays 660 Hz and B's 880 Hz, and each hears the other's tone. */
  async function hearEachOther(pa: Page, a: string, pb: Page, b: string): Promise<void> {
    await pa.locator('.vc [data-e2ee="on"]').waitFor({ timeout: 20_000 });
    await pb.locator('.vc [data-e2ee="on"]').waitFor({ timeout: 20_000 });
    const [atA, atB] = await Promise.all([peakHeard(pa, b), peakHeard(pb, a)]);
    assert.ok(atA && atB, 'both heard the other');
    assert.ok(Math.abs(atA.hz - 880) <= 2 * atA.binHz, `A heard ${atA.hz.toFixed(1)} Hz, not B's 880 Hz`);
    assert.ok(Math.abs(atB.hz - 660) <= 2 * atB.binHz, `B heard ${atB.hz.toFixed(1)} Hz, not A's 660 Hz`);
  }

  test('a person in Chromium and a bot hear each other, end-to-end encrypted', async () => {
    const alice = t.world.users[0];
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = watchErrors(page);
    await signInAs(page, t.server.url, alice.token, voicePath());
    await joinInBrowser(page);

    // The bot joins the room; DAVE re-keys to a group of two, and both show the same privacy code.
    await d.call('join', { name: 'bot', guildId: t.world.guildId, channelId: t.world.voiceChannelId });
    await d.call('subscribe', { name: 'bot', userId: alice.id });
    let botDave: any = null;
    await until(
      async () => {
        botDave = await d.call('dave', { name: 'bot' });
        return botDave.ready && botDave.userIds.length === 2;
      },
      20_000,
      'the bot in a DAVE group with the page',
    );
    await page.locator('.vc [data-e2ee="on"]').waitFor({ timeout: 20_000 });
    await page.locator('.vc__e2ee-btn').click();
    await until(
      async () => (await page.locator('.vc__code-digits').getAttribute('data-code')) === (await d.call('dave', { name: 'bot' })).privacyCode,
      15_000,
      'the page showing the group code',
    );
    await shot(page, 'voice-1-connected');

    // The server sees only DAVE frames from the page (the FA FA marker closes each): it forwards what it cannot read.
    await t.server.voice.media.setCapture(true);

    // The voice socket drops (no close frame): the page resumes it (op 7) and keeps its media and DAVE group.
    assert.ok(t.server.voice.dropSocket(alice.id));
    await page.locator('.vc[data-status="connecting"]').waitFor();
    await page.locator('.vc[data-status="connected"]').waitFor();

    // The bot plays 440 Hz: the page hears 440 Hz.
    const playing = d.call('play', { name: 'bot', frames: toneFrames(440, 4000) });
    const heard = await peakHeard(page, bot.userId);
    await playing;
    assert.ok(heard, 'the page heard the bot');
    assert.ok(Math.abs(heard.hz - 440) <= 2 * heard.binHz, `the page heard ${heard.hz.toFixed(1)} Hz, not 440 Hz`);
    await page.locator(`.voicegrid__tile[data-user="${bot.userId}"]`).waitFor();
    await shot(page, 'voice-2-bot-playing');

    // The page speaks 660 Hz (its fake microphone): the bot decodes 660 Hz.
    await d.call('received', { name: 'bot', userId: alice.id, clear: true });
    let frames: string[] = [];
    await until(
      async () => {
        frames = await d.call<string[]>('received', { name: 'bot', userId: alice.id });
        return frames.length >= 100;
      },
      20_000,
      'the bot receiving two seconds from the page',
    );
    const pcm = decodeFrames(frames.slice(-100));
    assert.equal(dominantFrequency(pcm, [440, 550, 660, 770, 880]), 660, 'the bot heard the page at 660 Hz');

    const captured = (await t.server.voice.media.takeCaptured()).filter((f) => f.userId === alice.id && f.payload.length > 3);
    await t.server.voice.media.setCapture(false);
    assert.ok(captured.length > 20, `the server forwarded the page's frames (${captured.length})`);
    for (const f of captured) {
      const p = f.payload;
      assert.ok(p[p.length - 1] === DAVE_MARKER && p[p.length - 2] === DAVE_MARKER, 'every frame from the page is DAVE-encrypted');
    }

    // A moderator (Alice owns the guild) moves her to another voice channel: the page follows with a new voice session.
    const other = await t.api<{ id: string }>(`/guilds/${t.world.guildId}/channels`, { method: 'POST', token: alice.token, body: { name: 'Second', type: 2 } });
    await t.api(`/guilds/${t.world.guildId}/members/${alice.id}`, { method: 'PATCH', token: alice.token, body: { channel_id: other.body.id } });
    await page.locator('.vc__channel', { hasText: 'Second' }).waitFor();
    await page.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });

    // Mute, then leave: the panel goes away.
    await page.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('button', { name: 'Unmute' }).waitFor();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('.vc').waitFor({ state: 'detached' });
    await d.call('leave', { name: 'bot' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('two people in two browsers hear each other', async () => {
    const [alice, bob] = t.world.users;
    await twoPeople(voicePath(), voicePath(), async (pa, pb) => {
      await joinInBrowser(pa);
      await joinInBrowser(pb, false);
      // Alice's microphone plays 660 Hz and Bob's 880 Hz: each hears the other's tone.
      await hearEachOther(pa, alice.id, pb, bob.id);

      // Both show the same group code, and each other as speaking.
      await pa.locator('.vc__e2ee-btn').click();
      await pb.locator('.vc__e2ee-btn').click();
      assert.equal(await pa.locator('.vc__code-digits').getAttribute('data-code'), await pb.locator('.vc__code-digits').getAttribute('data-code'));
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"][data-speaking]`).waitFor();
      await pb.locator(`.voicegrid__tile[data-user="${alice.id}"][data-speaking]`).waitFor();
      // The pairwise verification code is the same on both sides.
      const codeAtA = await pa.locator(`.voicegrid__tile[data-user="${bob.id}"] .voicegrid__verify`).getAttribute('data-verification');
      const codeAtB = await pb.locator(`.voicegrid__tile[data-user="${alice.id}"] .voicegrid__verify`).getAttribute('data-verification');
      assert.ok(codeAtA && codeAtA === codeAtB, 'the verification codes match');
      await shot(pa, 'voice-3-two-people');

      // Push to talk: Bob's microphone goes quiet (Alice sees him stop speaking) until he holds the key.
      await pb.getByLabel(/Push to talk/).check();
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"]:not([data-speaking])`).waitFor();
      await pb.locator('.vc__status').click();
      await pb.keyboard.down('`');
      await pb.locator('.vc__talking').waitFor();
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"][data-speaking]`).waitFor();
      await shot(pb, 'voice-4-push-to-talk');
      await pb.keyboard.up('`');
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"]:not([data-speaking])`).waitFor();
      await pb.getByLabel(/Push to talk/).uncheck();

      // Bob deafens: his voice state shows it to Alice, and his mic is off too.
      await pb.getByRole('button', { name: 'Deafen' }).click();
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"] [aria-label="Deafened"]`).waitFor();
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"] [aria-label="Muted"]`).waitFor();
      await pb.getByRole('button', { name: 'Disconnect' }).click();
      await pa.getByRole('button', { name: 'Disconnect' }).click();
      await pa.locator(`.voicegrid__tile[data-user="${bob.id}"]`).waitFor({ state: 'detached' });
    });
  });

  test('a refused microphone: the person still joins and hears, muted, and sees why', async () => {
    const bob = t.world.users[1];
    // No fake UI: the permission prompt is dismissed, as when a person refuses it.
    const denied = await launchWithTone(660, { prompt: true });
    try {
      const context = await denied.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await signInAs(page, t.server.url, bob.token, voicePath());
      await page.getByRole('button', { name: 'Join Voice' }).click();
      await page.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });
      await page.locator('.vc [data-kind="microphone"]', { hasText: 'Microphone access was refused' }).waitFor();
      await page.locator(`.voicegrid__tile[data-user="${bob.id}"] [aria-label="Muted"]`).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Unmute' }).isDisabled(), true);
      await shot(page, 'voice-5-microphone-refused');
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await context.close();
    } finally {
      await denied.close();
    }
  });

  test('a DM call: rung and declined, then rung, accepted and heard', async () => {
    const [alice, bob] = t.world.users;
    const dm = await t.api<{ id: string }>('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } });
    await twoPeople(`/channels/@me/${dm.body.id}`, '/channels/@me', async (pa, pb) => {
      // Alice calls; Bob opens the app while she rings (the ring comes with his session's start), and he
      // declines: the ring goes away, Alice stays in the call alone.
      await pa.getByRole('button', { name: 'Start Voice Call' }).click();
      await pa.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });
      await pb.reload();
      const ring = pb.getByRole('alertdialog', { name: 'Incoming call' });
      await ring.getByText('Alice').waitFor();
      await shot(pb, 'voice-6-ringing');
      await ring.getByRole('button', { name: 'Decline' }).click();
      await ring.waitFor({ state: 'detached' });
      await pa.getByRole('button', { name: 'Disconnect' }).click();
      await pa.locator('.vc').waitFor({ state: 'detached' });

      // She calls again; he accepts from the ring and they hear each other.
      await pa.getByRole('button', { name: 'Start Voice Call' }).click();
      await pa.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });
      await ring.getByRole('button', { name: 'Accept' }).click();
      await ring.waitFor({ state: 'detached' });
      await pb.locator('.vc[data-status="connected"]').waitFor({ timeout: 20_000 });
      await hearEachOther(pa, alice.id, pb, bob.id);
      await shot(pb, 'voice-7-dm-call');
      await pb.getByRole('button', { name: 'Disconnect' }).click();
      await pa.getByRole('button', { name: 'Disconnect' }).click();
    });
  });
});
