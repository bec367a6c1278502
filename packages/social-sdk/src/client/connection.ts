/** The Gateway connection: Connect, Disconnect, and the READY snapshot that fills the caches. */
import { ClientResult } from '../result.js';
import { ErrorType, Status } from '../enums.js';
import type { WireUser } from '../cache.js';
import { AuthClient } from './auth.js';
import { DM } from './core.js';

export abstract class ConnectionClient extends AuthClient {
  /** Connects the Gateway (HttpWait, Connecting, Connected, then Ready); resolves when Ready. */
  connect(): Promise<void> {
    return this.op(() => {
      if (!this.token) return Promise.reject(new ClientResult(ErrorType.AuthorizationFailed, 'no token: call updateToken first'));
      if (this.status === Status.Ready) return Promise.resolve();
      const ready = new Promise<void>((resolve, reject) => this.connectWaiters.push({ resolve, reject }));
      if (this.status === Status.Disconnected) {
        this.setStatus(Status.HttpWait);
        void this.gateway.start();
      }
      return ready;
    });
  }

  /** Ends calls and the Gateway session. */
  disconnect(): Promise<void> {
    return this.op(async () => {
      this.setStatus(Status.Disconnecting);
      await Promise.all([...this.calls.values()].map((c) => c.end()));
      this.calls.clear();
      this.gateway.stop();
      this.setStatus(Status.Disconnected);
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.disconnect();
  }

  protected onReady(kind: 'READY' | 'RESUMED', d: any): void {
    if (kind === 'READY') {
      this.cache.me = d.user;
      this.cache.putUser(d.user);
      this.cache.relationships.clear();
      for (const r of d.relationships ?? []) {
        this.cache.putUser(r.user);
        Object.assign(this.cache.relationship(r.id), { discordType: r.type, nickname: r.nickname ?? null, since: r.since ?? null });
      }
      for (const r of d.game_relationships ?? []) {
        this.cache.putUser(r.user);
        this.cache.relationship(r.id).gameType = r.type;
      }
      for (const p of d.presences ?? []) this.cache.presences.set(p.user.id, { status: p.status, activities: p.activities ?? [] });
      this.cache.lobbies.clear();
      for (const l of d.lobbies ?? []) this.cache.lobbies.set(l.id, l);
      for (const c of d.private_channels ?? []) {
        const other = (c.recipients ?? []).find((u: WireUser) => u.id !== d.user.id);
        if (c.type === DM && other) {
          this.cache.dmChannels.set(c.id, other.id);
          this.cache.putUser(other);
        }
      }
      if (this.presence.wire || this.presence.status !== 'online') this.gateway.setPresence(this.presencePayload());
      for (const call of this.calls.values()) call.onGatewayRestarted();
    }
    this.setStatus(Status.Ready);
  }
}
