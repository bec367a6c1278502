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

  /** Deletes every app install record of a guild. */
  async deleteInstallsIn(guildId: string): Promise<void> {
    await this.db.deleteFrom('application_guild_installs').where('guild_id', '=', guildId).execute();
  }

  /** A guild's app install records (who installed which app, with which scopes). */
  async installsIn(guildId: string): Promise<{ application_id: string; user_id: string; scopes: string; created_at: number }[]> {
    const rows = await this.db.selectFrom('application_guild_installs').selectAll().where('guild_id', '=', guildId).execute();
    return rows.map((r) => ({ application_id: String(r.application_id), user_id: String(r.user_id), scopes: String(r.scopes), created_at: Number(r.created_at) }));
  }

  /** The applications whose bot is a member of this guild. */
  async botsIn(guildId: string): Promise<ApplicationRecord[]> {
    const rows = await this.db.selectFrom('applications').innerJoin('members', 'members.user_id', 'applications.bot_user_id')
      .selectAll('applications').where('members.guild_id', '=', guildId).execute();
    return rows.map(toApplication);
  }

  /** The applications among `ids` that exist, in no particular order. */
  async listByIds(ids: string[]): Promise<ApplicationRecord[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('applications').selectAll().where('id', 'in', ids).execute()).map(toApplication);
  }

  /** Deletes the install record of an app in a guild. */
  async deleteInstall(applicationId: string, guildId: string): Promise<void> {
    await this.db.deleteFrom('application_guild_installs').where('application_id', '=', applicationId).where('guild_id', '=', guildId).execute();
  }

  /** The id of the application that is `idOrBot` or whose bot user it is, or null. */
  async idOfAppOrBot(idOrBot: string): Promise<string | null> {
    const app = await this.db.selectFrom('applications').select('id')
      .where((eb) => eb.or([eb('id', '=', idOrBot), eb('bot_user_id', '=', idOrBot)])).executeTakeFirst();
    return app ? String(app.id) : null;
  }
}
