import { Repo } from './repo.js';

/** Channel webhooks. */
export class WebhooksRepo extends Repo {
}
