import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import type { ChannelRecord } from '../../store/records.js';
import { getChannelRecord } from '../guilds/lookup.js';
import { getUsers } from '../identity/users.js';
import { blockedBetween } from '../social/relationships/model.js';
import { calls } from './calls.js';
import { VOICE_REGIONS } from './regions.js';

/**
 * The official client's call routes on a DM or group DM (users only): `GET /channels/{id}/call` (may the caller ring
 * here), `PATCH …/call {region}`, `POST …/call/ring {recipients?}` (default: every other recipient) and
 * `POST …/call/stop-ringing {recipients?}` (default: the caller, which is how a call is declined). The last three
 * answer 204 and fire CALL_UPDATE; without a running call they do nothing.
 */

/** A DM or group DM the caller is a recipient of: 10003 unknown, 50024 a guild channel, 50001 not a recipient. */
async function callChannel(ctx: Ctx, actor: Actor, channelId: string): Promise<ChannelRecord> {
  const ch = isId(channelId) ? await getChannelRecord(ctx, channelId) : null;
  if (!ch) throw Errors.unknownChannel();
  if (ch.type !== 1 && ch.type !== 3) throw Errors.wrongChannelType();
  if (!ch.recipients?.includes(actor.user.id)) throw Errors.missingAccess();
  return ch;
}

/** Whether anyone else here could be rung: a human on the other side of a DM and no block between the two. */
export async function callEligibility(ctx: Ctx, actor: Actor, channelId: string): Promise<{ ringable: boolean }> {
  const ch = await callChannel(ctx, actor, channelId);
  const others = (ch.recipients ?? []).filter((id) => id !== actor.user.id);
  if (ch.type === 3) return { ringable: others.length > 0 };
  const users = await getUsers(ctx, others);
  const other = others[0] ? users.get(others[0]) : undefined;
  return { ringable: !!other && !other.bot && !(await blockedBetween(ctx, actor.user.id, other.id)) };
}

export async function ringRecipients(ctx: Ctx, actor: Actor, channelId: string, recipients: string[] | null | undefined): Promise<void> {
  const ch = await callChannel(ctx, actor, channelId);
  const all = ch.recipients ?? [];
  // Nobody who could not take the call is rung (a bot, either side of a block).
  const ringable = (await callEligibility(ctx, actor, channelId)).ringable;
  const targets = ringable ? (recipients ?? all.filter((id) => id !== actor.user.id)) : [];
  await calls(ctx).ring(ch.id, all, targets, true);
}

export async function stopRinging(ctx: Ctx, actor: Actor, channelId: string, recipients: string[] | null | undefined): Promise<void> {
  const ch = await callChannel(ctx, actor, channelId);
  await calls(ctx).ring(ch.id, ch.recipients ?? [], recipients ?? [actor.user.id], false);
}

export async function modifyCall(ctx: Ctx, actor: Actor, channelId: string, region: string | undefined): Promise<void> {
  const ch = await callChannel(ctx, actor, channelId);
  if (region === undefined) return;
  if (!VOICE_REGIONS.some((r) => r.id === region))
    throw fieldError('region', 'BASE_TYPE_CHOICES', `Value must be one of (${VOICE_REGIONS.map((r) => r.id).join(', ')}).`);
  await calls(ctx).setRegion(ch.id, ch.recipients ?? [], region);
}
