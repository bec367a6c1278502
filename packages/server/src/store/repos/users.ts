import { Repo } from './repo.js';

/** Users and their profiles. */
export class UsersRepo extends Repo {
}
