import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { ApiError, Errors, fieldError } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { snowflake } from '../../../core/validation.js';
import { openDm } from '../../channels/dms.js';
import { createMessage } from '../../messages/create.js';
import { getApplication } from '../../identity/applications.js';
import { getUser } from '../../identity/users.js';
import { blockedBetween } from '../relationships/model.js';
import { limitCommunication } from '../sdk/limits.js';

/**
 * Activity invites (the SDK's SendActivityInvite, SendActivityJoinRequest and AcceptActivityInvite). An invite is a DM
 * message carrying `activity {type, party_id, session_id}` and the app, so the recipient's sessions see it arrive as
 * MESSAGE_CREATE; the join secret the sender's presence advertised stays on the server until the recipient accepts
 * (JOIN 1). A join request (JOIN_REQUEST 5) carries no secret: the host answers it with an invite. Accepting hands
 * the secret out once and tells the recipient's sessions (ACTIVITY_INVITE_CREATE with `accepted`), so the game on
 * another device hears of it. Blocks refuse invites either way (50007).
 *
 * The person's own client (a user token, e.g. the local RPC client answering SEND_ACTIVITY_JOIN_INVITE) sends and
 * accepts them too, naming the app with `application_id`; a game's Bearer token is tied to its own app.
 */
export const ActivityActionType = { JOIN: 1, JOIN_REQUEST: 5 } as const;

export const InviteBody = z.object({
  recipient_id: snowflake,
  /** With a user token: the app whose activity this is. A Bearer token's own app otherwise. */
  application_id: snowflake.optional(),
  content: z.string().max(2000).optional(),
  type: z.literal([1, 5]).optional(),
  party_id: z.string().min(1).max(128),
  session_id: z.string().max(128).nullable().optional(),
  join_secret: z.string().min(1).max(128).nullable().optional(),
});

const unknownInvite = () => new ApiError(404, 10006, 'Unknown Invite');

export function inviteWire(
  r: {
    message_id: unknown;
    application_id: unknown;
    channel_id: unknown;
    sender_id: unknown;
    type: unknown;
    party_id: unknown;
    session_id: unknown;
    accepted_at: unknown;
  },
  valid = true,
) {
  return {
    message_id: String(r.message_id),
    channel_id: String(r.channel_id),
    sender_id: String(r.sender_id),
    application_id: String(r.application_id),
    type: Number(r.type),
    party_id: String(r.party_id),
    session_id: (r.session_id as string | null) ?? null,
    accepted: r.accepted_at != null,
    is_valid: valid,
  };
}

/** POST /users/@me/activity-invites: sends an invite (or a join request) as a DM message. */
export async function sendActivityInvite(ctx: Ctx, actor: Actor, b: z.infer<typeof InviteBody>) {
  const appId = await inviteApplication(ctx, actor, b.application_id);
  const type = b.type ?? ActivityActionType.JOIN;
  if (b.recipient_id === actor.user.id) throw Errors.cannotSendToUser();
  const other = await getUser(ctx, b.recipient_id);
  if (!other || other.bot) throw Errors.unknownUser();
  if (await blockedBetween(ctx, actor.user.id, other.id)) throw Errors.cannotSendToUser();
  if (type === ActivityActionType.JOIN && !b.join_secret) throw Errors.emptyMessage();
  await limitCommunication(ctx, appId, 'message');
  const app = await getApplication(ctx, appId);
  const ch = await openDm(ctx, { id: actor.user.id, bot: false }, other.id);
  const activity = { type, party_id: b.party_id, ...(b.session_id ? { session_id: b.session_id } : {}) };
  const content = b.content?.trim() ? b.content : type === ActivityActionType.JOIN ? 'Join my game' : 'Asked to join your game';
  // The invite is recorded before its message is announced, so a recipient who accepts on MESSAGE_CREATE finds it.
  const messageId = ctx.ids.next();
  const row = {
    message_id: messageId,
    application_id: appId,
    channel_id: ch.id,
    sender_id: actor.user.id,
    recipient_id: other.id,
    type,
    party_id: b.party_id,
    session_id: b.session_id ?? null,
    join_secret: b.join_secret ?? null,
    accepted_at: null,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.social.insertActivityInvite(row);
  try {
    await createMessage(ctx, {
      id: messageId,
      channel: ch,
      author: actor.user,
      files: [],
      applicationId: appId,
      body: { content, allowed_mentions: { parse: [] } },
      extra: { activity, application: app ? { id: app.id, name: app.name, icon: app.icon ?? null } : { id: appId } },
    });
  } catch (err) {
    await ctx.repos.social.deleteActivityInvite(messageId);
    throw err;
  }
  return inviteWire(row);
}

/** The app an invite is for: a Bearer token's own app, or the existing app a user token names. Bots never invite. */
async function inviteApplication(ctx: Ctx, actor: Actor, named: string | undefined): Promise<string> {
  if (actor.kind === 'bearer') {
    if (!actor.applicationId) throw Errors.unauthorized();
    if (named !== undefined && named !== actor.applicationId)
      throw fieldError('application_id', 'INVALID_APPLICATION', 'A game token sends invites for its own application.');
    return actor.applicationId;
  }
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  if (named === undefined) throw fieldError('application_id', 'BASE_TYPE_REQUIRED', 'This field is required');
  if (!(await getApplication(ctx, named))) throw Errors.unknownApplication();
  return named;
}

/** POST /users/@me/activity-invites/{message_id}/accept: the recipient gets the join secret (once). */
export async function acceptActivityInvite(ctx: Ctx, actor: Actor, messageId: string): Promise<{ join_secret: string; invite: ReturnType<typeof inviteWire> }> {
  if (actor.kind === 'bot' || (actor.kind === 'bearer' && !actor.applicationId)) throw Errors.unauthorized();
  if (!isId(messageId)) throw unknownInvite();
  const row = await ctx.repos.social.activityInvite(messageId);
  if (!row || row.recipient_id !== actor.user.id) throw unknownInvite();
  if (actor.kind === 'bearer' && row.application_id !== actor.applicationId) throw unknownInvite();
  if (Number(row.type) !== ActivityActionType.JOIN || !row.join_secret) throw unknownInvite();
  if (row.accepted_at != null) throw new ApiError(400, 10006, 'This invite was already accepted');
  const now = ctx.clock.now();
  if (!(await ctx.repos.social.acceptActivityInvite(messageId, now))) throw new ApiError(400, 10006, 'This invite was already accepted');
  const invite = inviteWire({ ...row, accepted_at: now });
  ctx.bus.publish({ t: 'ACTIVITY_INVITE_CREATE', d: invite, user_ids: [actor.user.id] });
  return { join_secret: row.join_secret, invite };
}
