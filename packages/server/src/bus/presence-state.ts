/**
 * Presence state: who shows online, idle or dnd. The Gateway writes it (identify, op 3, disconnect); services read it
 * through `onlineCount` for the approximate presence counts and the widget. Presences are ephemeral on the real platform
 * too, so the embedded implementation is a map in memory; a distributed one (Redis) can replace it behind this interface.
 */
export interface Presence {
  status: 'online' | 'idle' | 'dnd' | 'invisible' | 'offline';
  activities: unknown[];
  client_status: Record<string, string>;
}

export interface PresenceState {
  /** The presence a user set, if they are connected. */
  get(userId: string): Presence | undefined;
  /** Records a connected user's presence. */
  set(userId: string, p: Presence): void;
  /** Forgets a user who went offline. */
  clear(userId: string): void;
  /** What others see: invisible shows as offline. */
  visible(userId: string): Presence;
}

const OFFLINE: Presence = { status: 'offline', activities: [], client_status: {} };

export class MemoryPresences implements PresenceState {
  private byUser = new Map<string, Presence>();

  get(userId: string): Presence | undefined {
    return this.byUser.get(userId);
  }

  set(userId: string, p: Presence): void {
    this.byUser.set(userId, p);
  }

  clear(userId: string): void {
    this.byUser.delete(userId);
  }

  visible(userId: string): Presence {
    const p = this.byUser.get(userId);
    if (!p || p.status === 'invisible') return OFFLINE;
    return p;
  }
}

/** How many of these users others see as online, idle or dnd: the one read services make of presence state. */
export function onlineCount(state: PresenceState, userIds: Iterable<string>): number {
  let n = 0;
  for (const id of userIds) if (state.visible(id).status !== 'offline') n++;
  return n;
}
