/**
 * Voice media benchmark (run by hand, never in CI):
 *
 *   cd packages/server && npx tsx ../../bench/voice/run.ts [--speakers 4] [--listeners 20] [--seconds 8] [--gcm-tables true]
 *                                                         [--size 120] [--mode aes|xchacha] [--workers 1]
 *
 * It measures, in one run and on this machine:
 *  1. the raw AES-256-GCM limit of node:crypto: seals per second of one `size`-byte Opus payload with a 12-byte AAD
 *     (createCipheriv + setAAD + update + final + getAuthTag) on one thread, the way every Node SFU pays per packet;
 *  2. the SFU of src/voice/media in its real worker thread: N speakers and M listeners in one room, fed from this
 *     thread (the other core) with pre-encrypted RTP packets faster than it can forward. Each speaker packet is
 *     authenticated, decrypted, and re-encrypted and sent to the N-1+M others. Packets forwarded per second per core =
 *     datagrams sent / busy time of the worker's event loop.
 * The ratio of the two is the figure bench/voice/README.md tracks (target: at least 80%).
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MediaPlane } from '../../packages/server/src/voice/media/plane.js';
import { createRtpCipher, type Mode } from '../../packages/server/src/voice/media/aead.js';
import type { MediaStats } from '../../packages/server/src/voice/media/sfu.js';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
}
const SPEAKERS = Number(arg('speakers', '4'));
const LISTENERS = Number(arg('listeners', '20'));
const SECONDS = Number(arg('seconds', '8'));
const SIZE = Number(arg('size', '120'));
const MODE: Mode = arg('mode', 'aes') === 'xchacha' ? 'aead_xchacha20_poly1305_rtpsize' : 'aead_aes256_gcm_rtpsize';
const WORKERS = Number(arg('workers', '1'));
/** `--gcm-tables true`: the table-driven JS GHASH sealer (`--voice-gcm-tables`); the default seals with node:crypto. */
const GCM_TABLES = arg('gcm-tables', 'false') === 'true';
/** Speaker packets per second offered in total (open loop); above what the SFU can take, the kernel drops the rest. */
const IN_RATE = Number(arg('in-rate', String(Math.ceil(400_000 / Math.max(1, Number(arg('speakers', '4')) - 1 + Number(arg('listeners', '20')))))));

/**
 * The raw limits, each on a worker thread like the SFU's:
 *  - seal: AES-256-GCM seals per second (createCipheriv + setAAD + update + final + getAuthTag), nothing else;
 *  - forward: the plain node:crypto + dgram pipeline with the SFU's shape, i.e. per speaker packet one
 *    createDecipheriv open, then for each of `fanout` receivers one createCipheriv seal and one socket.send, to the
 *    same receiver sockets the SFU sends to. Reported as datagrams sent per second.
 */
function rawLimits(ms: number, ports: number[], fanout: number): Promise<{ sealPerSec: number; openPerSec: number; forwardPerSec: number }> {
  const src = `
    const { parentPort, workerData } = require('node:worker_threads');
    const crypto = require('node:crypto');
    const dgram = require('node:dgram');
    const { size, ms, ports, fanout } = workerData;
    const key = crypto.randomBytes(32), iv = Buffer.alloc(12), aad = crypto.randomBytes(12), pt = crypto.randomBytes(size);
    function loop(ms, fn) { let n = 0; const end = performance.now() + ms; while (performance.now() < end) for (let i = 0; i < 100; i++) fn(n++); return n / (ms / 1000); }
    const seal = (n) => { iv.writeUInt32BE(n >>> 0, 0); const c = crypto.createCipheriv('aes-256-gcm', key, iv); c.setAAD(aad); const ct = c.update(pt); c.final(); return Buffer.concat([aad, ct, c.getAuthTag(), iv.subarray(0, 4)]); };
    loop(300, seal);
    const sealPerSec = loop(ms, seal);
    const pkt = seal(7);
    const open = () => { const d = crypto.createDecipheriv('aes-256-gcm', key, iv); d.setAAD(pkt.subarray(0, 12)); d.setAuthTag(pkt.subarray(pkt.length - 20, pkt.length - 4)); const out = d.update(pkt.subarray(12, pkt.length - 20)); d.final(); return out; };
    const openPerSec = loop(ms, () => { iv.writeUInt32BE(7, 0); open(); });
    const sock = dgram.createSocket('udp4');
    sock.bind(0, '127.0.0.1', async () => {
      let sent = 0;
      const end = performance.now() + ms;
      let k = 0;
      // Yield now and then so the sends' completions run, as an event-driven server would.
      while (performance.now() < end) {
        for (let b = 0; b < 20; b++) {
          iv.writeUInt32BE(7, 0);
          const plain = open();
          for (let r = 0; r < fanout; r++) {
            iv.writeUInt32BE((++k) >>> 0, 0);
            const c = crypto.createCipheriv('aes-256-gcm', key, iv); c.setAAD(aad); const ct = c.update(plain); c.final();
            sock.send(Buffer.concat([aad, ct, c.getAuthTag(), iv.subarray(0, 4)]), ports[r % ports.length], '127.0.0.1');
            sent++;
          }
        }
        await new Promise((r) => setImmediate(r));
      }
      const forwardPerSec = sent / (ms / 1000);
      sock.close();
      parentPort.postMessage({ sealPerSec, openPerSec, forwardPerSec });
    });
  `;
  return new Promise((resolve, reject) => {
    const w = new Worker(src, { eval: true, workerData: { size: SIZE, ms, ports, fanout } });
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

const bind = (s: dgram.Socket) => new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const keepAlive = setInterval(() => {}, 1000); // the media worker is unref'd, as in the server
  console.log(
    `voice bench: ${SPEAKERS} speakers, ${LISTENERS} listeners, ${SIZE}-byte payloads, ${MODE}, ${WORKERS} worker(s), ${SECONDS}s, ${IN_RATE} packets/s offered`,
  );
  const plane = new MediaPlane({ workers: WORKERS, bindHost: '127.0.0.1', port: 0, onEvent: () => {} });
  const room = 'bench-room';
  const port = await plane.portFor(room);
  const members: { ssrc: number; key: Buffer; sock: dgram.Socket; speaker: boolean }[] = [];
  for (let i = 0; i < SPEAKERS + LISTENERS; i++) {
    const sock = dgram.createSocket({ type: 'udp4', recvBufferSize: 1 << 16, sendBufferSize: 4 << 20 });
    await bind(sock);
    const m = { ssrc: 1000 + i, key: crypto.randomBytes(32), sock, speaker: i < SPEAKERS };
    members.push(m);
    await plane.add({ ssrc: m.ssrc, userId: String(i), room, crypto: { mode: MODE, key: [...m.key], gcmTables: GCM_TABLES }, canSpeak: true, daveReady: true });
  }
  // IP discovery from every socket: that is how the SFU learns where members are.
  for (const m of members) {
    const req = Buffer.alloc(74);
    req.writeUInt16BE(1, 0);
    req.writeUInt16BE(70, 2);
    req.writeUInt32BE(m.ssrc, 4);
    m.sock.send(req, port, '127.0.0.1');
  }
  await sleep(300);

  // Raw limits, measured against the same receiver sockets (each speaker sends to the other N-1+M members).
  const rawPorts = members.filter((m) => m !== members[0]).map((m) => m.sock.address().port);
  const rawBefore = await rawLimits(2000, rawPorts, SPEAKERS - 1 + LISTENERS);
  await sleep(300); // let the raw phase's datagrams drain before the probe starts checking

  // One listener verifies what it gets (delivery and correctness); the others' datagrams are read and dropped by Node.
  const probe = members[SPEAKERS];
  const probeCipher = createRtpCipher(MODE, probe.key);
  let probeOk = 0;
  let probeBad = 0;
  probe.sock.on('message', (msg) => {
    if (msg.length === 74) return;
    if (probeCipher.open(msg, 12)) probeOk++;
    else probeBad++;
  });

  // Pre-encrypted speaker packets (Opus-sized payloads), each with its own nonce counter.
  const speakers = members.filter((m) => m.speaker);
  const pool = speakers.map((m) => {
    const c = createRtpCipher(MODE, m.key);
    const out: Buffer[] = [];
    const n = Math.ceil((IN_RATE * (SECONDS + 3)) / SPEAKERS);
    const payload = crypto.randomBytes(SIZE);
    for (let i = 1; i <= n; i++) {
      const h = Buffer.alloc(12);
      h[0] = 0x80;
      h[1] = 0x78;
      h.writeUInt16BE(i & 0xffff, 2);
      h.writeUInt32BE(i * 960, 4);
      h.writeUInt32BE(m.ssrc, 8);
      out.push(c.seal(h, payload, i));
    }
    return out;
  });

  let sent = 0;
  let running = true;
  const started = performance.now();
  const pump = () => {
    if (!running) return;
    const owed = Math.floor(((performance.now() - started) / 1000) * (IN_RATE / SPEAKERS));
    while (sent < owed && sent < pool[0].length) {
      for (let s = 0; s < speakers.length; s++) speakers[s].sock.send(pool[s][sent], port, '127.0.0.1');
      sent++;
    }
    // Never reuse a nonce (the SFU drops replays).
    if (sent >= pool[0].length) running = false;
    else setTimeout(pump, 2);
  };
  const stats = async () =>
    (await plane.stats()).reduce((a: MediaStats, b) => ({
      received: a.received + b.received,
      forwarded: a.forwarded + b.forwarded,
      dropped: a.dropped + b.dropped,
      members: a.members + b.members,
      busyMs: (a.busyMs ?? 0) + (b.busyMs ?? 0),
      idleMs: (a.idleMs ?? 0) + (b.idleMs ?? 0),
    }));
  pump();
  await sleep(1000); // warm-up
  const s0 = await stats();
  const t0 = performance.now();
  await sleep(SECONDS * 1000);
  const s1 = await stats();
  const wall = (performance.now() - t0) / 1000;
  running = false;
  const probeSeen = { ok: probeOk, bad: probeBad };
  probe.sock.removeAllListeners('message');
  probe.sock.on('message', () => {});
  const busy = ((s1.busyMs ?? 0) - (s0.busyMs ?? 0)) / 1000;
  // The raw limits again after the SFU phase: the mean of both sides evens out slow drifts of a shared machine.
  await sleep(300);
  const rawAfter = await rawLimits(2000, rawPorts, SPEAKERS - 1 + LISTENERS);
  const raw = {
    sealPerSec: (rawBefore.sealPerSec + rawAfter.sealPerSec) / 2,
    openPerSec: (rawBefore.openPerSec + rawAfter.openPerSec) / 2,
    forwardPerSec: (rawBefore.forwardPerSec + rawAfter.forwardPerSec) / 2,
  };
  const forwarded = s1.forwarded - s0.forwarded;
  const received = s1.received - s0.received;
  const perCore = forwarded / busy;
  const utilisation = busy / (wall * Math.max(1, WORKERS));
  const fanout = SPEAKERS - 1 + LISTENERS;
  const result = {
    when: new Date().toISOString(),
    node: process.version,
    speakers: SPEAKERS,
    listeners: LISTENERS,
    size: SIZE,
    mode: MODE,
    gcmTables: GCM_TABLES,
    workers: WORKERS,
    rawSealPerSec: Math.round(raw.sealPerSec),
    rawOpenPerSec: Math.round(raw.openPerSec),
    rawForwardPerSec: Math.round(raw.forwardPerSec),
    inPerSec: Math.round(received / wall),
    forwardedPerSec: Math.round(forwarded / wall),
    forwardedPerCoreSec: Math.round(perCore),
    workerUtilisation: Number(utilisation.toFixed(2)),
    ratioToRawSeal: Number((perCore / raw.sealPerSec).toFixed(3)),
    ratioToRawForward: Number((perCore / raw.forwardPerSec).toFixed(3)),
    offeredPerSec: IN_RATE,
    droppedAtSfu: s1.dropped - s0.dropped,
    probeDelivered: probeSeen.ok,
    probeBad: probeSeen.bad,
    fanout,
  };
  console.table({
    'raw AES-256-GCM seal (node:crypto, 1 thread)': `${result.rawSealPerSec.toLocaleString()} /s`,
    'raw AES-256-GCM open': `${result.rawOpenPerSec.toLocaleString()} /s`,
    'raw forward (node:crypto open + seal + send)': `${result.rawForwardPerSec.toLocaleString()} /s`,
    'speaker packets in': `${result.inPerSec.toLocaleString()} /s`,
    'packets forwarded (wall)': `${result.forwardedPerSec.toLocaleString()} /s`,
    'SFU worker busy': `${Math.round(utilisation * 100)} %`,
    'packets forwarded per core': `${result.forwardedPerCoreSec.toLocaleString()} /s`,
    'per core / raw forward (target >= 80 %)': `${(result.ratioToRawForward * 100).toFixed(1)} %`,
    'per core / raw seal': `${(result.ratioToRawSeal * 100).toFixed(1)} %`,
  });
  console.log(`probe listener: ${probeSeen.ok} packets authenticated with its own key, ${probeSeen.bad} failed`);
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'voice-latest.json'), JSON.stringify(result, null, 2));
  for (const m of members) m.sock.close();
  await plane.close();
  clearInterval(keepAlive);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
