import { Repo } from './repo.js';

/** Applications, their bots, installs to guilds and users, and role connections. */
export class ApplicationsRepo extends Repo {
}
