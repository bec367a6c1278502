import { useSyncExternalStore } from 'react';
import { onDispatch } from '../lib/state/dispatch-taps.js';

/**
 * The Activity instances this client knows of, from GUILD_CREATE's `activity_instances` and every
 * EMBEDDED_ACTIVITY_UPDATE_V2 (an instance with no participants has ended). Participants are sessions; the person
 * takes part in an instance when their own session is among them.
 */

export interface InstanceParticipant {
  user_id: string;
  session_id: string;
  nonce?: string;
}

export interface InstanceInfo {
  application_id: string;
  instance_id: string;
  launch_id: string;
  location: { id: string; kind: 'gc' | 'pc'; channel_id: string; guild_id?: string };
  participants: InstanceParticipant[];
}

type Listener = () => void;

class InstanceStore {
  private byId = new Map<string, InstanceInfo>();
  private listeners = new Set<Listener>();
  /** Bumped on each change, so selectors can be cheap. */
  version = 0;

  subscribe = (fn: Listener) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }

  apply(t: string, d: any): void {
    if (t === 'READY') {
      this.byId.clear();
      this.changed();
    } else if (t === 'GUILD_CREATE' && Array.isArray(d?.activity_instances)) {
      for (const i of d.activity_instances) this.put(i);
      this.changed();
    } else if (t === 'EMBEDDED_ACTIVITY_UPDATE_V2' && d?.instance_id) {
      this.put(d);
      this.changed();
    }
  }

  private put(i: InstanceInfo): void {
    if (!i.participants?.length) this.byId.delete(i.instance_id);
    else this.byId.set(i.instance_id, { ...i, participants: [...i.participants] });
  }

  get(instanceId: string): InstanceInfo | undefined {
    return this.byId.get(instanceId);
  }

  inChannel(channelId: string): InstanceInfo[] {
    return [...this.byId.values()].filter((i) => i.location.channel_id === channelId);
  }

  /** The instance this session takes part in, if any. */
  mine(sessionId: string | null): InstanceInfo | undefined {
    if (!sessionId) return undefined;
    return [...this.byId.values()].find((i) => i.participants.some((p) => p.session_id === sessionId));
  }
}

export const instances = new InstanceStore();
onDispatch((t, d) => instances.apply(t, d));

/** Re-renders on every instance change; the selector reads the store. */
export function useInstances<T>(select: (s: InstanceStore) => T): T {
  const version = useSyncExternalStore(
    instances.subscribe,
    () => instances.version,
    () => instances.version,
  );
  void version;
  return select(instances);
}

/** Distinct users of an instance, in joining order. */
export const userIdsOf = (i: InstanceInfo | undefined) => [...new Set((i?.participants ?? []).map((p) => p.user_id))];
