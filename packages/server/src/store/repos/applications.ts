import { Repo } from './repo.js';
import { toApplication } from './mappers.js';
import type { ApplicationRecord } from '../records.js';

/** Applications, their bots, installs to guilds and users, and role connections. */
export class ApplicationsRepo extends Repo {
  /** One application, or null. */
  async byId(id: string): Promise<ApplicationRecord | null> {
    const row = await this.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApplication(row) : null;
  }

  /** The application whose bot user this is, or null. */
  async ofBot(botUserId: string): Promise<ApplicationRecord | null> {
    const row = await this.db.selectFrom('applications').selectAll().where('bot_user_id', '=', botUserId).executeTakeFirst();
    return row ? toApplication(row) : null;
  }

  /** The applications whose bot user is a member of a guild, by id. */
  async withBotInGuild(guildId: string): Promise<ApplicationRecord[]> {
    const rows = await this.db.selectFrom('applications').innerJoin('members', 'members.user_id', 'applications.bot_user_id')
      .selectAll('applications').where('members.guild_id', '=', guildId).orderBy('applications.id').execute();
    return rows.map(toApplication);
  }

  /** The applications a user installed to their account (user install, integration type 1), by id. */
  async installedByUser(userId: string): Promise<ApplicationRecord[]> {
    const rows = await this.db.selectFrom('applications').innerJoin('oauth_grants', 'oauth_grants.application_id', 'applications.id')
      .selectAll('applications').where('oauth_grants.user_id', '=', userId).where('oauth_grants.integration_type', '=', 1)
      .orderBy('applications.id').execute();
    return rows.map(toApplication);
  }

  /** Whether a user installed an application to their account (integration type 1). */
  async isInstalledByUser(applicationId: string, userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('oauth_grants').select('integration_type')
      .where('application_id', '=', applicationId).where('user_id', '=', userId).where('integration_type', '=', 1).executeTakeFirst();
    return !!row;
  }

  /** An application's Ed25519 private key (PKCS#8 DER, base64), or null when it has none. */
  async signingKeyOf(applicationId: string): Promise<string | null> {
    const row = await this.db.selectFrom('applications').select('signing_key').where('id', '=', applicationId).executeTakeFirst();
    return row?.signing_key || null;
  }
}
