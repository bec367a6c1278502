import type { Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { P } from '@accord/protocol';
import type { ApplicationRecord, ChannelRecord, GuildRecord, MemberRecord, UserRecord } from '../../../store/records.js';
import { getMember } from '../../guilds/lookup.js';
import { channelAccess, DM_TYPES, loadChannel } from '../../messages/channel.js';
import { getUser } from '../../identity/users.js';
import { isId } from '../../../core/ids.js';
import { isInstalledInGuild } from '../../identity/oauth2/grants.js';

/** Where an interaction happens and what the app may do there: context, installations, permissions. */

export const Context = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;

/** In DMs with other users and in group DMs: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE (= 180224). */
export const PRIVATE_APP_PERMISSIONS = P.ATTACH_FILES | P.EMBED_LINKS | P.MENTION_EVERYONE;
/** In a DM with the app's bot user, USE_EXTERNAL_EMOJIS as well (= 442368). */
export const BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | P.USE_EXTERNAL_EMOJIS;
/**
 * What a user-installed app may do in a guild it is not installed in, intersected with the invoking user's own
 * channel permissions: post, embed, attach and mention like the user, nothing that moderates.
 */
export const USER_APP_GUILD_PERMISSIONS =
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.MENTION_EVERYONE |
  P.USE_EXTERNAL_EMOJIS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_POLLS |
  P.SEND_VOICE_MESSAGES;

const MESSAGE_CHANNEL_TYPES = new Set([0, 1, 2, 3, 5, 10, 11, 12, 13]);

export const DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

export interface Place {
  app: ApplicationRecord;
  bot: UserRecord | null;
  user: UserRecord;
  channel: ChannelRecord;
  guild: GuildRecord | null;
  member: MemberRecord | null;
  context: 0 | 1 | 2;
  /** The app's bot user is a member of the guild. */
  botInGuild: boolean;
  /** The app is installed in the guild: its bot is a member, or it was installed with `applications.commands`. */
  guildInstalled: boolean;
  /** The user installed the app to their account (oauth_grants with integration_type 1). */
  userInstalled: boolean;
  /** The invoking user's permissions in the channel. */
  userPerms: bigint;
  /** The app's permissions in the channel (app_permissions). */
  appPerms: bigint;
}

export async function loadApplication(ctx: Ctx, id: string): Promise<ApplicationRecord> {
  if (!isId(id)) throw Errors.unknownApplication();
  const app = await ctx.repos.applications.byId(id);
  if (!app) throw Errors.unknownApplication();
  return app;
}

export async function userInstalled(ctx: Ctx, applicationId: string, userId: string): Promise<boolean> {
  return ctx.repos.applications.isInstalledByUser(applicationId, userId);
}

/**
 * Resolves the channel an interaction is invoked in, as seen by the invoking user: 10003 when the user cannot see it,
 * 10004 when `guildId` does not match the channel's guild.
 */
export async function placeOf(ctx: Ctx, app: ApplicationRecord, user: UserRecord, channelId: string, guildId: string | null | undefined): Promise<Place> {
  const channel = await loadChannel(ctx, channelId);
  if (guildId && channel.guild_id !== guildId) throw channel.guild_id ? Errors.unknownChannel() : Errors.unknownGuild();
  const userPerms = await channelAccess(ctx, channel, user.id);
  if (channel.guild_id && !(userPerms & P.VIEW_CHANNEL)) throw Errors.missingAccess();
  // Interactions happen where messages can be sent (responses are messages there).
  if (!MESSAGE_CHANNEL_TYPES.has(channel.type)) throw Errors.nonTextChannel();
  const bot = app.bot_user_id ? await getUser(ctx, app.bot_user_id) : null;
  const installed = await userInstalled(ctx, app.id, user.id);

  if (channel.guild_id) {
    const [guild, member, botInGuild] = await Promise.all([
      ctx.repos.guilds.byId(channel.guild_id),
      getMember(ctx, channel.guild_id, user.id),
      bot ? ctx.access.isMember(channel.guild_id, bot.id) : Promise.resolve(false),
    ]);
    if (!guild) throw Errors.unknownGuild();
    const guildInstalled = botInGuild || (await isInstalledInGuild(ctx, app, guild.id));
    let appPerms: bigint;
    if (botInGuild && bot) appPerms = (await ctx.access.channelPerms(channel.guild_id, channel.id, bot.id)) ?? 0n;
    else if (guildInstalled) appPerms = (await ctx.access.integrationPerms(channel.guild_id, channel.id, app.id)) ?? 0n;
    else appPerms = userPerms & USER_APP_GUILD_PERMISSIONS;
    return { app, bot, user, channel, guild, member, context: Context.GUILD, botInGuild, guildInstalled, userInstalled: installed, userPerms, appPerms };
  }
  const botDm = channel.type === 1 && !!bot && (channel.recipients ?? []).includes(bot.id);
  return {
    app,
    bot,
    user,
    channel,
    guild: null,
    member: null,
    context: botDm ? Context.BOT_DM : Context.PRIVATE_CHANNEL,
    botInGuild: false,
    guildInstalled: false,
    userInstalled: installed,
    userPerms,
    appPerms: botDm ? BOT_DM_APP_PERMISSIONS : PRIVATE_APP_PERMISSIONS,
  };
}

/**
 * authorizing_integration_owners for an interaction here, limited to the installation types given (a command's
 * `integration_types`): "0" → the guild id (app installed there, with or without its bot) or "0" in the bot DM; "1" → the user's id when
 * they installed the app. Values are strings.
 */
export function ownersFor(place: Place, integrationTypes: number[]): Record<string, string> {
  const owners: Record<string, string> = {};
  if (integrationTypes.includes(0)) {
    if (place.context === Context.GUILD && place.guildInstalled && place.guild) owners['0'] = place.guild.id;
    if (place.context === Context.BOT_DM) owners['0'] = '0';
  }
  if (integrationTypes.includes(1) && place.userInstalled) owners['1'] = place.user.id;
  return owners;
}

export const isDm = (ch: ChannelRecord) => DM_TYPES.has(ch.type);
