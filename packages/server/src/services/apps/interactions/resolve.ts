import type { Ctx } from '../../context.js';
import { P, isSnowflake } from '@accord/protocol';
import type { AttachmentRecord, ChannelRecord } from '../../../store/records.js';
import { member as memberWire } from '../../../wire/member.js';
import { role as roleWire } from '../../../wire/role.js';
import { publicUser } from '../../../wire/user.js';
import { getMember } from '../../guilds/lookup.js';
import { messageWire } from '../../messages/view.js';
import { getUser } from '../../identity/users.js';
import type { Place } from './where.js';

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

/**
 * `data.resolved` of an interaction: users (with partial members in guilds), roles, channels (partial, with the
 * invoker's `permissions` and, when the bot is in the guild, `app_permissions`), messages and attachments.
 */
export class Resolved {
  readonly users: Record<string, unknown> = {};
  readonly members: Record<string, unknown> = {};
  readonly roles: Record<string, unknown> = {};
  readonly channels: Record<string, unknown> = {};
  readonly messages: Record<string, unknown> = {};
  readonly attachments: Record<string, unknown> = {};

  constructor(
    private readonly ctx: Ctx,
    private readonly place: Place,
  ) {}

  /** A user (and their member in this guild); false when unknown. */
  async user(id: string): Promise<boolean> {
    if (this.users[id]) return true;
    if (!isSnowflake(id)) return false;
    const u = await getUser(this.ctx, id);
    if (!u) return false;
    this.users[id] = publicUser(u);
    const g = this.place.guild;
    if (g) {
      const m = await getMember(this.ctx, g.id, id);
      if (m) {
        const perms = (await this.ctx.access.channelPerms(g.id, this.place.channel.id, id)) ?? 0n;
        const { deaf: _d, mute: _m, ...partial } = memberWire(m, null, { permissions: perms, now: this.ctx.clock.now() });
        this.members[id] = partial;
      }
    }
    return true;
  }

  /** A role of this guild; false otherwise. */
  async role(id: string): Promise<boolean> {
    if (this.roles[id]) return true;
    const g = this.place.guild;
    if (!g || !isSnowflake(id)) return false;
    const role = await this.ctx.repos.roles.inGuild(g.id, id);
    if (!role) return false;
    this.roles[id] = roleWire(role);
    return true;
  }

  /** A user or a role (MENTIONABLE). */
  async mentionable(id: string): Promise<boolean> {
    if (await this.role(id)) return true;
    return this.user(id);
  }

  /** A channel of this guild the invoker can see (or the DM itself); false otherwise. */
  async channel(id: string, types?: number[]): Promise<boolean> {
    if (this.channels[id]) return true;
    if (!isSnowflake(id)) return false;
    let ch: ChannelRecord | null = null;
    if (id === this.place.channel.id) ch = this.place.channel;
    else if (this.place.guild) {
      const found = await this.ctx.repos.channels.byId(id);
      ch = found?.guild_id === this.place.guild.id ? found : null;
    }
    if (!ch) return false;
    if (types?.length && !types.includes(ch.type)) return false;
    let perms = this.place.userPerms;
    let appPerms: bigint | null = null;
    const g = this.place.guild;
    if (g) {
      perms = (await this.ctx.access.channelPerms(g.id, ch.id, this.place.user.id)) ?? 0n;
      if (!(perms & P.VIEW_CHANNEL)) return false;
      if (this.place.botInGuild && this.place.bot) appPerms = (await this.ctx.access.channelPerms(g.id, ch.id, this.place.bot.id)) ?? 0n;
    }
    this.channels[id] = partialChannel(ch, perms, appPerms);
    return true;
  }

  /** A message of the interaction's channel; false otherwise. */
  async message(id: string): Promise<boolean> {
    if (this.messages[id]) return true;
    if (!isSnowflake(id)) return false;
    const m = await this.ctx.repos.messages.byId(id);
    if (!m || m.channel_id !== this.place.channel.id) return false;
    if (m.flags & 64) return false;
    this.messages[id] = await messageWire(this.ctx, m, null);
    return true;
  }

  attachment(a: AttachmentRecord): void {
    this.attachments[a.id] = { ...a, ephemeral: true };
  }

  /** The maps that have entries; undefined when nothing was resolved. */
  toJSON(): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    for (const key of ['users', 'members', 'roles', 'channels', 'messages', 'attachments'] as const) {
      if (Object.keys(this[key]).length) out[key] = this[key];
    }
    return Object.keys(out).length ? out : undefined;
  }
}

/** The resolved-channel shape (interactions.md §2). */
function partialChannel(ch: ChannelRecord, perms: bigint, appPerms: bigint | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: ch.id,
    name: ch.name,
    type: ch.type,
    permissions: perms.toString(),
    last_message_id: ch.last_message_id,
    last_pin_timestamp: iso(ch.last_pin_timestamp),
    nsfw: ch.nsfw,
    parent_id: ch.parent_id,
    guild_id: ch.guild_id,
    flags: ch.flags,
    rate_limit_per_user: ch.rate_limit_per_user,
    topic: ch.topic,
    position: ch.position,
  };
  if (appPerms !== null) out.app_permissions = appPerms.toString();
  if (ch.thread_metadata) out.thread_metadata = ch.thread_metadata;
  return out;
}
