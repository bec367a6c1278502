import type { Actor, Ctx } from '../context.js';
import { isId } from '../../core/ids.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { hashToken } from '../identity/tokens.js';
import { toChannel } from '../../store/repos/mappers.js';
import type { ChannelRecord, UserRecord } from '../../store/records.js';
import { publicUser } from '../../wire/user.js';
import { channel as channelWire } from '../../wire/channel.js';
import { applicationOfBot } from '../identity/applications.js';
import { createMessage } from '../messages/create.js';
import { getUser, getUsers } from '../identity/users.js';

/**
 * Group DMs (channel type 3).
 *
 * - A user makes one with `POST /users/@me/channels {recipients: [ids]}` (two or more others); they own it. Any
 *   recipient may add users (`PUT /channels/{id}/recipients/{user_id}`); the owner removes anyone, everyone may remove
 *   themselves (`DELETE …`). When the owner leaves, the oldest remaining recipient owns the group.
 * - A bot makes one with `{access_tokens, nicks}`: OAuth2 tokens its users granted the app with `gdm.join`. Such a
 *   group is managed (`managed: true`, `application_id`), owned by the bot (which is not a recipient, and sees it
 *   only through these routes), and at most 10 of them exist per app (30011). The bot adds users with their access
 *   token (`{access_token, nick}`) and removes anyone.
 *
 * At most 10 recipients (30004); bots cannot be recipients (50033). Adding and removing post the system messages
 * RECIPIENT_ADD (1) / RECIPIENT_REMOVE (2) mentioning the user, and publish CHANNEL_RECIPIENT_ADD / _REMOVE
 * `{channel_id, user, nick?}` to the other recipients; the user added gets CHANNEL_CREATE, the user removed
 * CHANNEL_DELETE.
 *
 * The row's `dm_key` is `g:<channel id>:<recipient ids>`, rewritten with the recipients, so the DM listings (which
 * look users up in `dm_key`) find group DMs like 1:1 DMs.
 */

export const MAX_RECIPIENTS = 10;
export const MAX_MANAGED_GROUP_DMS = 10;

const maxRecipients = () => new ApiError(400, 30004, 'Maximum number of recipients reached (10)');
const maxGroupDms = () => new ApiError(400, 30011, 'Maximum number of group DMs reached (10)');
const invalidRecipients = () => new ApiError(400, 50033, 'Invalid Recipient(s)');
const invalidToken = (path: (string | number)[]) => fieldError(path, 'ACCESS_TOKEN_INVALID', 'Invalid OAuth2 access token.');

const groupKey = (id: string, recipients: string[]) => `g:${id}:${recipients.join(':')}`;

/** The channel as one recipient (or the managing bot) sees it. */
export async function groupDmView(ctx: Ctx, ch: ChannelRecord, viewerId: string) {
  const others = (ch.recipients ?? []).filter((id) => id !== viewerId);
  const users = await getUsers(ctx, others);
  return channelWire(ch, others.map((id) => users.get(id)!).filter(Boolean));
}

/** CHANNEL_CREATE / CHANNEL_DELETE / CHANNEL_UPDATE to each user, with the channel as they see it. */
async function publishChannel(ctx: Ctx, t: string, ch: ChannelRecord, userIds: string[]) {
  for (const uid of new Set(userIds)) ctx.bus.publish({ t, d: await groupDmView(ctx, ch, uid), channel_id: ch.id, user_ids: [uid] });
}

/** The user behind an access token the bot's app holds with `gdm.join`. */
async function tokenUser(ctx: Ctx, appId: string, accessToken: string, path: (string | number)[]): Promise<string> {
  const t = await ctx.repos.auth.tokenGrant(hashToken(accessToken));
  const live = t && t.kind === 'bearer' && String(t.application_id) === appId && (t.expires_at == null || t.expires_at > ctx.clock.now());
  if (!live) throw invalidToken(path);
  if (
    !String(t.scopes ?? '')
      .split(' ')
      .includes('gdm.join')
  )
    throw Errors.missingScope();
  return String(t.user_id);
}

async function botApp(ctx: Ctx, actor: Actor): Promise<string> {
  const id = actor.applicationId ?? (await applicationOfBot(ctx, actor.user.id))?.id;
  if (!id) throw Errors.unknownApplication();
  return id;
}

async function requireRecipients(ctx: Ctx, ids: string[]): Promise<Map<string, UserRecord>> {
  if (!ids.every(isId)) throw Errors.unknownUser();
  const users = await getUsers(ctx, ids);
  if (ids.some((id) => !users.has(id))) throw Errors.unknownUser();
  if ([...users.values()].some((u) => u.bot)) throw invalidRecipients();
  return users;
}

async function insertGroupDm(ctx: Ctx, ownerId: string, recipients: string[], extra: Record<string, unknown>): Promise<ChannelRecord> {
  const id = ctx.ids.next();
  const row = {
    id,
    type: 3,
    guild_id: null,
    position: 0,
    name: null,
    topic: null,
    nsfw: 0,
    parent_id: null,
    owner_id: ownerId,
    last_message_id: null,
    last_pin_timestamp: null,
    bitrate: null,
    user_limit: null,
    rate_limit_per_user: 0,
    rtc_region: null,
    flags: 0,
    permission_overwrites: '[]',
    recipients: JSON.stringify(recipients),
    dm_key: groupKey(id, recipients),
    thread_metadata: null,
    message_count: 0,
    member_count: 0,
    total_message_sent: 0,
    extra: JSON.stringify(extra),
    created_at: ctx.clock.now(),
  };
  await ctx.repos.channels.insertDm(row);
  return toChannel(row);
}

export interface GroupDmInput {
  recipients?: string[];
  access_tokens?: string[] | null;
  nicks?: Record<string, string | null> | null;
}

/** POST /users/@me/channels with `access_tokens` (bots) or two or more `recipients` (users). */
export async function createGroupDm(ctx: Ctx, actor: Actor, input: GroupDmInput) {
  if (input.access_tokens) {
    if (actor.kind !== 'bot') throw Errors.onlyBots();
    const appId = await botApp(ctx, actor);
    const ids: string[] = [];
    for (const [i, token] of input.access_tokens.entries()) {
      const uid = await tokenUser(ctx, appId, token, ['access_tokens', i]);
      if (!ids.includes(uid)) ids.push(uid);
    }
    if (!ids.length) throw fieldError('access_tokens', 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    if (ids.length > MAX_RECIPIENTS) throw maxRecipients();
    await requireRecipients(ctx, ids);
    if ((await ctx.repos.channels.countOwnedGroupDms(actor.user.id)) >= MAX_MANAGED_GROUP_DMS) throw maxGroupDms();
    const nicks = Object.fromEntries(Object.entries(input.nicks ?? {}).filter((e): e is [string, string] => ids.includes(e[0]) && typeof e[1] === 'string'));
    const ch = await insertGroupDm(ctx, actor.user.id, ids, { application_id: appId, managed: true, ...(Object.keys(nicks).length ? { nicks } : {}) });
    await publishChannel(ctx, 'CHANNEL_CREATE', ch, ids);
    return groupDmView(ctx, ch, actor.user.id);
  }
  if (actor.kind === 'bot') throw fieldError('access_tokens', 'BASE_TYPE_REQUIRED', "Bots make group DMs with their users' access tokens.");
  const others = [...new Set(input.recipients ?? [])].filter((id) => id !== actor.user.id);
  const ids = [actor.user.id, ...others];
  if (ids.length > MAX_RECIPIENTS) throw maxRecipients();
  await requireRecipients(ctx, others);
  const ch = await insertGroupDm(ctx, actor.user.id, ids, {});
  await publishChannel(ctx, 'CHANNEL_CREATE', ch, ids);
  return groupDmView(ctx, ch, actor.user.id);
}

async function loadGroupDm(ctx: Ctx, channelId: string): Promise<ChannelRecord> {
  if (!isId(channelId)) throw Errors.unknownChannel();
  const ch = await ctx.repos.channels.byId(channelId);
  if (!ch) throw Errors.unknownChannel();
  if (ch.type !== 3) throw ch.guild_id ? Errors.unknownChannel() : Errors.wrongChannelType();
  return ch;
}

async function saveRecipients(
  ctx: Ctx,
  ch: ChannelRecord,
  recipients: string[],
  ownerId: string | null,
  extra: Record<string, unknown>,
): Promise<ChannelRecord> {
  await ctx.repos.channels.saveGroupDm(ch.id, recipients, groupKey(ch.id, recipients), ownerId, extra);
  return { ...ch, recipients, owner_id: ownerId, extra };
}

/** Posts RECIPIENT_ADD (1) or RECIPIENT_REMOVE (2) by the actor, mentioning the user. */
async function systemMessage(ctx: Ctx, ch: ChannelRecord, author: UserRecord, type: 1 | 2, userId: string) {
  await createMessage(ctx, { channel: ch, author, body: { content: '' }, files: [], type, skipPermissionChecks: true, systemMentions: [userId] });
}

/**
 * PUT /channels/{id}/recipients/{user_id}: returns the channel when the user was added, null when they already were a
 * recipient (204).
 */
export async function addGroupDmRecipient(
  ctx: Ctx,
  actor: Actor,
  channelId: string,
  userId: string,
  input: { access_token?: string | null; nick?: string | null },
) {
  const ch = await loadGroupDm(ctx, channelId);
  const recipients = ch.recipients ?? [];
  if (actor.kind === 'bot') {
    if (ch.owner_id !== actor.user.id) throw Errors.missingAccess();
    if (!input.access_token) throw fieldError('access_token', 'BASE_TYPE_REQUIRED', 'This field is required');
    const holder = await tokenUser(ctx, await botApp(ctx, actor), input.access_token, ['access_token']);
    if (holder !== userId) throw invalidToken(['access_token']);
  } else if (!recipients.includes(actor.user.id)) {
    throw Errors.missingAccess();
  }
  const user = isId(userId) ? await getUser(ctx, userId) : null;
  if (!user) throw Errors.unknownUser();
  if (user.bot) throw invalidRecipients();
  if (recipients.includes(userId)) return null;
  if (recipients.length >= MAX_RECIPIENTS) throw maxRecipients();
  const extra = { ...ch.extra };
  const nick = actor.kind === 'bot' && input.nick ? input.nick : null;
  if (nick) extra.nicks = { ...(extra.nicks ?? {}), [userId]: nick };
  const next = await saveRecipients(ctx, ch, [...recipients, userId], ch.owner_id, extra);
  await publishChannel(ctx, 'CHANNEL_CREATE', next, [userId]);
  const others = [...recipients, ...(ch.owner_id && !recipients.includes(ch.owner_id) ? [ch.owner_id] : [])];
  if (others.length)
    ctx.bus.publish({
      t: 'CHANNEL_RECIPIENT_ADD',
      d: { channel_id: ch.id, user: publicUser(user), ...(nick ? { nick } : {}) },
      channel_id: ch.id,
      user_ids: others,
    });
  await systemMessage(ctx, next, actor.user, 1, userId);
  return groupDmView(ctx, next, actor.user.id);
}

/** DELETE /channels/{id}/recipients/{user_id}: the owner removes anyone; a recipient removes themselves. */
export async function removeGroupDmRecipient(ctx: Ctx, actor: Actor, channelId: string, userId: string): Promise<void> {
  const ch = await loadGroupDm(ctx, channelId);
  const recipients = ch.recipients ?? [];
  const isOwner = ch.owner_id === actor.user.id;
  if (!isOwner && !recipients.includes(actor.user.id)) throw Errors.missingAccess();
  if (!isOwner && userId !== actor.user.id) throw Errors.missingPermissions();
  if (!recipients.includes(userId)) throw Errors.unknownUser();
  const user = await getUser(ctx, userId);
  const remaining = recipients.filter((id) => id !== userId);
  const extra = { ...ch.extra };
  if (extra.nicks?.[userId] !== undefined) {
    const { [userId]: _gone, ...rest } = extra.nicks;
    extra.nicks = rest;
  }
  // A user owner who leaves hands the group to the oldest remaining recipient; a managing bot stays the owner.
  const ownerLeaves = ch.owner_id === userId;
  const owner = ownerLeaves ? (remaining[0] ?? null) : ch.owner_id;
  const next = await saveRecipients(ctx, ch, remaining, owner, extra);
  await publishChannel(ctx, 'CHANNEL_DELETE', ch, [userId]);
  const others = [...remaining, ...(owner && !remaining.includes(owner) ? [owner] : [])];
  if (others.length && user)
    ctx.bus.publish({ t: 'CHANNEL_RECIPIENT_REMOVE', d: { channel_id: ch.id, user: publicUser(user) }, channel_id: ch.id, user_ids: others });
  if (ownerLeaves && remaining.length) await publishChannel(ctx, 'CHANNEL_UPDATE', next, remaining);
  if (remaining.length) await systemMessage(ctx, next, actor.user, 2, userId);
}
