import { OutgoingError, type OutgoingResponse } from '../../core/outgoing.js';
import type { DeliveryFault } from '../../core/dev-faults.js';
import type { DeliveryParams } from './rules.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * An outgoing delivery (webhook events, the interactions endpoint) that fails the way an app's endpoint would: an
 * answer with `status` (nothing is sent), no answer before the deadline (`timeout`: the deliverer waits it out, as it
 * would for a silent endpoint), or a slow one (`delay_ms`, counted against the deadline). The deliverer then does
 * what it does with a real answer: retry later, or fail the person's interaction.
 */
export function deliveryFault(p: DeliveryParams): DeliveryFault {
  return {
    async apply(timeoutMs: number, send: (timeoutMs: number) => Promise<OutgoingResponse>): Promise<OutgoingResponse> {
      const delay = p.delay_ms ?? 0;
      if (p.timeout || delay >= timeoutMs) {
        await sleep(timeoutMs);
        throw new OutgoingError('timeout', `no answer within ${timeoutMs} ms`);
      }
      if (delay > 0) await sleep(delay);
      if (p.status !== undefined) return { status: p.status, headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(0) };
      return send(timeoutMs - delay);
    },
  };
}
