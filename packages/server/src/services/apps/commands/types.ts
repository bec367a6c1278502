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
  'id', 'en-US', 'en-GB', 'bg', 'zh-CN', 'zh-TW', 'hr', 'cs', 'da', 'nl', 'fi', 'fr', 'de', 'el', 'hi', 'hu', 'it', 'ja',
  'ko', 'lt', 'no', 'pl', 'pt-BR', 'ro', 'ru', 'es-ES', 'es-419', 'sv-SE', 'th', 'tr', 'uk', 'vi',
];

export type Localizations = Record<string, string> | null;

export interface OptionChoice {
  name: string;
  name_localizations?: Localizations;
  value: string | number;
}

export interface CommandOption {
  type: number;
  name: string;
  name_localizations?: Localizations;
  description: string;
  description_localizations?: Localizations;
  required?: boolean;
  choices?: OptionChoice[];
  options?: CommandOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  file_types?: string[];
}

/** The stored `data` of a command: everything but its identity (id, app, guild, version). */
export interface CommandData {
  type: number;
  name: string;
  name_localizations: Localizations;
  description: string;
  description_localizations: Localizations;
  options: CommandOption[];
  default_member_permissions: string | null;
  nsfw: boolean;
  /** Global commands only. */
  dm_permission?: boolean;
  contexts?: number[] | null;
  integration_types?: number[];
  /** PRIMARY_ENTRY_POINT only: 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY. */
  handler?: number;
}

export interface CommandRecord extends CommandData {
  id: string;
  application_id: string;
  /** null = global. */
  guild_id: string | null;
  version: string;
}

/** One overwrite: a role (guild_id = @everyone), a user, or a channel (guild_id − 1 = every channel). */
export interface CommandPermission {
  id: string;
  type: number;
  permission: boolean;
}

export interface GuildCommandPermissions {
  /** A command id, or the application id for the app-wide overwrites. */
  id: string;
  application_id: string;
  guild_id: string;
  permissions: CommandPermission[];
}
