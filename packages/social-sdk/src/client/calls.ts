/** Lobby calls, on the voice engine the entry registers (Node: UDP and Opus; browsers: WebRTC). */
import { ErrorType, LoggingSeverity } from '../enums.js';
import { ClientResult } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import type { CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback } from '../voice/types.js';
import { AudioClient } from './audio.js';

export abstract class CallsClient extends AudioClient {
  protected liveCalls(): CallLike[] {
    return [...this.calls.values()];
  }

  /** Joins the call of a lobby the user is in; null when already in it. */
  startCall(lobbyId: SnowflakeInput): CallLike | null {
    return this.startCallWithAudioCallbacks(lobbyId);
  }

  /** A call whose received PCM goes to `received` (per user) and whose captured PCM passes `captured` before sending. */
  startCallWithAudioCallbacks(lobbyId: SnowflakeInput, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): CallLike | null {
    const id = snowflake(lobbyId);
    const engine = this.voiceEngine;
    if (!engine) throw new ClientResult(ErrorType.Disabled, 'this build has no voice engine (Client.useVoiceEngine)');
    const me = this.requireReady('startCall');
    if (this.calls.has(id)) return null;
    const call = engine.createCall(
      {
        userId: me,
        voiceCa: this.opts.voiceCa,
        settings: this.settings,
        audio: this.audio,
        inputDetected: (detected) => this.onInputDetected(detected),
        sendLobbyVoiceState: (d) => this.gateway.send(17, d),
        log: (m, s) => this.voiceLog(m, s as LoggingSeverity),
        deliver: (fn) => this.events.deliver(fn),
      },
      id,
      received,
      captured,
    );
    this.calls.set(id, call);
    this.callDefaults(call);
    call.start();
    // Who is in the call already: the lobby's voice states this client has seen.
    for (const s of this.cache.lobbies.get(id)?.voice_states ?? []) if (s.user_id !== me && s.channel_id === id) call.onVoiceState(s);
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
