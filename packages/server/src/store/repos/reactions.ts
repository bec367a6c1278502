import { Repo } from './repo.js';

/** Message reactions. */
export class ReactionsRepo extends Repo {
}
