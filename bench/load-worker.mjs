/**
 * One thread of the issue-16 load generator (bench/load-pool.ts starts several): it holds a share of the Gateway
 * sessions, identifies them, records when each reached READY, and counts MESSAGE_CREATE deliveries per message
 * (exactly once per session: duplicates, strays and `s` gaps are counted, never dropped silently).
 * Plain JS so the thread needs no TypeScript loader. Times are absolute (timeOrigin + now, ms) so threads and the
 * main thread share one clock.
 */
import { parentPort } from 'node:worker_threads';
import WebSocket from 'ws';
import { markerOf, opOf, seqOf } from './frames.mjs';

const at = () => performance.timeOrigin + performance.now();
const READY = Buffer.from('"t":"READY"');
const MC = Buffer.from('"t":"MESSAGE_CREATE"');

/** @type {{ws: WebSocket, lastSeq: number, readyAt: number, open: boolean}[]} */
let conns = [];
let seqGaps = 0;
let closedEarly = 0;
let errors = [];
let phase = null; // { base, total, recv: Uint32Array, lastAt: Float64Array, seen: Uint8Array per conn, duplicates, strays }

function openOne(url, token, intents, index, onReady) {
  const c = { ws: null, lastSeq: 0, readyAt: -1, readyBytes: 0, open: true, index, startedAt: at() };
  const ws = new WebSocket(url, { perMessageDeflate: false });
  c.ws = ws;
  let settled = false;
  const done = (err) => {
    if (settled) return;
    settled = true;
    if (err && errors.length < 20) errors.push(String(err.message ?? err));
    onReady(c, err);
  };
  ws.on('message', (data) => {
    const t = at();
    const op = opOf(data);
    if (op !== 0) {
      if (op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'accord-bench', device: 'accord-bench' } } }));
      else if (op === 9) done(new Error('invalid session (op 9)'));
      return;
    }
    const s = seqOf(data);
    if (s !== c.lastSeq + 1) seqGaps++;
    c.lastSeq = s;
    if (c.readyAt < 0) {
      if (data.indexOf(READY) >= 0) {
        c.readyAt = t;
        c.readyBytes = data.length;
        done(null);
      }
      return;
    }
    if (!phase) return;
    const i = data.indexOf(MC);
    if (i < 0 || i > 48) return;
    const k = markerOf(data) - phase.base;
    if (k < 0 || k >= phase.total) {
      phase.strays++;
      return;
    }
    const seen = phase.seen[index];
    if (seen[k]) {
      phase.duplicates++;
      return;
    }
    seen[k] = 1;
    phase.recv[k]++;
    if (t > phase.lastAt[k]) phase.lastAt[k] = t;
  });
  ws.on('close', (code) => {
    if (c.open) closedEarly++;
    c.open = false;
    done(new Error(`closed ${code} before READY`));
  });
  ws.on('error', (err) => done(err));
  return c;
}

async function open({ urls, tokens, intents, n, batch, timeoutMs }) {
  const t0 = at();
  const start = conns.length;
  const failures = [];
  const run = (from, to) =>
    new Promise((resolve) => {
      let left = to - from;
      if (!left) return resolve();
      const timer = setTimeout(resolve, timeoutMs);
      for (let i = from; i < to; i++) {
        conns.push(
          openOne(urls[i % urls.length], tokens[i % tokens.length], intents, i, (c, err) => {
            if (err) failures.push(i);
            if (--left === 0) {
              clearTimeout(timer);
              resolve();
            }
          }),
        );
      }
    });
  const step = batch > 0 ? batch : n;
  for (let i = 0; i < n; i += step) await run(start + i, start + Math.min(n, i + step));
  const mine = conns.slice(start);
  return {
    t0,
    startedAt: Float64Array.from(mine.map((c) => c.startedAt)),
    readyAt: Float64Array.from(mine.map((c) => c.readyAt)),
    readyBytes: mine.reduce((a, c) => Math.max(a, c.readyBytes), 0),
    notReady: mine.filter((c) => c.readyAt < 0).length,
    errors: errors.slice(),
  };
}

parentPort.on('message', async (m) => {
  try {
    switch (m.cmd) {
      case 'open':
        return parentPort.postMessage({ id: m.id, ...(await open(m)) });
      case 'phase':
        phase = {
          base: m.base,
          total: m.total,
          recv: new Uint32Array(m.total),
          lastAt: new Float64Array(m.total),
          seen: conns.map(() => new Uint8Array(m.total)),
          duplicates: 0,
          strays: 0,
        };
        return parentPort.postMessage({ id: m.id });
      case 'count':
        return parentPort.postMessage({ id: m.id, delivered: phase ? phase.recv.reduce((a, b) => a + b, 0) : 0 });
      case 'report': {
        const p = phase;
        phase = null;
        return parentPort.postMessage({
          id: m.id,
          recv: p?.recv,
          lastAt: p?.lastAt,
          duplicates: p?.duplicates ?? 0,
          strays: p?.strays ?? 0,
          seqGaps,
          closedEarly,
          sessions: conns.length,
        });
      }
      case 'close':
        for (const c of conns) {
          c.open = false;
          c.ws.terminate();
        }
        conns = [];
        return parentPort.postMessage({ id: m.id });
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err?.stack ?? err) });
  }
});
