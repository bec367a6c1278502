import { Repo } from './repo.js';

/** Polls and their votes. */
export class PollsRepo extends Repo {
}
