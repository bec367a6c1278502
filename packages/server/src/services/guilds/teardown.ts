import type { Kysely } from 'kysely';
import type { Ctx } from '../context.js';
import type { DB } from '../../store/schema.js';
import '../../store/tables/fidelity.js';
import '../../store/tables/fidelity-open-items.js';

/** A channel in another guild that lost a follower webhook: it gets WEBHOOKS_UPDATE. */
export interface FollowerTarget { guild_id: string; channel_id: string }

/**
 * Removes the follow links into and out of some channels: the `channel_followers` rows, and the follower webhooks (in
 * any guild) that those source channels fed, which can never deliver again. Returns the channels whose webhooks went.
 */
export async function dropFollowers(db: Kysely<DB>, where: { guildId: string } | { channelIds: string[] }): Promise<FollowerTarget[]> {
  const channelIds = 'channelIds' in where ? where.channelIds : null;
  if (channelIds && !channelIds.length) return [];
  const fed = await db.selectFrom('channel_followers').select(['webhook_id', 'guild_id', 'channel_id'])
    .where((eb) => (channelIds ? eb('source_channel_id', 'in', channelIds) : eb('source_guild_id', '=', (where as { guildId: string }).guildId)))
    .execute();
  if (fed.length) await db.deleteFrom('webhooks').where('id', 'in', fed.map((r) => String(r.webhook_id))).execute();
  await db.deleteFrom('channel_followers').where((eb) => (channelIds
    ? eb.or([eb('source_channel_id', 'in', channelIds), eb('channel_id', 'in', channelIds)])
    : eb.or([eb('source_guild_id', '=', (where as { guildId: string }).guildId), eb('guild_id', '=', (where as { guildId: string }).guildId)])))
    .execute();
  const seen = new Map<string, FollowerTarget>();
  for (const r of fed) seen.set(String(r.channel_id), { guild_id: String(r.guild_id), channel_id: String(r.channel_id) });
  return [...seen.values()];
}

/**
 * What a guild leaves in tables outside its core rows (guild.ts) and its resources (resources.ts): templates, the vanity
 * URL, settings (onboarding, welcome screens, incident actions, …), join requests, invite roles and target users, poll
 * votes, guild commands and their permissions, app installs, interactions, follower links both ways. Runs in the
 * deletion's transaction, before the invites, messages and channels it looks up are deleted.
 */
export async function deleteGuildExtras(db: Kysely<DB>, guildId: string): Promise<FollowerTarget[]> {
  const codes = db.selectFrom('invites').select('code').where('guild_id', '=', guildId);
  await db.deleteFrom('invite_meta').where('code', 'in', codes).execute();
  await db.deleteFrom('invite_targets').where('code', 'in', codes).execute();
  await db.deleteFrom('poll_votes').where('message_id', 'in', db.selectFrom('messages').select('id').where('guild_id', '=', guildId)).execute();
  for (const table of ['guild_templates', 'guild_vanity', 'guild_settings', 'guild_join_requests', 'command_permissions', 'application_commands', 'application_guild_installs', 'interactions'] as const) {
    await db.deleteFrom(table).where('guild_id', '=', guildId).execute();
  }
  await db.deleteFrom('application_command_creates').where('scope', '=', guildId).execute();
  return dropFollowers(db, { guildId });
}

/** WEBHOOKS_UPDATE for channels elsewhere that lost a follower webhook. */
export function announceLostFollowers(ctx: Ctx, targets: FollowerTarget[]): void {
  for (const t of targets) ctx.bus.publish({ t: 'WEBHOOKS_UPDATE', d: t, guild_id: t.guild_id, channel_id: t.channel_id });
}
