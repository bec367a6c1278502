import { Repo } from './repo.js';

/** Guild scheduled events and their subscribers. */
export class ScheduledEventsRepo extends Repo {

  /** Deletes every scheduled event of a guild with its subscribers, exceptions and cover images. */
  async deleteInGuild(guildId: string): Promise<void> {
    const ids = (await this.db.selectFrom('scheduled_events').select('id').where('guild_id', '=', guildId).execute()).map((r) => String(r.id));
    if (!ids.length) return;
    await this.db.deleteFrom('scheduled_event_users').where('event_id', 'in', ids).execute();
    await this.db.deleteFrom('scheduled_event_exceptions').where('event_id', 'in', ids).execute();
    await this.db.deleteFrom('expression_assets').where('id', 'in', ids).execute();
    await this.db.deleteFrom('scheduled_events').where('id', 'in', ids).execute();
  }
}
