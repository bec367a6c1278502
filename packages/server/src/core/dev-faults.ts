import type { OutgoingResponse } from './outgoing.js';

/**
 * Dev-mode faults (dev/faults/) as the layers below see them. `ctx.faults` is null unless the server runs --dev, so
 * every hook costs one null check in production.
 */
export interface DevFaults {
  /** Whether an application has any rule of this kind (the hot paths' first, allocation-free question). */
  has(kind: string, applicationId: string): boolean;
  /** The first active rule of this kind for the application that `matches`, one of its uses taken; null when none. */
  take(kind: string, applicationId: string, matches?: (params: any) => boolean): { params: Record<string, unknown> } | null;
  /** The fault for one outgoing delivery of an application (consumes one use of its rule), or null. */
  delivery(kind: DeliveryKind, applicationId: string): DeliveryFault | null;
}

export type DeliveryKind = 'webhook_events' | 'interactions_endpoint';

/** A delivery that misbehaves as if the app's endpoint did. */
export interface DeliveryFault {
  /**
   * Runs one POST under the fault: `send(timeoutMs)` is the real request, given what is left of the deadline. Answers
   * a made-up status without sending, throws the outgoing client's timeout error after the deadline, or sends late.
   */
  apply(timeoutMs: number, send: (timeoutMs: number) => Promise<OutgoingResponse>): Promise<OutgoingResponse>;
}
