/** One user's connection to a voice channel of a guild (ephemeral: never stored in the database). */
export interface VoiceStateRecord {
  guild_id: string;
  channel_id: string;
  user_id: string;
  /** The main-gateway session that joined. */
  session_id: string;
  deaf: boolean;
  mute: boolean;
  self_deaf: boolean;
  self_mute: boolean;
  self_stream: boolean;
  self_video: boolean;
  suppress: boolean;
  request_to_speak_timestamp: string | null;
  /** A DM or group-DM call (calls.ts): `guild_id` is then the channel id, and guild voice leaves the state alone. */
  call?: boolean;
}

/** What the voice gateway accepts at Identify: a token minted for one (user, guild, channel, gateway session). */
export interface VoiceGrant {
  token: string;
  userId: string;
  guildId: string;
  channelId: string;
  sessionId: string;
  /** A lobby call (services/social/lobbies/voice.ts): `guildId` and `channelId` are the lobby id; no guild permissions apply. */
  lobby?: boolean;
  /** A DM or group-DM call (calls.ts): `guildId` and `channelId` are the DM channel's id; every recipient may speak. */
  call?: boolean;
}

/**
 * Where voice states and voice tokens live. In memory for one process; every method is a keyed read or write and
 * returns a promise, so the Redis implementation (`redis-store.ts`, distributed mode) replaces it without touching
 * the callers.
 */
export interface VoiceStateStore {
  /** The state of a user in a guild, if connected. */
  get(guildId: string, userId: string): Promise<VoiceStateRecord | undefined>;
  /** Creates or replaces a user's state. */
  set(state: VoiceStateRecord): Promise<void>;
  /** Forgets a user's state in a guild. */
  delete(guildId: string, userId: string): Promise<void>;
  /** Every state of a guild (GUILD_CREATE). */
  inGuild(guildId: string): Promise<VoiceStateRecord[]>;
  /** Every state in one channel (user limits, start time). */
  inChannel(channelId: string): Promise<VoiceStateRecord[]>;
  /** States joined by one gateway session (cleanup when it ends). */
  bySession(sessionId: string): Promise<VoiceStateRecord[]>;
  /** Stores a voice token, replacing any earlier token of the same user in the same guild. */
  putGrant(grant: VoiceGrant): Promise<void>;
  /** The grant behind a voice token. */
  grant(token: string): Promise<VoiceGrant | undefined>;
  /** Revokes the voice tokens of a user in a guild. */
  revokeGrants(guildId: string, userId: string): Promise<void>;
}
