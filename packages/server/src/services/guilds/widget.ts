import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { checkGuildChannels, guildRoles, requireGuildPerms, requireGuildRecord } from './lookup.js';
import { checkId } from '../../core/ids.js';
import { getSetting, putSetting } from './settings.js';
import { onlineCount } from '../../bus/presence-state.js';
import { WIDGET_STYLES, renderWidget } from './widget-image.js';
import { z } from 'zod';
import { parseBody } from '../../core/validation.js';
import { randomBytes } from '../../core/random.js';

/** The guild widget: its settings, widget.json and widget.png. */

const widgetDisabled = () => new ApiError(403, 50004, 'Guild widget disabled');

/** GET /guilds/{id}/widget: MANAGE_GUILD. */
export async function getWidgetSettings(ctx: Ctx, actor: Actor, guildId: string) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  return (await getSetting(ctx, guildId, 'widget')) ?? { enabled: false, channel_id: null };
}

/** PATCH /guilds/{id}/widget: MANAGE_GUILD; the invite channel must be the guild's. */
export async function updateWidgetSettings(ctx: Ctx, actor: Actor, guildId: string, input: { enabled?: boolean | null; channel_id?: string | null }) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const cur = (await getSetting(ctx, guildId, 'widget')) ?? { enabled: false, channel_id: null };
  if (input.channel_id) await checkGuildChannels(ctx, guildId, [{ path: ['channel_id'], id: input.channel_id }]);
  const next = { enabled: input.enabled ?? cur.enabled, channel_id: input.channel_id !== undefined ? input.channel_id : cur.channel_id };
  await putSetting(ctx, guildId, 'widget', next);
  return next;
}

async function enabledWidget(ctx: Ctx, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  const g = await requireGuildRecord(ctx, guildId);
  const w = await getSetting(ctx, guildId, 'widget');
  if (!w?.enabled) throw widgetDisabled();
  return { g, w };
}

/** A permanent invite of the widget channel, created on first use. */
async function widgetInvite(ctx: Ctx, guildId: string, channelId: string): Promise<string> {
  const existing = await ctx.repos.invites.permanentSystemInviteOf(channelId);
  if (existing) return existing;
  const code = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);
  await ctx.repos.invites.insertRow({
    code,
    guild_id: guildId,
    channel_id: channelId,
    inviter_id: null,
    max_age: 0,
    max_uses: 0,
    uses: 0,
    temporary: 0,
    target_type: null,
    target_user_id: null,
    flags: 0,
    created_at: ctx.clock.now(),
  });
  return code;
}

/** Online members as the widget shows them: at most 100, ids replaced by their index, no avatar hash. */
async function onlineMembers(ctx: Ctx, guildId: string) {
  const rows = await ctx.repos.members.namesIn(guildId);
  const online = rows.map((r) => ({ r, p: ctx.presences.visible(String(r.user_id)) })).filter((x) => x.p.status !== 'offline');
  const members = online.slice(0, 100).map(({ r, p }, i) => ({
    id: String(i),
    username: r.nick ?? r.global_name ?? r.username,
    discriminator: '0000' as const,
    avatar: null,
    status: p.status,
    avatar_url: `${ctx.publicUrl}/embed/avatars/${i % 6}.png`,
  }));
  return {
    members,
    count: onlineCount(
      ctx.presences,
      rows.map((r) => String(r.user_id)),
    ),
  };
}

/**
 * GET /guilds/{id}/widget.json: anyone, when the widget is on (else 50004). Channels are the voice channels @everyone
 * can see; members and presence_count come from the Gateway's presence state.
 */
export async function widgetJson(ctx: Ctx, guildId: string) {
  const { g, w } = await enabledWidget(ctx, guildId);
  const rows = await ctx.repos.channels.voiceChannelsOf(guildId);
  const everyone = (await guildRoles(ctx, guildId)).find((r) => r.id === guildId)?.permissions ?? 0n;
  const channels = rows
    .filter((c) => {
      const ow = c.permission_overwrites.find((o) => o.id === guildId);
      const perms = ow ? (everyone & ~BigInt(ow.deny)) | BigInt(ow.allow) : everyone;
      return (perms & P.VIEW_CHANNEL) !== 0n;
    })
    .map((c) => ({ id: c.id, name: c.name ?? '', position: c.position }));
  const inviteCode = w.channel_id ? await widgetInvite(ctx, guildId, w.channel_id).catch(() => null) : null;
  return {
    id: g.id,
    name: g.name,
    instant_invite: inviteCode ? `${ctx.publicUrl}/invite/${inviteCode}` : null,
    channels,
    ...(await onlineMembers(ctx, guildId).then((o) => ({ members: o.members, presence_count: o.count }))),
  };
}

/** GET /guilds/{id}/widget.png: anyone, when the widget is on; drawn from the guild's name, initials and online count. */
export async function widgetPng(ctx: Ctx, guildId: string, query: unknown): Promise<Buffer> {
  const { style } = parseBody(z.object({ style: z.enum(WIDGET_STYLES).default('shield') }), query);
  const { g } = await enabledWidget(ctx, guildId);
  const { count } = await onlineMembers(ctx, guildId);
  return renderWidget({ name: g.name, online: count }, style);
}
