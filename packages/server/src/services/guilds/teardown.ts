import type { Ctx } from '../context.js';
import type { Repos } from '../../store/repos/index.js';

/** A channel in another guild that lost a follower webhook: it gets WEBHOOKS_UPDATE. */
export interface FollowerTarget {
  guild_id: string;
  channel_id: string;
}

/**
 * Removes the follow links into and out of some channels: the `channel_followers` rows, and the follower webhooks (in
 * any guild) that those source channels fed, which can never deliver again. Returns the channels whose webhooks went.
 */
export async function dropFollowers(repos: Repos, where: { guildId: string } | { channelIds: string[] }): Promise<FollowerTarget[]> {
  return repos.channels.dropFollowLinks(where);
}

/**
 * What a guild leaves in tables outside its core rows (guild.ts) and its resources (resources.ts): templates, the vanity
 * URL, settings (onboarding, welcome screens, incident actions, …), join requests, invite roles and target users, poll
 * votes, guild commands and their permissions, app installs, interactions, follower links both ways. Runs in the
 * deletion's transaction, before the invites, messages and channels it looks up are deleted.
 */
export async function deleteGuildExtras(repos: Repos, guildId: string): Promise<FollowerTarget[]> {
  await repos.invites.deleteExtrasInGuild(guildId);
  await repos.polls.deleteVotesInGuild(guildId);
  await repos.guilds.deleteExtrasOf(guildId);
  await repos.commands.deleteInGuild(guildId);
  await repos.applications.deleteInstallsIn(guildId);
  await repos.interactions.deleteInGuild(guildId);
  return repos.channels.dropFollowLinks({ guildId });
}

/** WEBHOOKS_UPDATE for channels elsewhere that lost a follower webhook. */
export function announceLostFollowers(ctx: Ctx, targets: FollowerTarget[]): void {
  for (const t of targets) ctx.bus.publish({ t: 'WEBHOOKS_UPDATE', d: t, guild_id: t.guild_id, channel_id: t.channel_id });
}
