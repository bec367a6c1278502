/** Lobby calls (Node: the voice engine the Node entry registers; browsers have none). */
import { ErrorType, LoggingSeverity } from '../enums.js';
import { ClientResult } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import type { CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback, VoiceEngine } from '../voice/types.js';
import { LobbiesClient } from './lobbies.js';

export abstract class CallsClient extends LobbiesClient {
  private static engine: VoiceEngine | null = null;
  /** Registers the voice engine (the Node entry does; browsers have none). */
  static useVoiceEngine(engine: VoiceEngine | null): void {
    CallsClient.engine = engine;
  }

  /** Joins the call of a lobby the user is in; null when already in it. */
  startCall(lobbyId: SnowflakeInput): CallLike | null {
    return this.startCallWithAudioCallbacks(lobbyId);
  }

  /** A call whose received PCM goes to `received` (per user) and whose captured PCM passes `captured` before sending. */
  startCallWithAudioCallbacks(lobbyId: SnowflakeInput, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): CallLike | null {
    const id = snowflake(lobbyId);
    if (!CallsClient.engine) throw new ClientResult(ErrorType.Disabled, 'calls are available in Node only (this build has no voice engine)');
    const me = this.requireReady('startCall');
    if (this.calls.has(id)) return null;
    const call = CallsClient.engine.createCall(
      {
        userId: me,
        voiceCa: this.opts.voiceCa,
        settings: this.settings,
        sendLobbyVoiceState: (d) => this.gateway.send(17, d),
        log: (m, s) => this.voiceLog(m, s as LoggingSeverity),
        deliver: (fn) => this.events.deliver(fn),
      },
      id,
      received,
      captured,
    );
    this.calls.set(id, call);
    call.start();
    return call;
  }

  endCall(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      await this.calls.get(id)?.end();
      this.calls.delete(id);
    });
  }

  endCalls(): Promise<void> {
    return this.op(async () => {
      await Promise.all([...this.calls.values()].map((c) => c.end()));
      this.calls.clear();
    });
  }

  getCall(lobbyId: SnowflakeInput): CallLike | undefined {
    return this.calls.get(snowflake(lobbyId));
  }
  getCalls(): CallLike[] {
    return [...this.calls.values()];
  }
  setVoiceParticipantChangedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake, added: boolean) => void) | null): void {
    this.events.setSlot('voiceParticipantChanged', cb && ((e) => cb(e.lobbyId, e.memberId, e.added)));
  }

  /** @internal */ handleLobbyVoiceState(d: any): void {
    const lobby = this.cache.lobbies.get(d.lobby_id);
    if (lobby) {
      const states: any[] = (lobby.voice_states ?? []).filter((s: any) => s.user_id !== d.user_id);
      const before = (lobby.voice_states ?? []).some((s: any) => s.user_id === d.user_id);
      if (d.channel_id) states.push(d);
      lobby.voice_states = states;
      if (before !== !!d.channel_id) this.events.emit('voiceParticipantChanged', { lobbyId: d.lobby_id, memberId: d.user_id, added: !!d.channel_id });
    }
    this.calls.get(d.lobby_id)?.onVoiceState(d);
  }

  /** @internal */ handleLobbyVoiceServer(d: any): void {
    this.calls.get(d.lobby_id)?.onVoiceServer(d);
  }
}
