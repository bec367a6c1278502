import { Repo } from './repo.js';

/** Tokens, passwords, login guards and account bans: how people and bots authenticate. */
export class AuthRepo extends Repo {
}
