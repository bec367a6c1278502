import { Repo } from './repo.js';

/** Lobbies, their members, messages and linked channels. */
export class LobbiesRepo extends Repo {
}
