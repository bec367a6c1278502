import type { RouteDef } from '../router.js';
import auth from './auth.js';
import gateway from './gateway.js';
import users from './users.js';
import applications from './applications.js';
import oauth2 from './oauth2.js';

/** Every route module, in one list. A module is a `Routes` collection of thin handlers. */
const MODULES = [auth, gateway, users, applications, oauth2];

export function allRoutes(): RouteDef[] {
  return MODULES.flatMap((m) => m.defs);
}
