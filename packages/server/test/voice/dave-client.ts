import Davey from '@snazzah/davey';
import type { RawVoice, VoiceFrame } from './raw.js';

/**
 * The DAVE side of a voice client as @discordjs/voice drives davey, over a RawVoice socket: op 4 → session and key
 * package, op 25 external sender, op 27 proposals → op 28, op 29/30 → op 23, ops 11/13 → recognized users. Every
 * exception davey throws is recorded: in the real library it would be an uncaught exception in a socket handler.
 */
export class DaveClient {
  session: InstanceType<typeof Davey.DAVESession> | null = null;
  readonly connected = new Set<string>();
  readonly errors: string[] = [];
  readonly transitions: number[] = [];
  private version = 0;

  constructor(
    readonly raw: RawVoice,
    readonly userId: string,
    readonly channelId: string,
  ) {
    raw.ws.on('message', () => {
      const f = raw.frames[raw.frames.length - 1];
      try {
        this.onFrame(f);
      } catch (err) {
        this.errors.push(`op ${f.op}: ${(err as Error).message}`);
      }
    });
  }

  private onFrame(f: VoiceFrame): void {
    if (f.op === 11) for (const id of f.d.user_ids) this.connected.add(id);
    else if (f.op === 13) this.connected.delete(f.d.user_id);
    else if (f.op === 4) {
      this.version = f.d.dave_protocol_version;
      if (this.version > 0) this.reinit();
    } else if (f.op === 24) {
      if (f.d.epoch === 1) {
        this.version = f.d.protocol_version;
        this.reinit();
      }
    } else if (f.op === 21) {
      if (f.d.transition_id !== 0) this.raw.send(23, { transition_id: f.d.transition_id });
      else this.transitions.push(0);
    } else if (f.op === 22) this.transitions.push(f.d.transition_id);
    else if (f.binary) this.onBinary(f.op, f.payload!);
  }

  private reinit(): void {
    if (this.session) this.session.reinit(1, this.userId, this.channelId);
    else this.session = new Davey.DAVESession(1, this.userId, this.channelId);
    this.raw.sendBinary(26, this.session.getSerializedKeyPackage());
  }

  private onBinary(op: number, payload: Buffer): void {
    if (!this.session) throw new Error(`binary op ${op} before any DAVE session (NoSession)`);
    if (op === 25) this.session.setExternalSender(payload);
    else if (op === 27) {
      const res = this.session.processProposals(payload[0] as 0 | 1, payload.subarray(1), [...this.connected]);
      if (res.commit) this.raw.sendBinary(28, res.welcome ? Buffer.concat([res.commit, res.welcome]) : res.commit);
    } else if (op === 29 || op === 30) {
      const id = payload.readUInt16BE(0);
      try {
        if (op === 29) this.session.processCommit(payload.subarray(2));
        else this.session.processWelcome(payload.subarray(2));
      } catch (err) {
        this.errors.push(`op ${op}: ${(err as Error).message}`);
        this.raw.send(31, { transition_id: id });
        this.reinit();
        return;
      }
      if (id !== 0) this.raw.send(23, { transition_id: id });
    }
  }

  get privacyCode(): string {
    return this.session?.ready ? this.session.voicePrivacyCode : '';
  }
}
