/**
 * How long a WebSocket's HELLO waits after the 101 is written. Sent in the same tick, it often reaches the client in
 * the same read as the handshake's response, and clients that parse that read and drop the rest never see it; on the
 * real platform the network keeps them apart.
 */
export const HELLO_AFTER_UPGRADE_MS = 10;

/** A HELLO sent after the handshake, or at once when the client speaks first (HELLO is always the first frame). */
export class DeferredHello {
  private timer: NodeJS.Timeout | null;

  constructor(private readonly send: () => void) {
    this.timer = setTimeout(() => this.flush(), HELLO_AFTER_UPGRADE_MS);
  }

  /** Sends it now if it is still pending. */
  flush(): void {
    if (!this.timer) return;
    this.cancel();
    this.send();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
