import { Repo } from './repo.js';

/** Guild members and membership (joins, leaves, member rows). */
export class MembersRepo extends Repo {
}
