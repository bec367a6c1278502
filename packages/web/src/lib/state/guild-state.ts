import type { APIGuildMember, APIRole, Channel, GatewayVoiceState, Snowflake } from '../api/types.js';

/** One guild as the client knows it (a module of its own: pure code such as permissions imports it without React). */
export interface GuildState {
  id: Snowflake;
  name: string;
  icon: string | null;
  ownerId: Snowflake;
  memberCount: number;
  roles: Map<Snowflake, APIRole>;
  /** Channels and threads of the guild the person can see. */
  channels: Map<Snowflake, Channel>;
  members: Map<Snowflake, APIGuildMember>;
  voiceStates: Map<Snowflake, GatewayVoiceState>;
  emojis: { id: Snowflake; name: string; animated?: boolean }[];
  systemChannelId: Snowflake | null;
  unavailable: boolean;
}
