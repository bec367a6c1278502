import fs from 'node:fs';
import path from 'node:path';
import OpusScript from 'opusscript';
import { chromium, type Browser, type Page } from 'playwright-core';
import { toneWav, pcmFromWav, FRAME_BYTES, FRAME_SAMPLES, RATE } from '../../../testing/src/voice/pcm.ts';
import { CHROMIUM_ARGS, SHOTS } from './browser.ts';

/**
 * Chromium with fake media devices: its microphone plays a tone file made here (permission granted without a prompt,
 * unless `prompt`: headless Chromium then refuses it), and it trusts the voice gateway's
 * locally generated certificate (the browser has no NODE_EXTRA_CA_CERTS). Loopback ICE candidates are allowed, as
 * the voice server listens on 127.0.0.1.
 */
export async function launchWithTone(hz: number, opts: { prompt?: boolean } = {}): Promise<Browser> {
  const dir = path.join(SHOTS, '..', '..', 'voice');
  fs.mkdirSync(dir, { recursive: true });
  const wav = path.join(dir, `tone-${hz}.wav`);
  fs.writeFileSync(wav, toneWav(hz, 10_000, 12_000));
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      ...(opts.prompt ? [] : ['--use-fake-ui-for-media-stream']),
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--allow-loopback-in-peer-connection',
      '--ignore-certificate-errors',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** Opus frames (base64) of a stereo sine tone, as a bot plays them. */
export function toneFrames(hz: number, ms: number): string[] {
  const pcm = pcmFromWav(toneWav(hz, ms, 12_000));
  const enc = new OpusScript(RATE, 2, OpusScript.Application.AUDIO);
  const frames: string[] = [];
  for (let at = 0; at + FRAME_BYTES <= pcm.length; at += FRAME_BYTES)
    frames.push(Buffer.from(enc.encode(pcm.subarray(at, at + FRAME_BYTES), FRAME_SAMPLES)).toString('base64'));
  enc.delete();
  return frames;
}

/** Decodes Opus frames (base64) to 48 kHz stereo PCM. */
export function decodeFrames(frames: string[]): Buffer {
  const dec = new OpusScript(RATE, 2, OpusScript.Application.AUDIO);
  try {
    return Buffer.concat(frames.map((f) => Buffer.from(dec.decode(Buffer.from(f, 'base64')))));
  } finally {
    dec.delete();
  }
}

/**
 * The strongest frequency the page hears from one person: their <audio> element's stream through an AnalyserNode,
 * FFT frames averaged over about a second once sound arrives. Resolves null when nothing is heard in time.
 */
export async function peakHeard(page: Page, userId: string, timeoutMs = 20_000): Promise<{ hz: number; binHz: number } | null> {
  return peakOf(page, `document.querySelector('[data-voice-audio] audio[data-user="${userId}"]')?.srcObject`, timeoutMs);
}

/** The strongest frequency of the MediaStream `streamExpr` evaluates to in the page (awaited until it exists). */
export async function peakOf(page: Page, streamExpr: string, timeoutMs = 20_000): Promise<{ hz: number; binHz: number } | null> {
  // A script string: tsx would wrap named functions in a helper the page does not have.
  return page.evaluate(`(${PEAK})(() => ${streamExpr}, ${timeoutMs})`);
}

const PEAK = `async (streamOf, timeoutMs) => {
  const deadline = performance.now() + timeoutMs;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let stream = null;
  while (!stream && performance.now() < deadline) {
    stream = streamOf();
    if (!stream) await sleep(100);
  }
  if (!stream) return null;
  const ctx = new AudioContext({ sampleRate: 48000 });
  await ctx.resume();
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 8192;
  analyser.smoothingTimeConstant = 0;
  ctx.createMediaStreamSource(stream).connect(analyser);
  const bins = new Float32Array(analyser.frequencyBinCount);
  const sum = new Float64Array(bins.length);
  let loud = 0;
  while (loud < 20 && performance.now() < deadline) {
    await sleep(60);
    analyser.getFloatFrequencyData(bins);
    let max = -Infinity;
    for (const v of bins) max = Math.max(max, v);
    if (max < -70) continue; // silence: nothing arrived yet
    loud++;
    for (let i = 0; i < bins.length; i++) sum[i] += Math.pow(10, bins[i] / 20);
  }
  await ctx.close();
  if (loud < 20) return null;
  let best = 1;
  for (let i = 2; i < sum.length; i++) if (sum[i] > sum[best]) best = i;
  const binHz = 48000 / 8192;
  return { hz: best * binHz, binHz };
}`;
