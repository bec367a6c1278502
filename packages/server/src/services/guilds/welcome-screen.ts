import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { checkGuildChannels, requireGuildPerms } from './lookup.js';
import { getSetting, putSetting, type WelcomeChannel } from './settings.js';

/** The welcome screen a community guild shows new members: a description and up to five suggested channels. */

const unknownWelcomeScreen = () => new ApiError(404, 10069, 'Unknown Guild Welcome Screen');

const welcomeWire = (w: { description: string | null; welcome_channels: WelcomeChannel[] }) => ({
  description: w.description,
  welcome_channels: w.welcome_channels.map((c) => ({ channel_id: c.channel_id, description: c.description, emoji_id: c.emoji_id, emoji_name: c.emoji_name })),
});

/** GET /guilds/{id}/welcome-screen: members when it is enabled, MANAGE_GUILD otherwise. */
export async function getWelcomeScreen(ctx: Ctx, actor: Actor, guildId: string) {
  const perms = await requireGuildPerms(ctx, actor, guildId);
  const w = await getSetting(ctx, guildId, 'welcome_screen');
  if (!w?.enabled && !ctx.access.hasPerm(perms, P.MANAGE_GUILD)) throw w ? Errors.missingPermissions() : unknownWelcomeScreen();
  return welcomeWire(w ?? { description: null, welcome_channels: [] });
}

export interface WelcomeInput {
  enabled?: boolean | null;
  description?: string | null;
  welcome_channels?: { channel_id: string; description: string; emoji_id?: string | null; emoji_name?: string | null }[] | null;
}

/** PATCH /guilds/{id}/welcome-screen: MANAGE_GUILD; channels must be the guild's. Emits GUILD_UPDATE-free (settings only). */
export async function updateWelcomeScreen(ctx: Ctx, actor: Actor, guildId: string, input: WelcomeInput) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const cur = (await getSetting(ctx, guildId, 'welcome_screen')) ?? { enabled: false, description: null, welcome_channels: [] };
  const channels = input.welcome_channels ?? (input.welcome_channels === null ? [] : undefined);
  if (channels)
    await checkGuildChannels(
      ctx,
      guildId,
      channels.map((c, i) => ({ path: ['welcome_channels', i, 'channel_id'], id: c.channel_id })),
    );
  const next = {
    enabled: input.enabled ?? cur.enabled,
    description: input.description !== undefined ? input.description : cur.description,
    welcome_channels: channels
      ? channels.map((c) => ({ channel_id: c.channel_id, description: c.description, emoji_id: c.emoji_id ?? null, emoji_name: c.emoji_name ?? null }))
      : cur.welcome_channels,
  };
  await putSetting(ctx, guildId, 'welcome_screen', next);
  return welcomeWire(next);
}
