import assert from 'node:assert/strict';
import { devHeaders, type TestServer } from './server.js';
import type { Frame, RawGateway } from './gateway-client.js';
import { sleep } from './wait.js';

/** Helpers shared by the premium-apps tests: dev clock moves, lifecycle barriers, and an ordered event cursor. */

export async function dev(t: TestServer, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${t.server.url}${path}`, {
    method: body === undefined && path.endsWith('outbox') ? 'GET' : 'POST',
    headers: body === undefined ? devHeaders(t) : { 'content-type': 'application/json', ...devHeaders(t) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Moves the dev clock and waits until the lifecycle has processed everything due. */
export async function advance(t: TestServer, ms: number): Promise<number> {
  await dev(t, '/__dev/clock', { advance_ms: ms });
  return (await dev(t, '/__dev/monetization/run', {})).processed;
}

export async function setClock(t: TestServer, iso: string): Promise<void> {
  await dev(t, '/__dev/clock', { set: iso });
  await dev(t, '/__dev/monetization/run', {});
}

export const now = (t: TestServer) => t.server.ctx.clock.now();

/** Events of premium apps received by a raw gateway session, read in order. */
export class EventCursor {
  private seen = 0;
  constructor(
    private readonly gw: RawGateway,
    private readonly types = /^(ENTITLEMENT|SUBSCRIPTION)_/,
  ) {}

  private all(): Frame[] {
    return this.gw.frames.filter((f) => f.op === 0 && f.t !== null && this.types.test(f.t));
  }

  /** The next `n` events (waiting for them), as `[type, data]` pairs. */
  async next(n: number, timeoutMs = 5000): Promise<[string, any][]> {
    const deadline = Date.now() + timeoutMs;
    while (this.all().length < this.seen + n) {
      if (Date.now() > deadline) {
        throw new Error(
          `expected ${n} more events, got ${
            this.all()
              .slice(this.seen)
              .map((f) => f.t)
              .join(', ') || 'none'
          }`,
        );
      }
      await sleep(10);
    }
    const out = this.all()
      .slice(this.seen, this.seen + n)
      .map((f) => [f.t!, f.d] as [string, any]);
    this.seen += n;
    return out;
  }

  /** The next events must be exactly these types, in order; returns their data. */
  async expect(...types: string[]): Promise<any[]> {
    const got = await this.next(types.length);
    assert.deepEqual(
      got.map(([t]) => t),
      types,
    );
    await this.none();
    return got.map(([, d]) => d);
  }

  /** No further event arrives within a short while. */
  async none(ms = 150): Promise<void> {
    await sleep(ms);
    const extra = this.all().slice(this.seen);
    assert.equal(extra.length, 0, `unexpected events: ${extra.map((f) => `${f.t} ${JSON.stringify(f.d)}`).join('; ')}`);
  }
}

/** The platform's monetization timestamp format. */
export const isoMicro = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');

/** Same calendar arithmetic as the server: anchor + n months, day clamped. */
export function addMonths(anchorMs: number, months: number): number {
  const d = new Date(anchorMs);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}
