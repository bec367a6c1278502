import { Repo } from './repo.js';

/** Guild roles. */
export class RolesRepo extends Repo {
}
