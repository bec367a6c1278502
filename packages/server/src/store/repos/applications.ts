import { Repo } from './repo.js';
import { toApplication } from './mappers.js';
import type { ApplicationRecord } from '../records.js';
import '../tables/role-connections.js';
import '../tables/app-testers.js';

/** A tester of an app: 1 invited, 2 accepted. */
export type AppTester = { application_id: string; user_id: string; state: 1 | 2; created_at: number };
const toTester = (r: { application_id: unknown; user_id: unknown; state: number; created_at: unknown }): AppTester => ({
  application_id: String(r.application_id),
  user_id: String(r.user_id),
  state: r.state === 2 ? 2 : 1,
  created_at: Number(r.created_at),
});

/** Applications, their bots, installs to guilds and users, role connections and testers. */
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
    const rows = await this.db
      .selectFrom('applications')
      .innerJoin('members', 'members.user_id', 'applications.bot_user_id')
      .selectAll('applications')
      .where('members.guild_id', '=', guildId)
      .orderBy('applications.id')
      .execute();
    return rows.map(toApplication);
  }

  /** The applications a user installed to their account (user install, integration type 1), by id. */
  async installedByUser(userId: string): Promise<ApplicationRecord[]> {
    const rows = await this.db
      .selectFrom('applications')
      .innerJoin('oauth_grants', 'oauth_grants.application_id', 'applications.id')
      .selectAll('applications')
      .where('oauth_grants.user_id', '=', userId)
      .where('oauth_grants.integration_type', '=', 1)
      .orderBy('applications.id')
      .execute();
    return rows.map(toApplication);
  }

  /** Whether a user installed an application to their account (integration type 1). */
  async isInstalledByUser(applicationId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('oauth_grants')
      .select('integration_type')
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .where('integration_type', '=', 1)
      .executeTakeFirst();
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
    return rows.map((r) => ({
      application_id: String(r.application_id),
      user_id: String(r.user_id),
      scopes: String(r.scopes),
      created_at: Number(r.created_at),
    }));
  }

  /** The applications whose bot is a member of this guild. */
  async botsIn(guildId: string): Promise<ApplicationRecord[]> {
    const rows = await this.db
      .selectFrom('applications')
      .innerJoin('members', 'members.user_id', 'applications.bot_user_id')
      .selectAll('applications')
      .where('members.guild_id', '=', guildId)
      .execute();
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
    const app = await this.db
      .selectFrom('applications')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', idOrBot), eb('bot_user_id', '=', idOrBot)]))
      .executeTakeFirst();
    return app ? String(app.id) : null;
  }

  /** How many applications a user owns. */
  async countOwnedBy(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('applications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Inserts an application with its secrets (the ed25519 signing key and the client secret's hash). */
  async insert(app: ApplicationRecord, secrets: { signing_key: string; client_secret_hash: string }): Promise<void> {
    await this.db
      .insertInto('applications')
      .values({
        ...app,
        flags: app.flags.toString(),
        bot_public: app.bot_public ? 1 : 0,
        bot_require_code_grant: app.bot_require_code_grant ? 1 : 0,
        redirect_uris: JSON.stringify(app.redirect_uris),
        extra: JSON.stringify(app.extra),
        ...secrets,
      })
      .execute();
  }

  /** The hash of an application's client secret, or null when there is no such application. */
  async clientSecretHash(id: string): Promise<string | null> {
    const row = await this.db.selectFrom('applications').select('client_secret_hash').where('id', '=', id).executeTakeFirst();
    return row ? row.client_secret_hash : null;
  }

  /** Replaces the hash of an application's client secret. */
  async setClientSecretHash(id: string, hash: string): Promise<void> {
    await this.db.updateTable('applications').set({ client_secret_hash: hash }).where('id', '=', id).execute();
  }

  /** Applies a partial of stored columns (flags as a decimal string, booleans as 0/1, JSON columns as text). */
  async update(id: string, values: Record<string, unknown>): Promise<void> {
    if (!Object.keys(values).length) return;
    await this.db
      .updateTable('applications')
      .set(values as any)
      .where('id', '=', id)
      .execute();
  }

  /** The app's linked-roles metadata records as stored (JSON text), or null. */
  async roleConnectionMetadata(applicationId: string): Promise<string | null> {
    const row = await this.db.selectFrom('role_connection_metadata').select('records').where('application_id', '=', applicationId).executeTakeFirst();
    return row ? row.records : null;
  }

  /** Replaces the app's linked-roles metadata records (JSON text). */
  async putRoleConnectionMetadata(applicationId: string, records: string, now: number): Promise<void> {
    await this.db
      .insertInto('role_connection_metadata')
      .values({ application_id: applicationId, records, updated_at: now })
      .onConflict((oc) => oc.column('application_id').doUpdateSet({ records, updated_at: now }))
      .execute();
  }

  /** A user's role connection to an app (metadata as JSON text), or null. */
  async userRoleConnection(
    userId: string,
    applicationId: string,
  ): Promise<{ platform_name: string | null; platform_username: string | null; metadata: string } | null> {
    const row = await this.db
      .selectFrom('user_role_connections')
      .selectAll()
      .where('user_id', '=', userId)
      .where('application_id', '=', applicationId)
      .executeTakeFirst();
    return row ? { platform_name: row.platform_name, platform_username: row.platform_username, metadata: row.metadata } : null;
  }

  /** Creates or replaces a user's role connection to an app. */
  async putUserRoleConnection(
    userId: string,
    applicationId: string,
    row: { platform_name: string | null; platform_username: string | null; metadata: string; updated_at: number },
  ): Promise<void> {
    await this.db
      .insertInto('user_role_connections')
      .values({ user_id: userId, application_id: applicationId, ...row })
      .onConflict((oc) => oc.columns(['user_id', 'application_id']).doUpdateSet(row))
      .execute();
  }

  /** Removes a user's role connection to an app (idempotent). */
  async deleteUserRoleConnection(userId: string, applicationId: string): Promise<void> {
    await this.db.deleteFrom('user_role_connections').where('user_id', '=', userId).where('application_id', '=', applicationId).execute();
  }

  /** The scopes (space-separated) an app was installed with in a guild, or null when it was not. */
  async guildInstallScopes(applicationId: string, guildId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('application_guild_installs')
      .select('scopes')
      .where('application_id', '=', applicationId)
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return row ? row.scopes : null;
  }

  /** Records an app's install in a guild, or replaces the scopes of an existing one. */
  async putGuildInstall(applicationId: string, guildId: string, userId: string, scopes: string, now: number): Promise<void> {
    await this.db
      .insertInto('application_guild_installs')
      .values({ application_id: applicationId, guild_id: guildId, user_id: userId, scopes, created_at: now })
      .onConflict((oc) => oc.columns(['application_id', 'guild_id']).doUpdateSet({ scopes }))
      .execute();
  }

  /**
   * How many guilds an app is installed in: those its bot is a member of, and those it was installed in with
   * `applications.commands` (a whole word of the space-separated scopes), each guild once.
   */
  async installedGuildCount(applicationId: string, botUserId: string | null): Promise<number> {
    const commands = this.db
      .selectFrom('application_guild_installs')
      .select('guild_id')
      .where('application_id', '=', applicationId)
      .where((eb) =>
        eb.or([
          eb('scopes', '=', 'applications.commands'),
          eb('scopes', 'like', 'applications.commands %'),
          eb('scopes', 'like', '% applications.commands'),
          eb('scopes', 'like', '% applications.commands %'),
        ]),
      );
    const all = botUserId ? commands.union(this.db.selectFrom('members').select('guild_id').where('user_id', '=', botUserId)) : commands;
    const row = await this.db
      .selectFrom(all.as('g'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The ids of the applications a user owns. */
  async idsOwnedBy(ownerId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('applications').select('id').where('owner_id', '=', ownerId).execute();
    return rows.map((r) => String(r.id));
  }

  /** Dev tools: every application (id, name, icon, bot, owner), by id. */
  async devList(): Promise<{ id: string; name: string; icon: string | null; bot_user_id: string | null; owner_id: string }[]> {
    const rows = await this.db.selectFrom('applications').select(['id', 'name', 'icon', 'bot_user_id', 'owner_id']).orderBy('id').execute();
    return rows.map((r) => ({
      id: String(r.id),
      name: r.name,
      icon: r.icon,
      bot_user_id: r.bot_user_id ? String(r.bot_user_id) : null,
      owner_id: String(r.owner_id),
    }));
  }

  /** An app's testers, oldest invitation first. */
  async testers(applicationId: string): Promise<AppTester[]> {
    const rows = await this.db
      .selectFrom('app_testers')
      .selectAll()
      .where('application_id', '=', applicationId)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
    return rows.map(toTester);
  }

  /** One person's place among an app's testers, or null. */
  async tester(applicationId: string, userId: string): Promise<AppTester | null> {
    const row = await this.db
      .selectFrom('app_testers')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toTester(row) : null;
  }

  /** Invites a tester; one already invited or accepted is left as they are. */
  async inviteTester(applicationId: string, userId: string, now: number): Promise<void> {
    await this.db
      .insertInto('app_testers')
      .values({ application_id: applicationId, user_id: userId, state: 1, created_at: now })
      .onConflict((oc) => oc.columns(['application_id', 'user_id']).doNothing())
      .execute();
  }

  /** Accepts an invitation; false when there was none. */
  async acceptTester(applicationId: string, userId: string): Promise<boolean> {
    const res = await this.db
      .updateTable('app_testers')
      .set({ state: 2 })
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Removes a tester or an invitation; false when there was none. */
  async removeTester(applicationId: string, userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('app_testers').where('application_id', '=', applicationId).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** The apps a person tests or is invited to test, by app id. */
  async testedBy(userId: string): Promise<AppTester[]> {
    const rows = await this.db.selectFrom('app_testers').selectAll().where('user_id', '=', userId).orderBy('application_id').execute();
    return rows.map(toTester);
  }
}
