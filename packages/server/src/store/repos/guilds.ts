import { Repo } from './repo.js';
import { toGuild } from './mappers.js';
import type { GuildRecord } from '../records.js';

/** Guilds and what hangs off the guild itself: settings, templates, vanity, widget, onboarding, welcome screen, integrations. */
export class GuildsRepo extends Repo {
  /** One guild, or null. */
  async byId(id: string): Promise<GuildRecord | null> {
    const row = await this.db.selectFrom('guilds').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toGuild(row) : null;
  }
}
