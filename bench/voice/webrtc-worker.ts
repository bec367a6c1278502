/**
 * A load thread of bench/voice/webrtc.ts: it hosts a share of the simulated browsers, sends their frames on a 20 ms
 * schedule, and sums up per receiver what arrived in the measuring window. Commands come from the parent:
 * `join`, `run`, `close`, each answered once done.
 */
import { parentPort } from 'node:worker_threads';
import { monoNs, Participant, type ParticipantSpec, type ServerAddress } from './webrtc-participant.js';

export type WorkerCommand =
  | {
      cmd: 'join';
      /** Participants to join; one that this thread already has (a dead link) is closed and joined again. */
      specs: ParticipantSpec[];
      server: ServerAddress;
      payloadBytes: number;
      timeoutMs: number;
      concurrency: number;
    }
  | {
      cmd: 'run';
      /** Monotonic ns (as a string) when frame 0 of phase 0 is due. */
      startNs: string;
      frames: number;
      frameMs: number;
      /** Frames [from, to) count; the rest is warm-up. */
      window: { from: number; to: number };
      /** Each participant's offset in the 20 ms period, by its index in the run (browsers are not in step). */
      phaseMs: number[];
      drainMs: number;
    }
  | { cmd: 'close' };

/** One receiver's figures for the window. */
export interface ReceiverReport {
  index: number;
  expected: number;
  received: number;
  duplicates: number;
  /** Per packet: one-way delay beyond the smallest of its sender-receiver pair, ms. */
  added: Float64Array;
  /** Smallest one-way delay of any of its pairs, ms. */
  minDelay: number;
  /** Indices of the senders it heard. */
  heard: number[];
}

export interface RunReport {
  receivers: ReceiverReport[];
  /** Frames sent, and how late the sends were against their schedule (p99 and max, ms): a busy load thread shows here. */
  sent: number;
  sendLateP99: number;
  sendLateMax: number;
  /** This thread's event-loop utilisation over the run (1: always busy). */
  elu: number;
}

const participants: Participant[] = [];

async function join(c: Extract<WorkerCommand, { cmd: 'join' }>): Promise<{ joined: number; ms: number }> {
  const t0 = performance.now();
  const todo = [...c.specs];
  const again = participants.filter((p) => todo.some((s) => s.index === p.spec.index));
  await Promise.all(again.map((p) => (participants.splice(participants.indexOf(p), 1), p.close())));
  const one = async () => {
    for (let spec = todo.shift(); spec; spec = todo.shift()) {
      const p = new Participant(spec, c.server, c.payloadBytes);
      participants.push(p);
      await p.join(c.timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, c.concurrency) }, one));
  // Every thread joins its share at the same time, so the others' op 5 come while this waits.
  await Promise.all(participants.map((p) => p.settled(c.timeoutMs)));
  return { joined: participants.length, ms: performance.now() - t0 };
}

/** Sends every participant's frames at start + phase + k·20 ms (late ones go out at once), then waits for the drain. */
async function run(c: Extract<WorkerCommand, { cmd: 'run' }>): Promise<RunReport> {
  for (const p of participants) p.setWindow(c.window.from, c.window.to);
  const start = BigInt(c.startNs);
  const due = (p: Participant, k: number) => start + BigInt(Math.round((c.phaseMs[p.spec.index] + k * c.frameMs) * 1e6));
  const next = participants.map(() => 0);
  const late: number[] = [];
  const elu0 = performance.eventLoopUtilization();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = monoNs();
      let soonest: bigint | null = null;
      participants.forEach((p, i) => {
        while (next[i] < c.frames && due(p, next[i]) <= now) {
          late.push(Number(now - due(p, next[i])) / 1e6);
          p.sendFrame(next[i]++);
        }
        if (next[i] < c.frames) {
          const d = due(p, next[i]);
          if (soonest === null || d < soonest) soonest = d;
        }
      });
      if (soonest === null) return resolve();
      setTimeout(tick, Math.max(0, Number((soonest as bigint) - monoNs()) / 1e6));
    };
    tick();
  });
  await new Promise((r) => setTimeout(r, c.drainMs));
  const elu = performance.eventLoopUtilization(elu0).utilization;
  late.sort((a, b) => a - b);
  return {
    receivers: participants.map((p) => receiverReport(p, c.window)),
    sent: late.length,
    sendLateP99: late[Math.floor(late.length * 0.99)] ?? 0,
    sendLateMax: late.at(-1) ?? 0,
    elu,
  };
}

function receiverReport(p: Participant, window: { from: number; to: number }): ReceiverReport {
  const added: number[] = [];
  let received = 0;
  let duplicates = 0;
  let minDelay = Infinity;
  for (const pair of p.pairs.values()) {
    received += pair.received;
    duplicates += pair.duplicates;
    const min = Math.min(...pair.delays);
    minDelay = Math.min(minDelay, min);
    for (const d of pair.delays) added.push(d - min);
  }
  return {
    index: p.spec.index,
    expected: (window.to - window.from) * (p.spec.roomSize - 1),
    received,
    duplicates,
    added: Float64Array.from(added),
    minDelay,
    heard: [...p.pairs.keys()],
  };
}

parentPort!.on('message', (m: WorkerCommand & { id: number }) => {
  const work: Promise<unknown> =
    m.cmd === 'join' ? join(m) : m.cmd === 'run' ? run(m) : Promise.all(participants.splice(0).map((p) => p.close())).then(() => ({ closed: true }));
  work.then(
    (r) => {
      const transfer = m.cmd === 'run' ? (r as RunReport).receivers.map((x) => x.added.buffer as ArrayBuffer) : [];
      parentPort!.postMessage({ id: m.id, ...(r as object) }, transfer);
    },
    (e) => parentPort!.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
