import { Repo } from './repo.js';

/** Invites and their target users. */
export class InvitesRepo extends Repo {
}
