import type { Kysely } from 'kysely';

/**
 * The Social SDK's server half: external auth providers of an app and the external identities they vouch for,
 * provisional accounts (and the restricted ones a ban leaves), account bans, relationships (friends, requests,
 * blocks) and per-app game relationships, apps approved for communication features, app-scoped moderation metadata
 * of game DMs, and activity invites.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('external_auth_providers')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    // OIDC, DEVICE_ID, … (the partner-sdk `external_auth_type` names)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text')
    // The client id ID tokens must be issued to (`aud`).
    .addColumn('audience', 'text')
    .addColumn('jwks_uri', 'text')
    .addColumn('algorithms', 'text')
    // 1: created or edited under the strict issuer rules; 0: an integration from before them, kept until edited.
    .addColumn('strict', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('external_auth_providers_app').ifNotExists().on('external_auth_providers').columns(['application_id', 'type']).execute();

  await db.schema
    .createTable('external_identities')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('provider_type', 'text', (c) => c.notNull())
    // The provider's user id (OIDC: `iss` + `sub`), as the provider spells it.
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('external_identities_pk', ['application_id', 'provider_type', 'external_id'])
    .execute();
  await db.schema.createIndex('external_identities_user').ifNotExists().on('external_identities').columns(['user_id', 'application_id']).execute();

  await db.schema
    .createTable('provisional_accounts')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    // A restricted account is what a ban leaves of a merged identity: it cannot merge until the ban lifts.
    .addColumn('banned_user_id', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_bans')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('relationships')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('other_id', 'bigint', (c) => c.notNull())
    // FRIEND 1, BLOCKED 2, PENDING_INCOMING 3, PENDING_OUTGOING 4 (as `user_id` sees `other_id`)
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('nickname', 'text')
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('relationships_pk', ['user_id', 'other_id'])
    .execute();
  await db.schema.createIndex('relationships_other').ifNotExists().on('relationships').columns(['other_id', 'user_id']).execute();

  await db.schema
    .createTable('game_relationships')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('other_id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('game_relationships_pk', ['application_id', 'user_id', 'other_id'])
    .execute();
  await db.schema.createIndex('game_relationships_user').ifNotExists().on('game_relationships').columns(['user_id', 'application_id']).execute();

  await db.schema
    .createTable('social_sdk_approvals')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.primaryKey())
    .addColumn('approved_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('message_moderation_metadata')
    .ifNotExists()
    .addColumn('message_id', 'bigint', (c) => c.notNull())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_moderation_metadata_pk', ['message_id', 'application_id'])
    .execute();

  await db.schema
    .createTable('activity_invites')
    .ifNotExists()
    // The invite's message id.
    .addColumn('message_id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('sender_id', 'bigint', (c) => c.notNull())
    .addColumn('recipient_id', 'bigint', (c) => c.notNull())
    // JOIN 1, JOIN_REQUEST 5
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('join_secret', 'text')
    .addColumn('accepted_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_invites_recipient').ifNotExists().on('activity_invites').columns(['recipient_id', 'message_id']).execute();
}
