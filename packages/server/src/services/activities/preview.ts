import type { Ctx } from '../context.js';
import type { ApplicationRecord } from '../../store/records.js';
import { APP_FLAGS } from '../identity/applications.js';
import { appIdsTestedBy, developsOrTests } from '../identity/app-testers.js';

/**
 * The in-development preview of an Activity: once Activities are enabled (EMBEDDED), the app's developers find it in
 * the App Launcher of their servers and launch it there without installing it, as the getting-started guide expects.
 * Like the platform's unverified Activities, only in servers with fewer than 25 members, and only for the team and the
 * app's testers who accepted; everyone else waits for an install. (No EMBEDDED check through settings.ts: that file
 * imports the command domain.)
 */

export const PREVIEW_MEMBER_LIMIT = 25;

const embedded = (app: ApplicationRecord) => (app.flags & APP_FLAGS.EMBEDDED) !== 0n;
const smallGuild = async (ctx: Ctx, guildId: string) => (await ctx.access.memberCount(guildId)) < PREVIEW_MEMBER_LIMIT;

/** Whether this person previews the app's Activity in this guild. */
export async function inActivityPreview(ctx: Ctx, app: ApplicationRecord, userId: string, guildId: string): Promise<boolean> {
  return embedded(app) && (await developsOrTests(ctx, app, userId)) && (await smallGuild(ctx, guildId));
}

/** The apps with an Activity that this person previews in this guild: the apps they own or test. */
export async function previewAppsIn(ctx: Ctx, userId: string, guildId: string): Promise<ApplicationRecord[]> {
  const ids = [...new Set([...(await ctx.repos.applications.idsOwnedBy(userId)), ...(await appIdsTestedBy(ctx, userId))])];
  if (!ids.length || !(await smallGuild(ctx, guildId))) return [];
  return (await ctx.repos.applications.listByIds(ids)).filter(embedded);
}
