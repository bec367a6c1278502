import { type Kysely, sql } from 'kysely';

/** Emoji, stickers, soundboard sounds (with their bytes), guild scheduled events, stage instances, audit log. */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  const t = (name: string) => db.schema.createTable(name).ifNotExists();
  const index = (name: string) => db.schema.createIndex(name).ifNotExists();

  await t('emojis')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint')
    .addColumn('application_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('emojis_guild').on('emojis').column('guild_id').execute();
  await index('emojis_application').on('emojis').column('application_id').execute();

  await t('stickers')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('format_type', 'integer', (c) => c.notNull())
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('user_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('stickers_guild').on('stickers').column('guild_id').execute();

  await t('soundboard_sounds')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('volume', sql.raw(double) as any, (c) => c.notNull().defaultTo(1))
    .addColumn('emoji_id', 'bigint')
    .addColumn('emoji_name', 'text')
    .addColumn('user_id', 'bigint')
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('soundboard_sounds_guild').on('soundboard_sounds').column('guild_id').execute();

  await t('expression_assets')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('hash', 'text')
    .addColumn('data', sql.raw(blob) as any, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await t('scheduled_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint')
    .addColumn('creator_id', 'bigint')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('scheduled_start_time', 'bigint', (c) => c.notNull())
    .addColumn('scheduled_end_time', 'bigint')
    .addColumn('privacy_level', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('entity_type', 'integer', (c) => c.notNull())
    .addColumn('entity_id', 'bigint')
    .addColumn('entity_metadata', 'text')
    .addColumn('image', 'text')
    .addColumn('recurrence_rule', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('scheduled_events_guild').on('scheduled_events').column('guild_id').execute();

  await t('scheduled_event_users')
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('exception_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('scheduled_event_users_pk', ['event_id', 'exception_id', 'user_id'])
    .execute();

  await t('scheduled_event_exceptions')
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('exception_id', 'bigint', (c) => c.notNull())
    .addColumn('scheduled_start_time', 'bigint')
    .addColumn('scheduled_end_time', 'bigint')
    .addColumn('is_canceled', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('scheduled_event_exceptions_pk', ['event_id', 'exception_id'])
    .execute();

  await t('stage_instances')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('privacy_level', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('discoverable_disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('guild_scheduled_event_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('stage_instances_channel').unique().on('stage_instances').column('channel_id').execute();
  await index('stage_instances_guild').on('stage_instances').column('guild_id').execute();

  await t('audit_log_entries')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('target_id', 'text')
    .addColumn('action_type', 'integer', (c) => c.notNull())
    .addColumn('changes', 'text')
    .addColumn('options', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await index('audit_log_entries_guild').on('audit_log_entries').columns(['guild_id', 'id']).execute();
}
