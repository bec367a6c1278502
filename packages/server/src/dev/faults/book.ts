import crypto from 'node:crypto';
import type { Ctx } from '../../services/context.js';
import type { BusEvent } from '../../bus/bus.js';
import type { DeliveryFault, DeliveryKind, DevFaults } from '../../core/dev-faults.js';
import { deliveryFault } from './delivery.js';
import type { VoiceFaultTable } from './voice.js';
import type { DeliveryParams, OneShotKind, Rule, RuleKind, VoiceParams } from './rules.js';

/** A one-shot action on an application's Gateway sessions. */
export interface GatewayAction {
  application_id: string;
  kind: OneShotKind;
  params: Record<string, unknown>;
}

/** What travels between the nodes of a deployment: every change to the book, and the one-shot actions. */
type Change =
  | { op: 'add'; rule: Rule }
  | { op: 'delete'; id: string }
  | { op: 'clear'; application_id: string | null }
  | { op: 'use'; id: string }
  | { op: 'act'; action: GatewayAction }
  | { op: 'hello' };

const TOPIC = '__DEV_FAULTS';

/**
 * The faults of a --dev server: kept rules per application, and the one-shot Gateway actions. Each node keeps a copy;
 * every change is applied here and published on the bus for the other nodes. A node that starts says hello, and the
 * others answer with the rules they hold.
 * The hooks (HTTP, Gateway dispatch, deliveries, voice) ask it about one application at a time.
 */
export class FaultBook implements DevFaults {
  private readonly rules = new Map<string, Rule>();
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private readonly voiceListeners = new Set<(table: VoiceFaultTable) => void>();
  private gateway: ((a: GatewayAction) => number) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: Ctx) {
    this.unsubscribe = ctx.bus.subscribe((e) => this.onBus(e), { remote: true });
    this.publish({ op: 'hello' });
  }

  close(): void {
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  /** The local Gateway that one-shot actions run on; returns how many of its sessions an action touched. */
  attachGateway(act: (a: GatewayAction) => number): void {
    this.gateway = act;
  }

  /** Called with the whole voice table now and on every change; returns the function that stops it. */
  onVoice(listener: (table: VoiceFaultTable) => void): () => void {
    this.voiceListeners.add(listener);
    listener(this.voiceTable());
    return () => void this.voiceListeners.delete(listener);
  }

  add(rule: Rule): void {
    this.apply({ op: 'add', rule });
  }

  delete(id: string): void {
    if (this.rules.has(id)) this.apply({ op: 'delete', id });
  }

  clear(applicationId: string | null): void {
    this.apply({ op: 'clear', application_id: applicationId });
  }

  /** Runs an action on this node's sessions and on every other node's; answers how many sessions here it reached. */
  act(action: GatewayAction): number {
    this.publish({ op: 'act', action });
    return this.gateway?.(action) ?? 0;
  }

  /** Active rules, oldest first; of one application when given. */
  list(applicationId: string | null = null): Rule[] {
    this.sweep();
    return [...this.rules.values()].filter((r) => applicationId === null || r.application_id === applicationId);
  }

  /** Whether an application has any rule of this kind (the hot paths' first, allocation-free question). */
  has(kind: RuleKind, applicationId: string): boolean {
    for (const r of this.rules.values()) if (r.kind === kind && r.application_id === applicationId) return true;
    return false;
  }

  /**
   * The first active rule of this kind for the application that `matches`, with one of its uses taken (the rule goes
   * when none is left); null when none applies.
   */
  take(kind: RuleKind, applicationId: string, matches: (params: any) => boolean = () => true): Rule | null {
    if (!this.rules.size) return null;
    const now = this.ctx.clock.now();
    for (const r of this.rules.values()) {
      if (r.kind !== kind || r.application_id !== applicationId) continue;
      if (r.expires_at !== null && now >= r.expires_at) {
        this.sweep();
        return this.take(kind, applicationId, matches);
      }
      if (!matches(r.params)) continue;
      if (r.remaining !== null) this.apply({ op: 'use', id: r.id });
      return r;
    }
    return null;
  }

  delivery(kind: DeliveryKind, applicationId: string): DeliveryFault | null {
    const rule = this.take(kind, applicationId);
    return rule ? deliveryFault(rule.params as DeliveryParams) : null;
  }

  private apply(change: Change): void {
    this.change(change);
    this.publish(change);
  }

  private publish(change: Change): void {
    this.ctx.bus.publish({ t: TOPIC, d: { origin: this.origin, ...change } });
  }

  private onBus(e: BusEvent): void {
    if (e.t === '__CLOCK_MOVED') return this.sweep();
    if (e.t !== TOPIC || e.d?.origin === this.origin) return;
    if (e.d.op === 'act') this.gateway?.(e.d.action);
    else if (e.d.op === 'hello') for (const rule of this.list()) this.publish({ op: 'add', rule });
    else this.change(e.d as Change);
  }

  private change(c: Change): void {
    const before = this.voiceKey();
    switch (c.op) {
      case 'add':
        this.rules.set(c.rule.id, { ...c.rule });
        break;
      case 'delete':
        this.rules.delete(c.id);
        break;
      case 'clear':
        for (const r of [...this.rules.values()]) if (c.application_id === null || r.application_id === c.application_id) this.rules.delete(r.id);
        break;
      case 'use': {
        const r = this.rules.get(c.id);
        if (r && r.remaining !== null && --r.remaining <= 0) this.rules.delete(r.id);
        break;
      }
      case 'act':
      case 'hello':
        break;
    }
    this.afterChange(before);
  }

  /** Drops expired rules (server clock) and sets a timer for the next expiry, so voice faults end on time too. */
  private sweep(): void {
    const before = this.voiceKey();
    const now = this.ctx.clock.now();
    for (const r of [...this.rules.values()]) if (r.expires_at !== null && now >= r.expires_at) this.rules.delete(r.id);
    this.afterChange(before);
  }

  private afterChange(voiceBefore: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = Math.min(...[...this.rules.values()].map((r) => r.expires_at ?? Infinity));
    if (Number.isFinite(next)) {
      this.timer = setTimeout(() => this.sweep(), Math.min(2 ** 31 - 1, Math.max(1, next - this.ctx.clock.now())));
      this.timer.unref();
    }
    if (this.voiceKey() !== voiceBefore) {
      const table = this.voiceTable();
      for (const l of this.voiceListeners) l(table);
    }
  }

  private voiceTable(): VoiceFaultTable {
    const table: VoiceFaultTable = {};
    for (const r of this.rules.values()) {
      if (r.kind !== 'voice' || !r.bot_user_id || table[r.bot_user_id]) continue;
      const p = r.params as VoiceParams;
      table[r.bot_user_id] = { loss: p.loss ?? 0, jitterMs: p.jitter_ms ?? 0 };
    }
    return table;
  }

  private voiceKey(): string {
    let key = '';
    for (const r of this.rules.values()) if (r.kind === 'voice') key += r.id + ',';
    return key;
  }
}
