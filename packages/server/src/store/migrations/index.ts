import type { Kysely } from 'kysely';
import * as m001 from './001_core.js';
import * as m002 from './002_interactions.js';
import * as m003 from './003_oauth2.js';
import * as m004 from './004_expressions_events.js';
import * as m005 from './005_guild_extras.js';
import * as m006 from './006_monetization.js';
import * as m008 from './008_lobbies.js';
import * as m009 from './009_role_connections.js';
import * as m015 from './015_fidelity.js';
import * as m016 from './016_social_sdk.js';
import * as m017 from './017_activity_instances.js';
import * as m018 from './018_fidelity_open_items.js';
import * as m019 from './019_message_nonces.js';
import * as m020 from './020_read_states.js';
import * as m021 from './021_user_images.js';
import * as m022 from './022_guild_images.js';
import * as m023 from './023_app_testers.js';

export type Migration = { up: (db: Kysely<any>, dialect: 'sqlite' | 'postgres') => Promise<void> };

/**
 * Every migration, in order. Applied ones are recorded by name in accord_migrations, so names never change; a new
 * migration is a new file plus one line here (a static list keeps the server bundleable).
 */
export const MIGRATIONS: [string, Migration][] = [
  ['001_core', m001],
  ['002_interactions', m002],
  ['003_oauth2', m003],
  ['004_expressions_events', m004],
  ['005_guild_extras', m005],
  ['006_monetization', m006],
  ['008_lobbies', m008],
  ['009_role_connections', m009],
  ['015_fidelity', m015],
  ['016_social_sdk', m016],
  ['017_activity_instances', m017],
  ['018_fidelity_open_items', m018],
  ['019_message_nonces', m019],
  ['020_read_states', m020],
  ['021_user_images', m021],
  ['022_guild_images', m022],
  ['023_app_testers', m023],
];
