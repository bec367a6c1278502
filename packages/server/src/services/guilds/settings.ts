import type { Ctx } from '../context.js';
import { parseJson } from '../../store/json.js';

/**
 * Rarely written guild settings, one JSON document per guild (`guild_settings`): the welcome screen, onboarding,
 * widget, guild tag and the search index state. Each area owns one key and reads it through `getSetting`.
 */
export interface GuildSettings {
  welcome_screen?: { enabled: boolean; description: string | null; welcome_channels: WelcomeChannel[] };
  onboarding?: OnboardingSettings;
  widget?: { enabled: boolean; channel_id: string | null };
  /** The guild tag users may adopt as their primary guild (1–4 characters) and its badge. */
  tag?: { tag: string | null; badge: string | null };
  /** The Server Guide (GET/PUT /guilds/{id}/new-member-welcome). */
  home_settings?: {
    enabled: boolean;
    welcome_message?: { author_ids: string[]; message: string };
    new_member_actions: unknown[];
    resource_channels: unknown[];
  };
  /** Incident actions: invites and DMs paused until these times (ISO). */
  incidents?: { invites_disabled_until: string | null; dms_disabled_until: string | null };
  /** Server-clock ms at which message search started indexing this guild. */
  search_index_started_at?: number;
}

export interface WelcomeChannel {
  channel_id: string;
  description: string;
  emoji_id: string | null;
  emoji_name: string | null;
}

export interface OnboardingSettings {
  prompts: OnboardingPrompt[];
  default_channel_ids: string[];
  enabled: boolean;
  mode: number;
}

export interface OnboardingPrompt {
  id: string;
  type: number;
  title: string;
  single_select: boolean;
  required: boolean;
  in_onboarding: boolean;
  options: {
    id: string;
    title: string;
    description: string;
    emoji: { id: string | null; name: string | null; animated: boolean };
    role_ids: string[];
    channel_ids: string[];
  }[];
}

export async function getSettings(ctx: Ctx, guildId: string): Promise<GuildSettings> {
  return parseJson<GuildSettings>(await ctx.repos.guilds.settingsJson(guildId), {});
}

export async function getSetting<K extends keyof GuildSettings>(ctx: Ctx, guildId: string, key: K): Promise<GuildSettings[K]> {
  return (await getSettings(ctx, guildId))[key];
}

/** Replaces one key (undefined removes it); the other keys are kept. Upsert works the same on both engines. */
export async function putSetting<K extends keyof GuildSettings>(ctx: Ctx, guildId: string, key: K, value: GuildSettings[K]): Promise<void> {
  await ctx.repos.guilds.putSettingKey(guildId, key, value);
}

/** Drops a guild's settings (guild deletion). */
export async function deleteSettings(ctx: Ctx, guildId: string): Promise<void> {
  await ctx.repos.guilds.deleteSettings(guildId);
}

/** The guild's incident actions still in force (a time in the past is over). */
export async function incidentsData(ctx: Ctx, guildId: string) {
  const s = await getSetting(ctx, guildId, 'incidents');
  const live = (v: string | null | undefined) => (v && Date.parse(v) > ctx.clock.now() ? v : null);
  const out = { invites_disabled_until: live(s?.invites_disabled_until), dms_disabled_until: live(s?.dms_disabled_until) };
  return out.invites_disabled_until || out.dms_disabled_until ? out : null;
}
