import { Repo } from './repo.js';
import '../tables/monetization.js';

/** Outgoing webhook events: each app's configuration and the outbox. */
export class EventWebhooksRepo extends Repo {
  /** Queues one event for delivery to an app, due now (`url` instead of the app's configured URL when set); `id` names it in the delivery log. */
  async enqueue(e: { id: string; applicationId: string; type: string; body: string; url: string | null; now: number }): Promise<void> {
    await this.db.insertInto('event_webhook_outbox').values({
      id: e.id, application_id: e.applicationId, event_type: e.type, body: e.body,
      status: 'pending', attempts: 0, next_attempt_at: e.now, lease_owner: null, lease_until: null, first_attempt_at: null,
      last_attempt_at: null, last_status: null, last_error: null, created_at: e.now, delivered_at: null, url: e.url,
    }).execute();
  }

  /** Whether writes through this repository belong to an open transaction (they are visible only once it commits). */
  inTransaction(): boolean {
    return this.db.isTransaction;
  }
}
