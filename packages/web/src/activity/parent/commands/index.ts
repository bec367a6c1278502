import type { CommandName } from '../protocol.js';
import type { Handler } from '../session.js';
import { authenticate, authorize } from './auth.js';
import { getChannel, getChannelPermissions, getParticipants, getUser, openInviteDialog } from './channel.js';
import {
  captureLog,
  encourageHardwareAcceleration,
  getLocale,
  getPlatformBehaviors,
  initiateImageUpload,
  openExternalLink,
  requestProxyTicketRefresh,
  setConfig,
  setOrientationLockState,
  unsupported,
} from './device.js';
import { subscribe, unsubscribe } from './events.js';
import { getRelationships, inviteUserEmbedded, openShareMomentDialog, setActivity, shareInteraction, shareLink } from './social.js';
import { getEntitlements, getSkus, startPurchase } from './store.js';

/** Every command of SDK 2.5.0 and what answers it. The compiler checks the table names each one. */
export const HANDLERS: Record<CommandName, Handler> = {
  AUTHORIZE: authorize,
  AUTHENTICATE: authenticate,
  GET_CHANNEL: getChannel,
  GET_CHANNEL_PERMISSIONS: getChannelPermissions,
  GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS: getParticipants,
  GET_USER: getUser,
  OPEN_INVITE_DIALOG: openInviteDialog,
  SET_ACTIVITY: setActivity,
  SHARE_LINK: shareLink,
  GET_RELATIONSHIPS: getRelationships,
  INVITE_USER_EMBEDDED: inviteUserEmbedded,
  SHARE_INTERACTION: shareInteraction,
  OPEN_SHARE_MOMENT_DIALOG: openShareMomentDialog,
  GET_SKUS_EMBEDDED: getSkus,
  GET_ENTITLEMENTS_EMBEDDED: getEntitlements,
  START_PURCHASE: startPurchase,
  SET_CONFIG: setConfig,
  USER_SETTINGS_GET_LOCALE: getLocale,
  ENCOURAGE_HW_ACCELERATION: encourageHardwareAcceleration,
  GET_PLATFORM_BEHAVIORS: getPlatformBehaviors,
  OPEN_EXTERNAL_LINK: openExternalLink,
  CAPTURE_LOG: captureLog,
  SET_ORIENTATION_LOCK_STATE: setOrientationLockState,
  INITIATE_IMAGE_UPLOAD: initiateImageUpload,
  REQUEST_PROXY_TICKET_REFRESH: requestProxyTicketRefresh,
  SUBSCRIBE: subscribe,
  UNSUBSCRIBE: unsubscribe,
  // Quests do not exist on this platform.
  GET_QUEST: unsupported('Quests'),
  GET_QUEST_ENROLLMENT_STATUS: unsupported('Quests'),
  QUEST_START_TIMER: unsupported('Quests'),
  // In the SDK's enum without an SDK method: the desktop RPC's commands, not an embedded frame's.
  GET_GUILDS: unsupported('GET_GUILDS'),
  GET_GUILD: unsupported('GET_GUILD'),
  GET_CHANNELS: unsupported('GET_CHANNELS'),
  SELECT_VOICE_CHANNEL: unsupported('SELECT_VOICE_CHANNEL'),
  SELECT_TEXT_CHANNEL: unsupported('SELECT_TEXT_CHANNEL'),
  CAPTURE_SHORTCUT: unsupported('CAPTURE_SHORTCUT'),
  SET_CERTIFIED_DEVICES: unsupported('SET_CERTIFIED_DEVICES'),
  GET_SKUS: unsupported('GET_SKUS'),
  GET_ENTITLEMENTS: unsupported('GET_ENTITLEMENTS'),
  SEND_ANALYTICS_EVENT: unsupported('SEND_ANALYTICS_EVENT'),
};
