import type { Kysely } from 'kysely';

/**
 * Guild extras and the HTTP rules of issue 4: guild settings (welcome screen, onboarding, widget, guild tag, search
 * index), vanity codes, templates, poll votes, user connections, invite target users and roles, channel followers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = (name: string) => db.schema.createTable(name).ifNotExists();

  await t('guild_settings')
    .addColumn('guild_id', 'bigint', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await t('guild_vanity')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('guild_vanity_guild').ifNotExists().unique().on('guild_vanity').column('guild_id').execute();

  await t('guild_templates')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('creator_id', 'bigint', (c) => c.notNull())
    .addColumn('usage_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('dirty', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guild_templates_guild').ifNotExists().on('guild_templates').column('guild_id').execute();

  await t('poll_votes')
    .addColumn('message_id', 'bigint', (c) => c.notNull())
    .addColumn('answer_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_votes_pk', ['message_id', 'answer_id', 'user_id'])
    .execute();

  await t('user_connections')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('friend_sync', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('show_activity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('two_way_link', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_connections_pk', ['user_id', 'type', 'account_id'])
    .execute();

  await t('invite_targets')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('invite_targets_pk', ['code', 'user_id'])
    .execute();

  await t('invite_meta')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('role_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('targeted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job', 'text')
    .execute();

  await t('channel_followers')
    .addColumn('webhook_id', 'bigint', (c) => c.primaryKey())
    .addColumn('source_channel_id', 'bigint', (c) => c.notNull())
    .addColumn('source_guild_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('channel_followers_source').ifNotExists().on('channel_followers').column('source_channel_id').execute();
}
