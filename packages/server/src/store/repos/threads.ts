import { Repo } from './repo.js';

/** Threads and thread members. */
export class ThreadsRepo extends Repo {
}
