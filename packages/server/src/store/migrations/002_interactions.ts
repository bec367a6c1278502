import type { Kysely } from 'kysely';

/** Applications' commands and interactions, OAuth2 grants and codes, and a minimal AutoMod rule store. */
export async function up(db: Kysely<any>): Promise<void> {
  const t = (name: string) => db.schema.createTable(name).ifNotExists();

  await t('application_commands')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint')
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('application_commands_scope').ifNotExists().on('application_commands').columns(['application_id', 'guild_id']).execute();

  await t('command_permissions')
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('command_id', 'bigint', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('command_permissions_pk', ['application_id', 'guild_id', 'command_id'])
    .execute();

  await t('interactions')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint')
    .addColumn('channel_id', 'bigint')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('original_message_id', 'bigint')
    .addColumn('followups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('interactions_token').ifNotExists().on('interactions').column('token_hash').execute();

  await t('oauth_grants')
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('integration_type', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_grants_pk', ['application_id', 'user_id'])
    .execute();

  await t('oauth_codes')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await t('automod_rules')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('creator_id', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('automod_rules_guild').ifNotExists().on('automod_rules').column('guild_id').execute();
}
