import type { AppTester } from '../store/repos/applications.js';
import type { ApplicationRecord, UserRecord } from '../store/records.js';
import type { AccordPublicApplication, AccordUser } from './extensions.js';
import { publicApplication } from './application.js';
import { publicUser } from './user.js';

/** Accord's own objects (the platform's App Testers have no public API): `state` is 1 invited, 2 accepted. */
export interface AccordAppTester {
  user: AccordUser;
  state: 1 | 2;
}
export interface AccordTestedApplication {
  application: AccordPublicApplication;
  state: 1 | 2;
}

/** A tester, as the app's owner lists them. */
export function appTester(t: AppTester, user: UserRecord): AccordAppTester {
  return { user: publicUser(user), state: t.state };
}

/** An app one tests or is invited to, as the tester lists them. */
export function testedApplication(t: AppTester, app: ApplicationRecord): AccordTestedApplication {
  return { application: publicApplication(app), state: t.state };
}
