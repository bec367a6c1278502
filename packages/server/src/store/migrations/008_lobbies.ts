import type { Kysely } from 'kysely';

/**
 * Social SDK lobbies: the lobby (with its create-or-join secret, idle deadline and linked guild channel), its members,
 * and its messages. Lobby messages live in their own table, keyed by the message id; while a guild channel is linked,
 * a lobby message and its guild copy share one id and `channel_id` is the linked channel's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('lobbies')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    // PUT /lobbies: the secret members join by (null for POST /lobbies lobbies and after the secret expired).
    .addColumn('secret', 'text')
    .addColumn('secret_expires_at', 'bigint')
    // 1 when made by PUT /lobbies: only those lobbies can be joined and left by SDK clients.
    .addColumn('by_secret', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('idle_timeout_seconds', 'integer', (c) => c.notNull())
    // When the lobby goes away unless a member is connected or something happens in it before.
    .addColumn('idle_deadline', 'bigint', (c) => c.notNull())
    .addColumn('override_event_webhooks_url', 'text')
    .addColumn('linked_channel_id', 'bigint')
    .addColumn('linked_guild_id', 'bigint')
    .addColumn('linked_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lobbies_secret').ifNotExists().unique().on('lobbies').columns(['application_id', 'secret']).execute();
  await db.schema.createIndex('lobbies_idle').ifNotExists().on('lobbies').column('idle_deadline').execute();
  await db.schema.createIndex('lobbies_linked_channel').ifNotExists().unique().on('lobbies').column('linked_channel_id').execute();

  await db.schema
    .createTable('lobby_members')
    .ifNotExists()
    .addColumn('lobby_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('additional_name', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('lobby_members_pk', ['lobby_id', 'user_id'])
    .execute();
  await db.schema.createIndex('lobby_members_user').ifNotExists().on('lobby_members').columns(['user_id', 'lobby_id']).execute();

  await db.schema
    .createTable('lobby_messages')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('lobby_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('author_id', 'bigint', (c) => c.notNull())
    .addColumn('application_id', 'bigint')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('moderation_metadata', 'text')
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('edited_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lobby_messages_lobby').ifNotExists().on('lobby_messages').columns(['lobby_id', 'id']).execute();
}
