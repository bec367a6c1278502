import { Repo } from './repo.js';

/** SKUs, entitlements and subscriptions. */
export class CommerceRepo extends Repo {
}
