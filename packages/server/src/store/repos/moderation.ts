import { Repo } from './repo.js';

/** Bans, the audit log and AutoMod rules. */
export class ModerationRepo extends Repo {
}
