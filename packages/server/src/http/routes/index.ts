import type { RouteDef } from '../router.js';
import auth from './auth.js';
import gateway from './gateway.js';
import users from './users.js';
import applications from './applications.js';
import oauth2 from './oauth2.js';
import messages from './messages.js'; // with reactions, pins and typing

/** Every route module, in one list. A module is a `Routes` collection of thin handlers. */
const MODULES = [auth, gateway, users, applications, oauth2, messages];
import threads from './threads.js'; import webhooks from './webhooks.js'; MODULES.push(threads, webhooks); // threads + incoming webhooks
import guilds from './guilds.js'; import channels from './channels.js'; import roles from './roles.js'; import members from './members.js'; import bans from './bans.js'; import invites from './invites.js'; MODULES.push(guilds, channels, roles, members, bans, invites); // guild side of the HTTP core
import interactions from './interactions.js'; MODULES.push(interactions); // POST /interactions, callbacks, interaction webhooks, AutoMod rules
import commands from './commands.js'; MODULES.push(commands); // application commands, permissions, command index

export function allRoutes(): RouteDef[] {
  return MODULES.flatMap((m) => m.defs);
}
