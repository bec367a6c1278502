import { Repo } from './repo.js';

/** Guild scheduled events and their subscribers. */
export class ScheduledEventsRepo extends Repo {
}
