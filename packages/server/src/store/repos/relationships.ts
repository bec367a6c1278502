import { Repo } from './repo.js';

/** Relationships (friends, blocks, requests) and game friends. */
export class RelationshipsRepo extends Repo {
}
