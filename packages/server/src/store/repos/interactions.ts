import { Repo } from './repo.js';

/** Interactions, their tokens, responses and follow-ups. */
export class InteractionsRepo extends Repo {
}
