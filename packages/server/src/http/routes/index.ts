import type { RouteDef } from '../router.js';
import auth from './auth.js';
import gateway from './gateway.js';
import users from './users.js';
import applications from './applications.js';
import oauth2 from './oauth2.js';
import messages from './messages.js'; // with reactions, pins and typing

/** Every route module, in one list. A module is a `Routes` collection of thin handlers. */
const MODULES = [auth, gateway, users, applications, oauth2, messages];
import threads from './threads.js';
import webhooks from './webhooks.js';
MODULES.push(threads, webhooks); // threads + incoming webhooks
import guilds from './guilds.js';
import channels from './channels.js';
import roles from './roles.js';
import members from './members.js';
import bans from './bans.js';
import invites from './invites.js';
MODULES.push(guilds, channels, roles, members, bans, invites); // guild side of the HTTP core
import interactions from './interactions.js';
MODULES.push(interactions); // POST /interactions, callbacks, interaction webhooks, AutoMod rules
import commands from './commands.js';
MODULES.push(commands); // application commands, permissions, command index
import channelCommandIndex from './channel-command-index.js';
MODULES.push(channelCommandIndex); // the picker's index in DMs and group DMs (web client)
import monetization from './monetization.js';
import eventWebhooks from './event-webhooks.js';
MODULES.push(monetization, eventWebhooks); // SKUs, entitlements, subscriptions, store; webhook-event delivery log
import guildExtras from './guild-extras.js';
MODULES.push(guildExtras); // templates, welcome, onboarding, widget, vanity, prune, regions, search, polls, crosspost, followers, voice status, connections, guild tags
import resources from './resources.js';
MODULES.push(resources); // emoji, stickers, soundboard, scheduled events, stage instances, audit log, AutoMod edits, integrations

import smallReads from './small-reads.js';
MODULES.push(smallReads); // guild preview, new-member welcome, join requests, thread search
import voice from './voice.js';
MODULES.push(voice); // voice states over HTTP, stage speaker controls, send soundboard sound
import lobbies from './lobbies.js';
import roleConnections from './role-connections.js';
import groupDms from './group-dms.js';
MODULES.push(lobbies, roleConnections, groupDms); // Social SDK lobbies, linked-roles role connections, group DM recipients
import partnerSdk from './partner-sdk.js';
import relationships from './relationships.js';
import gameDms from './game-dms.js';
import socialReads from './social-reads.js';
MODULES.push(partnerSdk, relationships, gameDms, socialReads); // Social SDK: provisional accounts, relationships, game DMs, activity invites
import activities from './activities.js';
MODULES.push(activities); // Activities: launch, leave, instances, proxy tickets, Activity settings
import appTesters from './app-testers.js';
MODULES.push(appTesters); // App testers: the owner's list, the invitee's accept and leave
import readStates from './read-states.js';
MODULES.push(readStates); // read states: message acks (people only)
export function allRoutes(): RouteDef[] {
  return MODULES.flatMap((m) => m.defs);
}
