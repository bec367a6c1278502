import type { APIUser } from '../../lib/api/types.js';
import type { GuildState } from '../../lib/state/guild-state.js';
import type { SettingsApi } from './api.js';

/** What every settings section is given: the server as the store has it, the person, and the API calls. */
export interface SectionProps {
  guild: GuildState;
  me: APIUser;
  api: SettingsApi;
}
