/** Application command records and enums (wire-values.md §6). */

export const CommandType = { CHAT_INPUT: 1, USER: 2, MESSAGE: 3, PRIMARY_ENTRY_POINT: 4 } as const;

export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

export const PermissionType = { ROLE: 1, USER: 2, CHANNEL: 3 } as const;

/** Commands per type per scope (app + global, or app + guild). */
export const COMMAND_LIMITS: Record<number, number> = { 1: 100, 2: 15, 3: 15, 4: 1 };
export const MAX_COMMAND_SIZE = 8000;
export const MAX_PERMISSION_OVERWRITES = 100;

/** DAT `Locale` (wire-values.md §10). */
export const LOCALES: readonly string[] = [
  'id',
  'en-US',
  'en-GB',
  'bg',
  'zh-CN',
  'zh-TW',
  'hr',
  'cs',
  'da',
  'nl',
  'fi',
  'fr',
  'de',
  'el',
  'hi',
  'hu',
  'it',
  'ja',
  'ko',
  'lt',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'ru',
  'es-ES',
  'es-419',
  'sv-SE',
  'th',
  'tr',
  'uk',
  'vi',
];

/** The command records are defined with their repository (store/repos/commands.ts). */
export type { Localizations, OptionChoice, CommandOption, CommandData, CommandRecord, CommandPermission } from '../../../store/repos/commands.js';
import type { CommandPermission } from '../../../store/repos/commands.js';

export interface GuildCommandPermissions {
  /** A command id, or the application id for the app-wide overwrites. */
  id: string;
  application_id: string;
  guild_id: string;
  permissions: CommandPermission[];
}
