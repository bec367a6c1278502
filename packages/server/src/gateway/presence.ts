/** Presences live in memory: they are ephemeral on the real platform too. */
export interface Presence {
  status: 'online' | 'idle' | 'dnd' | 'invisible' | 'offline';
  activities: unknown[];
  client_status: Record<string, string>;
}

export class Presences {
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

  /** What others see: invisible shows as offline. */
  visible(userId: string): Presence {
    const p = this.byUser.get(userId);
    if (!p || p.status === 'invisible') return { status: 'offline', activities: [], client_status: {} };
    return p;
  }
}
