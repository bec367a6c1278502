import { Repo } from './repo.js';

/** Provisional accounts and external identities (the Social SDK's sign-in). */
export class ProvisionalRepo extends Repo {
}
