import { Repo } from './repo.js';

/** OAuth2 grants, authorization and device codes, and signing keys. */
export class OAuthRepo extends Repo {
}
