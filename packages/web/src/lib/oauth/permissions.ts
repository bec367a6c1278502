import { P } from '@accord/protocol';

/**
 * Permission names and groups as people read them in the official client (consent page, URL generator, default
 * install settings). Bits come from @accord/protocol; only the words live here.
 */

export type PermissionKey = keyof typeof P;

export interface PermissionInfo {
  key: PermissionKey;
  bit: bigint;
  label: string;
}

const GROUPS: [title: string, entries: [PermissionKey, string][]][] = [
  [
    'General',
    [
      ['ADMINISTRATOR', 'Administrator'],
      ['VIEW_AUDIT_LOG', 'View Audit Log'],
      ['VIEW_GUILD_INSIGHTS', 'View Server Insights'],
      ['MANAGE_GUILD', 'Manage Server'],
      ['MANAGE_ROLES', 'Manage Roles'],
      ['MANAGE_CHANNELS', 'Manage Channels'],
      ['KICK_MEMBERS', 'Kick Members'],
      ['BAN_MEMBERS', 'Ban Members'],
      ['MODERATE_MEMBERS', 'Timeout Members'],
      ['CREATE_INSTANT_INVITE', 'Create Invite'],
      ['CHANGE_NICKNAME', 'Change Nickname'],
      ['MANAGE_NICKNAMES', 'Manage Nicknames'],
      ['MANAGE_GUILD_EXPRESSIONS', 'Manage Expressions'],
      ['CREATE_GUILD_EXPRESSIONS', 'Create Expressions'],
      ['MANAGE_WEBHOOKS', 'Manage Webhooks'],
      ['VIEW_CHANNEL', 'View Channels'],
      ['MANAGE_EVENTS', 'Manage Events'],
      ['CREATE_EVENTS', 'Create Events'],
      ['VIEW_CREATOR_MONETIZATION_ANALYTICS', 'View Creator Monetization Analytics'],
    ],
  ],
  [
    'Text',
    [
      ['SEND_MESSAGES', 'Send Messages'],
      ['SEND_MESSAGES_IN_THREADS', 'Send Messages in Threads'],
      ['CREATE_PUBLIC_THREADS', 'Create Public Threads'],
      ['CREATE_PRIVATE_THREADS', 'Create Private Threads'],
      ['EMBED_LINKS', 'Embed Links'],
      ['ATTACH_FILES', 'Attach Files'],
      ['ADD_REACTIONS', 'Add Reactions'],
      ['USE_EXTERNAL_EMOJIS', 'Use External Emojis'],
      ['USE_EXTERNAL_STICKERS', 'Use External Stickers'],
      ['MENTION_EVERYONE', 'Mention @everyone, @here, and All Roles'],
      ['MANAGE_MESSAGES', 'Manage Messages'],
      ['PIN_MESSAGES', 'Pin Messages'],
      ['BYPASS_SLOWMODE', 'Bypass Slowmode'],
      ['MANAGE_THREADS', 'Manage Threads'],
      ['READ_MESSAGE_HISTORY', 'Read Message History'],
      ['SEND_TTS_MESSAGES', 'Send Text-to-Speech Messages'],
      ['SEND_VOICE_MESSAGES', 'Send Voice Messages'],
      ['SEND_POLLS', 'Create Polls'],
      ['USE_APPLICATION_COMMANDS', 'Use Application Commands'],
      ['USE_EXTERNAL_APPS', 'Use External Apps'],
      ['USE_EMBEDDED_ACTIVITIES', 'Use Activities'],
    ],
  ],
  [
    'Voice',
    [
      ['CONNECT', 'Connect'],
      ['SPEAK', 'Speak'],
      ['STREAM', 'Video'],
      ['USE_VAD', 'Use Voice Activity'],
      ['PRIORITY_SPEAKER', 'Priority Speaker'],
      ['MUTE_MEMBERS', 'Mute Members'],
      ['DEAFEN_MEMBERS', 'Deafen Members'],
      ['MOVE_MEMBERS', 'Move Members'],
      ['REQUEST_TO_SPEAK', 'Request to Speak'],
      ['USE_SOUNDBOARD', 'Use Soundboard'],
      ['USE_EXTERNAL_SOUNDS', 'Use External Sounds'],
      ['SET_VOICE_CHANNEL_STATUS', 'Set Voice Channel Status'],
    ],
  ],
];

export const PERMISSION_GROUPS: { title: string; permissions: PermissionInfo[] }[] = GROUPS.map(([title, entries]) => ({
  title,
  permissions: entries.map(([key, label]) => ({ key, bit: P[key], label })),
}));

export const ALL_PERMISSION_INFO: PermissionInfo[] = PERMISSION_GROUPS.flatMap((g) => g.permissions);

/** The permissions named by a bitfield, in display order. */
export const permissionsIn = (bits: bigint): PermissionInfo[] => ALL_PERMISSION_INFO.filter((p) => (bits & p.bit) !== 0n);

/** A permissions query value (decimal string) as bits; anything unreadable is none. */
export function parsePermissions(v: string | null | undefined): bigint {
  if (!v || !/^\d{1,20}$/.test(v)) return 0n;
  return BigInt(v);
}
