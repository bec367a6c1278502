import { Repo } from './repo.js';

/** Activities: settings, URL mappings, instances and proxy tickets. */
export class ActivitiesRepo extends Repo {
}
