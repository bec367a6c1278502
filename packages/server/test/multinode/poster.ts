/**
 * Posts messages at a steady rate through the API nodes as a careful client does: each message carries a nonce with
 * `enforce_nonce`, and on a network error or a 5xx it is sent again, with the same nonce, to the next API node.
 */
export interface Posted {
  nonce: string;
  id: string;
  /** Attempts it took (1 when the first answered). */
  attempts: number;
  /** The nodes that failed it before one answered. */
  failedOn: string[];
}

export class Poster {
  readonly posted: Posted[] = [];
  /** Answers that were neither a success nor a retryable failure (the test fails on any). */
  readonly refused: string[] = [];
  retries = 0;
  private running = false;
  private inFlight = new Set<Promise<void>>();
  private next = 0;
  private seq = 0;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly apis: string[],
    private readonly channelId: string,
    private readonly token: string,
    private readonly rate: number,
    /** Distinguishes this run's nonces (a nonce is at most 25 characters). */
    private readonly tag: string,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops sending new messages and resolves once every message sent has an answer. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const t0 = performance.now();
    while (this.running) {
      const due = t0 + (this.seq * 1000) / this.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (!this.running) break;
      const p = this.post(`${this.tag}-${this.seq++}`).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  private async post(nonce: string): Promise<void> {
    const failedOn: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const api = this.apis[this.next % this.apis.length];
      let retryable: string | null = null;
      try {
        const res = await fetch(`${api}/api/v10/channels/${this.channelId}/messages`, {
          method: 'POST',
          headers: { authorization: this.token, 'content-type': 'application/json' },
          body: JSON.stringify({ content: `multinode ${nonce}`, nonce, enforce_nonce: true }),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.ok) {
          this.posted.push({ nonce, id: JSON.parse(text).id, attempts: attempt, failedOn });
          return;
        }
        if (res.status >= 500) retryable = `${res.status}`;
        else if (res.status === 429) {
          await new Promise((r) => setTimeout(r, (JSON.parse(text).retry_after ?? 1) * 1000));
          continue;
        } else {
          this.refused.push(`${nonce}: ${res.status} ${text.slice(0, 200)}`);
          return;
        }
      } catch (err) {
        retryable = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      }
      // The node failed it: every later message goes to the next node too, as a client that marks a host down.
      failedOn.push(`${api} (${retryable})`);
      if (this.apis[this.next % this.apis.length] === api) this.next++;
      this.retries++;
      if (attempt >= 20) {
        this.refused.push(`${nonce}: gave up after ${attempt} attempts: ${failedOn.join(', ')}`);
        return;
      }
      await new Promise((r) => setTimeout(r, Math.min(2000, 100 * attempt)));
    }
  }
}
