import type { Ctx } from '../context.js';
import { parseJson } from '../store/json.js';

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
  /** Server-clock ms at which message search started indexing this guild. */
  search_index_started_at?: number;
}

export interface WelcomeChannel { channel_id: string; description: string; emoji_id: string | null; emoji_name: string | null }

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
  options: { id: string; title: string; description: string; emoji: { id: string | null; name: string | null; animated: boolean }; role_ids: string[]; channel_ids: string[] }[];
}

export async function getSettings(ctx: Ctx, guildId: string): Promise<GuildSettings> {
  const row = await ctx.db.selectFrom('guild_settings').select('data').where('guild_id', '=', guildId).executeTakeFirst();
  return parseJson<GuildSettings>(row?.data, {});
}

export async function getSetting<K extends keyof GuildSettings>(ctx: Ctx, guildId: string, key: K): Promise<GuildSettings[K]> {
  return (await getSettings(ctx, guildId))[key];
}

/** Replaces one key (undefined removes it); the other keys are kept. Upsert works the same on both engines. */
export async function putSetting<K extends keyof GuildSettings>(ctx: Ctx, guildId: string, key: K, value: GuildSettings[K]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('guild_settings').select('data').where('guild_id', '=', guildId).executeTakeFirst();
    const data = parseJson<GuildSettings>(row?.data, {});
    if (value === undefined) delete data[key];
    else data[key] = value;
    const json = JSON.stringify(data);
    if (row) await trx.updateTable('guild_settings').set({ data: json }).where('guild_id', '=', guildId).execute();
    else await trx.insertInto('guild_settings').values({ guild_id: guildId, data: json }).onConflict((oc) => oc.column('guild_id').doUpdateSet({ data: json })).execute();
  });
}

/** Drops a guild's settings (guild deletion). */
export async function deleteSettings(ctx: Ctx, guildId: string): Promise<void> {
  await ctx.db.deleteFrom('guild_settings').where('guild_id', '=', guildId).execute();
}
