import { Repo } from './repo.js';

/** Game DMs, rich presence, activity invites and the Social SDK's limits. */
export class SocialRepo extends Repo {
}
