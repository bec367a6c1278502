import { Repo } from './repo.js';

/** Outgoing webhook events: each app's configuration and the outbox. */
export class EventWebhooksRepo extends Repo {
}
