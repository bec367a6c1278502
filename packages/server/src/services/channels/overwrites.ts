import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { ALL_PERMISSIONS, P, type Overwrite } from '@accord/protocol';
import { channel as channelWire, THREAD_TYPES } from '../../wire/channel.js';
import type { ChannelRecord } from '../../store/records.js';
import { checkOverwriteGrant } from './fields.js';
import { requireChannelRecord } from './channels.js';
import { checkId } from '../../core/ids.js';
import { auditOverwrite } from '../moderation/audit-log.js';

const MAX_OVERWRITES = 1000;

/** Overwrites belong to guild channels that are not threads (threads use their parent's). */
async function editableChannel(ctx: Ctx, actor: Actor, channelId: string): Promise<{ ch: ChannelRecord; perms: bigint }> {
  const ch = await requireChannelRecord(ctx, channelId);
  if (ch.guild_id === null) throw Errors.cannotDM();
  if (THREAD_TYPES.has(ch.type)) throw Errors.wrongChannelType();
  const perms = await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id, P.MANAGE_ROLES);
  const guildPerms = (await ctx.access.guildPerms(ch.guild_id, actor.user.id)) ?? 0n;
  return { ch, perms: perms | guildPerms };
}

async function save(ctx: Ctx, ch: ChannelRecord, overwrites: Overwrite[]): Promise<void> {
  await ctx.repos.channels.setOverwrites(ch.id, overwrites);
  ctx.bus.publish({ t: 'CHANNEL_UPDATE', d: channelWire({ ...ch, permission_overwrites: overwrites }), guild_id: ch.guild_id, channel_id: ch.id });
}

/** PUT /channels/{id}/permissions/{overwrite_id}: MANAGE_ROLES; only bits the caller holds may be allowed or denied. */
export async function putOverwrite(
  ctx: Ctx,
  actor: Actor,
  channelId: string,
  overwriteId: string,
  input: { type: number; allow?: string | null; deny?: string | null },
): Promise<void> {
  const { ch, perms } = await editableChannel(ctx, actor, channelId);
  const guildId = ch.guild_id!;
  if (input.type === 0) {
    checkId(overwriteId, Errors.unknownRole);
    const role = (await ctx.repos.roles.ofGuild(guildId)).find((r) => r.id === overwriteId);
    if (!role) throw Errors.unknownRole();
  } else {
    checkId(overwriteId, Errors.unknownUser);
    const user = await ctx.repos.users.byId(overwriteId);
    if (!user) throw Errors.unknownUser();
  }
  const ow: Overwrite = {
    id: overwriteId,
    type: input.type as 0 | 1,
    allow: (BigInt(input.allow ?? '0') & ALL_PERMISSIONS).toString(),
    deny: (BigInt(input.deny ?? '0') & ALL_PERMISSIONS).toString(),
  };
  const before = ch.permission_overwrites;
  const old = before.find((o) => o.id === overwriteId && o.type === ow.type);
  checkOverwriteGrant(perms, old ? [old] : [], [ow]);
  if (!old && before.length >= MAX_OVERWRITES) throw new ApiError(400, 30060, 'Maximum number of channel permission overwrites reached (1000)');
  const after = old ? before.map((o) => (o === old ? ow : o)) : [...before, ow];
  await save(ctx, ch, after);
  await auditOverwrite(ctx, actor.user.id, guildId, ch.id, old ?? null, ow);
}

/** DELETE /channels/{id}/permissions/{overwrite_id}: removing an absent overwrite is a no-op. */
export async function deleteOverwrite(ctx: Ctx, actor: Actor, channelId: string, overwriteId: string): Promise<void> {
  const { ch, perms } = await editableChannel(ctx, actor, channelId);
  const gone = ch.permission_overwrites.filter((o) => o.id === overwriteId);
  if (!gone.length) return;
  checkOverwriteGrant(perms, gone, []);
  await save(
    ctx,
    ch,
    ch.permission_overwrites.filter((o) => o.id !== overwriteId),
  );
  for (const o of gone) await auditOverwrite(ctx, actor.user.id, ch.guild_id!, ch.id, o, null);
}
