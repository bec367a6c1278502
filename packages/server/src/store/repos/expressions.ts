import { Repo } from './repo.js';

/** Emojis, stickers, soundboard sounds and the asset bytes behind them. */
export class ExpressionsRepo extends Repo {

  /** Deletes a guild's emojis, stickers and soundboard sounds with their asset bytes. */
  async deleteInGuild(guildId: string): Promise<void> {
    for (const table of ['emojis', 'stickers', 'soundboard_sounds'] as const) {
      const ids = this.db.selectFrom(table).select('id').where('guild_id', '=', guildId);
      await this.db.deleteFrom('expression_assets').where('id', 'in', ids).execute();
      await this.db.deleteFrom(table).where('guild_id', '=', guildId).execute();
    }
  }
}
