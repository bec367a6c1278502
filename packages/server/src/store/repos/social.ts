import { Repo } from './repo.js';
import '../tables/social.js';
import type { ActivityInvitesTable } from '../tables/social.js';

/** An activity invite: a DM message carrying an app's activity, and the join secret it hands out once. */
export type ActivityInviteRecord = ActivityInvitesTable;

/** Game DMs, rich presence, activity invites and the Social SDK's limits. */
export class SocialRepo extends Repo {
  /** Whether an app is approved for communication features (no limited access). */
  async isApproved(applicationId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('social_sdk_approvals').select('application_id').where('application_id', '=', applicationId).executeTakeFirst());
  }

  /** Approves an app for communication features (at `now`), or withdraws the approval. */
  async setApproval(applicationId: string, approved: boolean, now: number): Promise<void> {
    if (approved) {
      await this.db
        .insertInto('social_sdk_approvals')
        .values({ application_id: applicationId, approved_at: now })
        .onConflict((oc) => oc.column('application_id').doNothing())
        .execute();
    } else {
      await this.db.deleteFrom('social_sdk_approvals').where('application_id', '=', applicationId).execute();
    }
  }

  /** Records an activity invite (before its DM message is announced). */
  async insertActivityInvite(row: ActivityInvitesTable): Promise<void> {
    await this.db.insertInto('activity_invites').values(row).execute();
  }

  /** Forgets an activity invite whose message could not be sent. */
  async deleteActivityInvite(messageId: string): Promise<void> {
    await this.db.deleteFrom('activity_invites').where('message_id', '=', messageId).execute();
  }

  /** An activity invite by its message id, or null. */
  async activityInvite(messageId: string): Promise<ActivityInviteRecord | null> {
    const r = await this.db.selectFrom('activity_invites').selectAll().where('message_id', '=', messageId).executeTakeFirst();
    if (!r) return null;
    return {
      message_id: String(r.message_id),
      application_id: String(r.application_id),
      channel_id: String(r.channel_id),
      sender_id: String(r.sender_id),
      recipient_id: String(r.recipient_id),
      type: Number(r.type),
      party_id: r.party_id,
      session_id: r.session_id ?? null,
      join_secret: r.join_secret ?? null,
      accepted_at: r.accepted_at == null ? null : Number(r.accepted_at),
      created_at: Number(r.created_at),
    };
  }

  /** Marks an activity invite accepted at `now`; false when it already was. */
  async acceptActivityInvite(messageId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('activity_invites')
      .set({ accepted_at: now })
      .where('message_id', '=', messageId)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** An app's moderation metadata of a DM message, or null. */
  async dmModerationMetadata(messageId: string, applicationId: string): Promise<Record<string, string> | null> {
    const r = await this.db
      .selectFrom('message_moderation_metadata')
      .select('metadata')
      .where('message_id', '=', messageId)
      .where('application_id', '=', applicationId)
      .executeTakeFirst();
    return r ? JSON.parse(String(r.metadata)) : null;
  }

  /** Sets an app's moderation metadata of a DM message. */
  async setDmModerationMetadata(messageId: string, applicationId: string, metadata: Record<string, string>): Promise<void> {
    const values = { metadata: JSON.stringify(metadata) };
    await this.db
      .insertInto('message_moderation_metadata')
      .values({ message_id: messageId, application_id: applicationId, ...values })
      .onConflict((oc) => oc.columns(['message_id', 'application_id']).doUpdateSet(values))
      .execute();
  }
}
