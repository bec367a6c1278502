import type { Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import type { ApplicationRecord, ChannelRecord } from '../../store/records.js';
import { getApplication } from '../identity/applications.js';
import { channelAccess, loadChannel } from '../messages/channel.js';
import { isEmbedded } from './settings.js';
import { inActivityPreview } from './preview.js';
import { isInstalledInGuild, isUserInstalled } from '../identity/oauth2/grants.js';
import { publishInstance } from './events.js';
import { instanceIdFor, instanceUpdateWire, locationOf, usersOf, type InstanceRecord, type ParticipantRecord } from '../../wire/activity.js';

export type { InstanceRecord, ParticipantRecord };

/**
 * Activity instances. A launch in a channel joins the app's running instance there or starts one (its `launch_id` is
 * the launching interaction's id, or a new snowflake); participants are Gateway sessions; the instance ends when its
 * last participant leaves. Every change is announced with EMBEDDED_ACTIVITY_UPDATE_V2 (events.ts).
 */

/** Channel types an Activity can run in: text channels, DMs, group DMs and voice channels. */
const ACTIVITY_CHANNEL_TYPES = new Set([0, 1, 2, 3]);

/** 50039: the app has no Activity (no EMBEDDED flag), or it cannot run here. */
export const invalidActivityAction = () => new ApiError(400, 50039, 'Invalid Activity Action');
/** Unknown and ended instances look the same: `404 {"message":"404: Not Found","code":0}`. */
const unknownInstance = () => Errors.notFound();

export async function loadInstance(ctx: Ctx, instanceId: string): Promise<InstanceRecord | null> {
  if (instanceId.length > 120) return null;
  return ctx.repos.activities.instance(instanceId);
}

export async function participantsOf(ctx: Ctx, instanceId: string): Promise<ParticipantRecord[]> {
  return ctx.repos.activities.participantsOf(instanceId);
}

/**
 * May this user run this app here? 10002 unknown app, 50039 without EMBEDDED or in a channel type Activities do not
 * run in, 10003/50001 for a channel they cannot see, 50013 without USE_EMBEDDED_ACTIVITIES (or USE_EXTERNAL_APPS for
 * an app not installed in the guild).
 */
export async function checkLaunch(ctx: Ctx, app: ApplicationRecord | null, userId: string, channel: ChannelRecord): Promise<ApplicationRecord> {
  if (!app) throw Errors.unknownApplication();
  await channelAccess(ctx, channel, userId);
  if (!isEmbedded(app) || !ACTIVITY_CHANNEL_TYPES.has(channel.type)) throw invalidActivityAction();
  if (channel.guild_id) {
    const installed = await isInstalledInGuild(ctx, app, channel.guild_id);
    await channelAccess(ctx, channel, userId, installed ? P.USE_EMBEDDED_ACTIVITIES : P.USE_EMBEDDED_ACTIVITIES | P.USE_EXTERNAL_APPS);
  }
  return app;
}

/**
 * A launch that no interaction vouches for (the person's own route): in a guild, the app must be installed there, or
 * by the person, or be their in-development Activity (preview.ts), or already run in the channel (joining someone
 * who could start it); 50039 otherwise. Interaction launches were checked when the command or component was used.
 */
async function requireOffered(ctx: Ctx, app: ApplicationRecord, userId: string, channel: ChannelRecord): Promise<void> {
  if (!channel.guild_id) return;
  if (await isInstalledInGuild(ctx, app, channel.guild_id)) return;
  if (await isUserInstalled(ctx, app.id, userId)) return;
  if (await inActivityPreview(ctx, app, userId, channel.guild_id)) return;
  const running = await ctx.repos.activities.runningInGuild(channel.guild_id);
  if (running.some((i) => i.application_id === app.id && i.channel_id === channel.id)) return;
  throw invalidActivityAction();
}

export interface LaunchInput {
  app: ApplicationRecord;
  userId: string;
  channel: ChannelRecord;
  sessionId: string;
  nonce?: string | null;
  /** The launching interaction's id; a new snowflake when the launch is not an interaction. */
  launchId?: string;
}

/** Joins the app's running instance in the channel, or starts one. Checks are the caller's (checkLaunch). */
export async function launchActivity(ctx: Ctx, input: LaunchInput): Promise<InstanceRecord> {
  const liveKey = `${input.app.id}:${input.channel.id}`;
  const now = ctx.clock.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    // Joins the running instance, or starts one (null: a concurrent launch or end got in the way; try again).
    const joined = await ctx.repos.activities.join(
      liveKey,
      () => {
        const launchId = input.launchId ?? ctx.ids.next();
        return {
          instance_id: instanceIdFor(launchId, input.channel),
          application_id: input.app.id,
          launch_id: launchId,
          channel_id: input.channel.id,
          guild_id: input.channel.guild_id,
          created_at: now,
        };
      },
      { user_id: input.userId, session_id: input.sessionId, nonce: input.nonce ?? null, joined_at: now },
    );
    if (joined) {
      await publishInstance(ctx, joined, await participantsOf(ctx, joined.instance_id));
      return joined;
    }
  }
  throw invalidActivityAction();
}

/** POST /activities/{channel_id}/{application_id}: a person launches (or joins) the app's Activity in a channel. */
export async function userLaunch(
  ctx: Ctx,
  userId: string,
  channelId: string,
  applicationId: string,
  b: { session_id: string; nonce?: string | null },
): Promise<InstanceRecord> {
  const channel = await loadChannel(ctx, channelId);
  const app = await checkLaunch(ctx, isSnowflake(applicationId) ? await getApplication(ctx, applicationId) : null, userId, channel);
  await requireOffered(ctx, app, userId, channel);
  return launchActivity(ctx, { app, userId, channel, sessionId: b.session_id, nonce: b.nonce });
}

/**
 * A participant leaves (one session, or all of the user's sessions when none is named). The instance ends with its
 * last participant. Leaving an unknown or ended instance is 404 code 0, like reading it.
 */
export async function leaveInstance(ctx: Ctx, userId: string, instanceId: string, sessionId?: string, applicationId?: string): Promise<void> {
  const inst = await loadInstance(ctx, instanceId);
  if (!inst || inst.ended_at !== null || (applicationId && inst.application_id !== applicationId)) throw unknownInstance();
  await removeParticipants(ctx, inst, userId, sessionId);
}

/** A Gateway session ended for good: it leaves every instance it was in. */
export async function leaveSession(ctx: Ctx, userId: string, sessionId: string): Promise<void> {
  const ids = await ctx.repos.activities.instanceIdsOfSession(userId, sessionId);
  for (const instanceId of ids) {
    const inst = await loadInstance(ctx, instanceId);
    if (inst && inst.ended_at === null) await removeParticipants(ctx, inst, userId, sessionId);
  }
}

async function removeParticipants(ctx: Ctx, inst: InstanceRecord, userId: string, sessionId?: string): Promise<void> {
  const now = ctx.clock.now();
  // Ends the instance with its last participant (null: the participant was not there).
  const ended = await ctx.repos.activities.removeParticipants(inst.instance_id, userId, sessionId, now);
  if (ended === null) return;
  const current = ended ? { ...inst, ended_at: now } : inst;
  await publishInstance(ctx, current, ended ? [] : await participantsOf(ctx, inst.instance_id));
}

/** GET /applications/{id}/activity-instances/{instance_id} (the app's bot): a running instance of this app. */
export async function instanceForApp(ctx: Ctx, applicationId: string, instanceId: string) {
  const inst = await loadInstance(ctx, instanceId);
  if (!inst || inst.application_id !== applicationId || inst.ended_at !== null) throw unknownInstance();
  return {
    application_id: inst.application_id,
    instance_id: inst.instance_id,
    launch_id: inst.launch_id,
    location: locationOf(inst),
    users: usersOf(await participantsOf(ctx, inst.instance_id)),
  };
}

/** Running instances in a guild's channels this user can see (GUILD_CREATE `activity_instances`). */
export async function runningInGuild(ctx: Ctx, guildId: string, userId: string) {
  const rows = await ctx.repos.activities.runningInGuild(guildId);
  const out = [];
  for (const inst of rows) {
    const perms = await ctx.access.channelPerms(guildId, inst.channel_id, userId);
    if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
    out.push(instanceUpdateWire(inst, await participantsOf(ctx, inst.instance_id)));
  }
  return out;
}
