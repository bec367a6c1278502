import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES } from '../src/transport/framing.ts';
import { RawIpc } from './helpers/raw-ipc.ts';
import { lastSeq, nextPresence, startDesktopWorld, watcher, type DesktopWorld } from './helpers/world.ts';

const json = fc.jsonValue({ maxDepth: 3 });
const validFrame = fc.record({ op: fc.constantFrom(1, 3, 4), payload: json }).map(({ op, payload }) => encodeFrame(op, payload));

/** Splits bytes into chunks at arbitrary points (the way a socket may deliver them). */
const chunked = (bytes: Buffer, cuts: number[]) => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
};

describe('framing (fast-check)', () => {
  it('decodes the same frames however the stream is split or coalesced', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ op: fc.constantFrom(0, 1, 2, 3, 4), payload: json }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (frames, cuts) => {
          const bytes = Buffer.concat(frames.map((f) => encodeFrame(f.op, f.payload)));
          const d = new FrameDecoder();
          const got = chunked(bytes, cuts).flatMap((c) => d.push(c));
          assert.deepEqual(
            got,
            frames.map((f) => ({ kind: 'frame', op: f.op, payload: JSON.parse(JSON.stringify(f.payload)) })),
          );
          assert.equal(d.pending, 0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary bytes, and stops for good after a fatal header', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 6 }), (raw, cuts) => {
        const d = new FrameDecoder();
        const out = chunked(Buffer.from(raw), cuts).flatMap((c) => d.push(c));
        const fatal = out.findIndex((x) => x.kind === 'fatal');
        if (fatal >= 0) assert.equal(fatal, out.length - 1);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an oversized length before buffering its body', () => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(1, 0);
    head.writeUInt32LE(MAX_FRAME_BYTES + 1, 4);
    assert.deepEqual(new FrameDecoder().push(head), [{ kind: 'fatal', reason: 'too-large', op: 1 }]);
  });
});

/** What an app can throw at the socket: truncated, oversized, coalesced, malformed, unknown opcodes, random bytes. */
const hostile = fc.oneof(
  // truncated: a valid frame cut short, then the connection ends
  fc.tuple(validFrame, fc.nat()).map(([f, n]) => f.subarray(0, 1 + (n % Math.max(1, f.length - 1)))),
  // oversized: a header announcing more than 64 KiB
  fc.integer({ min: MAX_FRAME_BYTES + 1, max: 0xffffffff }).map((len) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(1, 0);
    h.writeUInt32LE(len, 4);
    return h;
  }),
  // coalesced: a handshake and many frames in one write, some with garbage JSON bodies
  fc
    .array(
      fc.oneof(
        validFrame,
        fc.string({ maxLength: 40 }).map((s) => {
          const body = Buffer.from(`{${s}`);
          const h = Buffer.alloc(8);
          h.writeUInt32LE(1, 0);
          h.writeUInt32LE(body.length, 4);
          return Buffer.concat([h, body]);
        }),
      ),
      { maxLength: 10 },
    )
    .map((frames) => Buffer.concat(frames)),
  // unknown opcodes
  fc.tuple(fc.integer({ min: 5, max: 0xffffffff }), json).map(([op, p]) => encodeFrame(op, p)),
  // commands with hostile shapes
  fc
    .record({
      cmd: fc.oneof(fc.constantFrom('SET_ACTIVITY', 'SUBSCRIBE', 'AUTHORIZE', 'GET_GUILD', 'DISPATCH'), fc.string()),
      nonce: fc.oneof(fc.string(), fc.constant(undefined)),
      args: json,
      evt: fc.oneof(fc.string(), json),
    })
    .map((p) => encodeFrame(1, p)),
  // anything at all
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
);

describe('hostile frames against the running local client', () => {
  let w: DesktopWorld;
  before(async () => {
    w = await startDesktopWorld({ websocket: false });
  });
  after(async () => w?.close());

  it('no crash, and a well-behaved app on another connection is unaffected', async () => {
    const sock = w.desktop.ipc!.path!;
    const bob = await watcher(w);
    const good = await RawIpc.ready(sock, w.appId);
    const seen = nextPresence(bob, w.alice.id, (d) => d.activities?.[0]?.state === 'Steady', lastSeq(bob));
    await good.command('SET_ACTIVITY', { pid: 1, activity: { state: 'Steady' } });
    await seen;
    let runs = 0;

    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(hostile, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (handshakeFirst, chunks, cuts) => {
          runs++;
          const bad = await RawIpc.connect(sock);
          if (handshakeFirst) bad.raw(encodeFrame(0, { v: 1, client_id: w.appId }));
          for (const piece of chunked(Buffer.concat(chunks), cuts)) bad.raw(piece);
          bad.socket.end();
          await Promise.race([bad.closed, new Promise((r) => setTimeout(r, 200))]);
          bad.socket.destroy();
          // The good app still gets answers, and keeps its activity.
          const nonce = `probe-${runs}`;
          good.send(3, nonce);
          await good.wait((f) => f.op === 4 && f.payload === nonce);
        },
      ),
      { numRuns: 60 },
    );

    assert.equal(runs, 60);
    const r = await good.command('GET_SELECTED_VOICE_CHANNEL');
    assert.equal(r.data.code, 4006); // still answering commands with the real codes
    assert.equal(w.desktop.core.sockets.size, 1, 'only the good app is left connected');
    assert.equal([...w.desktop.core.sockets][0].activity?.presence.state, 'Steady');
    good.end();
    bob.close();
  });
});
