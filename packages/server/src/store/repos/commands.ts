import { Repo } from './repo.js';

/** Application commands and their per-guild permissions. */
export class CommandsRepo extends Repo {
}
