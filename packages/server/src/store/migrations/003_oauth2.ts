import type { Kysely } from 'kysely';

/**
 * OAuth2 support: the server's own signing keys (ID tokens, published at /oauth2/keys) and guild installs of an app
 * (a bot install, or an `applications.commands`-only install with integration_type 0), one row per app and guild.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_keys')
    .ifNotExists()
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('application_guild_installs')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('application_guild_installs_pk', ['application_id', 'guild_id'])
    .execute();
  await db.schema.createIndex('application_guild_installs_guild').ifNotExists().on('application_guild_installs').column('guild_id').execute();
  await db.schema.createIndex('oauth_codes_owner').ifNotExists().on('oauth_codes').columns(['application_id', 'user_id']).execute();
  await db.schema.createIndex('tokens_application').ifNotExists().on('tokens').columns(['application_id', 'user_id']).execute();
}
