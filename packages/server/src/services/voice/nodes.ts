/**
 * Which voice server serves a voice channel (or a DM call, or a lobby), in distributed mode; a single process uses
 * its own (`VoiceStates.endpoint`). Every node with a voice server announces it, and each channel is served by
 * exactly one of the live ones, so everyone in a channel meets in the same room whatever node they joined through.
 */
export interface VoiceNodes {
  /** This node's voice server is up at `endpoint` (host:port); repeated while it runs. */
  announce(endpoint: string): Promise<void>;
  /** This node's voice server is going away. */
  withdraw(endpoint: string): Promise<void>;
  /** The endpoint serving `key` (a channel, call or lobby id), null when no voice server is up. */
  endpointFor(key: string): Promise<string | null>;
}
