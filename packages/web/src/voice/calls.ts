import { onDispatch } from '../lib/state/dispatch-taps.js';

/** A DM or group-DM call as the Gateway tells it: who is being rung and who is in it. */
export interface CallInfo {
  channelId: string;
  ringing: string[];
  /** User ids in the call (its voice states). */
  inCall: string[];
}

/**
 * The running calls of the person's DMs, from CALL_CREATE / CALL_UPDATE / CALL_DELETE and the DM voice states
 * (guild_id null). Read with useSyncExternalStore.
 */
class CallStore {
  calls: ReadonlyMap<string, CallInfo> = new Map();
  private readonly listeners = new Set<() => void>();

  constructor() {
    onDispatch((t, d) => this.onDispatch(t, d));
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };

  get = () => this.calls;

  private put(channelId: string, patch: Partial<CallInfo> | null): void {
    const next = new Map(this.calls);
    if (patch === null) next.delete(channelId);
    else next.set(channelId, { ...(next.get(channelId) ?? { channelId, ringing: [], inCall: [] }), ...patch });
    this.calls = next;
    for (const fn of this.listeners) fn();
  }

  private onDispatch(t: string, d: any): void {
    if (!d?.channel_id && t !== 'READY') return;
    if (t === 'CALL_CREATE')
      this.put(d.channel_id, {
        ringing: d.ringing ?? [],
        inCall: (d.voice_states ?? []).filter((v: any) => v.channel_id === d.channel_id).map((v: any) => v.user_id),
      });
    else if (t === 'CALL_UPDATE') this.put(d.channel_id, { ringing: d.ringing ?? [] });
    else if (t === 'CALL_DELETE') this.put(d.channel_id, null);
    else if (t === 'VOICE_STATE_UPDATE' && !d.guild_id) {
      // A DM voice state: joining adds to that call; leaving (channel null) removes from every call.
      for (const c of this.calls.values())
        if (c.inCall.includes(d.user_id) && c.channelId !== d.channel_id) this.put(c.channelId, { inCall: c.inCall.filter((u) => u !== d.user_id) });
      const c = d.channel_id ? this.calls.get(d.channel_id) : undefined;
      if (d.channel_id && !c?.inCall.includes(d.user_id)) this.put(d.channel_id, { inCall: [...(c?.inCall ?? []), d.user_id] });
    }
  }
}

export const callStore = new CallStore();
