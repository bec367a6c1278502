import type { Command } from '../rpc/core.js';
import { acceptActivityInvite, activityInviteUser, closeActivityRequest, sendActivityJoinInvite, setActivity } from './activity.js';
import { authenticate, authorize } from './auth.js';
import { getChannel, getChannels, getSelectedVoiceChannel, selectVoiceChannel } from './channels.js';
import { getGuild, getGuilds } from './guilds.js';
import { subscribe, unsubscribe } from './subscriptions.js';

/** Every command the local client answers; anything else is 4002 Invalid command. */
export function allCommands(): Map<string, Command> {
  return new Map<string, Command>([
    ['AUTHORIZE', authorize],
    ['AUTHENTICATE', authenticate],
    ['GET_GUILDS', getGuilds],
    ['GET_GUILD', getGuild],
    ['GET_CHANNELS', getChannels],
    ['GET_CHANNEL', getChannel],
    ['SELECT_VOICE_CHANNEL', selectVoiceChannel],
    ['GET_SELECTED_VOICE_CHANNEL', getSelectedVoiceChannel],
    ['SUBSCRIBE', subscribe],
    ['UNSUBSCRIBE', unsubscribe],
    ['SET_ACTIVITY', setActivity],
    ['SEND_ACTIVITY_JOIN_INVITE', sendActivityJoinInvite],
    ['ACTIVITY_INVITE_USER', activityInviteUser],
    ['ACCEPT_ACTIVITY_INVITE', acceptActivityInvite],
    ['CLOSE_ACTIVITY_REQUEST', closeActivityRequest],
    // The libraries send this name; the docs use the one above.
    ['CLOSE_ACTIVITY_JOIN_REQUEST', closeActivityRequest],
  ]);
}
