/** What the voice UI shows; replaced as a whole on each change (React reads it with useSyncExternalStore). */
export interface VoiceState {
  /** idle: not in voice; connecting: joining; connected: media flows; failed: the connection ended with `error`. */
  status: 'idle' | 'connecting' | 'connected' | 'failed';
  /** Why the connection failed or ended. */
  error: string | null;
  /** The microphone cannot be used (refused, missing); the person still hears others. */
  micError: string | null;
  guildId: string | null;
  channelId: string | null;
  muted: boolean;
  deafened: boolean;
  /** Who is speaking now (the person included). */
  speaking: ReadonlySet<string>;
  /**
   * DAVE: `required` when the call runs it (protocol version above 0), `on` once the group is keyed (it needs a second
   * member); `code` is the group's privacy code, the same on every member's screen.
   */
  e2ee: { required: boolean; on: boolean; code: string; epoch: string | null };
  inputId: string | null;
  /** The speaker ('' for the default). */
  outputId: string;
  /** Push to talk: the microphone sends only while the key is held. */
  pushToTalk: boolean;
  /** The push-to-talk key is down. */
  talking: boolean;
}

export const IDLE: VoiceState = {
  status: 'idle',
  error: null,
  micError: null,
  guildId: null,
  channelId: null,
  muted: false,
  deafened: false,
  speaking: new Set(),
  e2ee: { required: false, on: false, code: '', epoch: null },
  inputId: null,
  outputId: '',
  pushToTalk: false,
  talking: false,
};

/** Readable words for the voice gateway's close codes. */
export function closeReason(code: number, reason: string): string {
  switch (code) {
    case 4014:
      return 'You were disconnected from voice.';
    case 4017:
      return 'This call requires end-to-end encryption, which could not start in this browser.';
    case 4022:
      return 'The call ended.';
    case 4006:
    case 4009:
      return 'The voice session expired.';
    default:
      return reason ? `Voice connection lost: ${reason}` : `Voice connection lost (${code}).`;
  }
}

/** Codes are read in groups of five digits. */
export function codeChunks(code: string): string[] {
  return code.match(/.{1,5}/g) ?? [];
}
