import { Repo } from './repo.js';

/** Guilds and what hangs off the guild itself: settings, templates, vanity, widget, onboarding, welcome screen, integrations. */
export class GuildsRepo extends Repo {
}
