import type { VoiceStates } from '../services/voice/states.js';
import type { Mode } from './media/aead.js';
import type { MediaPlane } from './media/plane.js';
import type { Room } from './room.js';
import type { VoiceSession, VoiceTransport } from './session.js';

/**
 * What a voice connection needs of the voice server that owns it. VoiceServer implements it; connections depend on
 * this interface only, so the server and its connections do not import each other.
 */
export interface VoiceHost {
  readonly rooms: Map<string, Room>;
  readonly states: VoiceStates;
  readonly media: MediaPlane;
  readonly modes: Mode[];
  /** `--voice-gcm-tables`: seal AES-GCM with the table-driven JS GHASH (see media/aead.ts for its risk). */
  readonly gcmTables: boolean;
  readonly heartbeatIntervalMs: number;
  readonly udpIp: string;
  daveRequired(): boolean;
  nextSsrc(): number;
  sessionByToken(token: string): VoiceSession | undefined;
  /** Registers the session with the media plane; the UDP port, or null when it could not. */
  admit(s: VoiceSession): Promise<number | null>;
  end(s: VoiceSession, code: number, reason?: string): void;
  /** A socket closed: a clean close ends the session, anything else keeps it resumable. */
  detach(conn: VoiceTransport & { session: VoiceSession | null }, clean: boolean): void;
}
