import type { Repos } from '../../store/repos/index.js';
import type { Clock } from '../../core/clock.js';
import type { EventBus } from '../../bus/bus.js';
import { watchForCache } from '../../bus/cache-watch.js';
import { GuildRows } from './rows.js';
import { ALL_PERMISSIONS, P, channelPermissions, guildPermissions, has, type Overwrite, type PermissionSubject } from '@accord/protocol';
import { Errors } from '../../core/errors.js';

/** What permission checks need of one guild, kept in memory and dropped on any change the bus reports. */
interface GuildState {
  guildId: string;
  ownerId: string;
  rolePermissions: Map<string, bigint>;
  rolePositions: Map<string, number>;
  channels: Map<string, { type: number; parentId: string | null; overwrites: Overwrite[] }>;
  members: Map<string, { roles: string[]; timeoutUntil: number | null }>;
  /** Private threads are visible to their members and MANAGE_THREADS holders only. */
  privateThreadMembers: Map<string, Set<string>>;
}

const INVALIDATING =
  /^(GUILD_UPDATE|GUILD_DELETE|GUILD_ROLE_|CHANNEL_CREATE|CHANNEL_UPDATE|CHANNEL_DELETE|THREAD_CREATE|THREAD_UPDATE|THREAD_DELETE|THREAD_MEMBER_UPDATE|THREAD_MEMBERS_UPDATE|GUILD_MEMBER_|GUILD_CREATE)/;
const VOICE_TYPES = new Set([2, 13]);
const THREAD_TYPES = new Set([10, 11, 12]);

export class GuildAccess {
  private cache = new Map<string, Promise<GuildState | null>>();
  /** Channel and member rows of message creates, dropped with this cache's state of their guild. */
  readonly rows: GuildRows;

  constructor(
    private readonly repos: Repos,
    private readonly clock: Clock,
    private readonly bus: EventBus,
  ) {
    this.rows = new GuildRows(bus);
    bus.subscribe(
      (e) => {
        if (e.guild_id && INVALIDATING.test(e.t)) this.invalidate(e.guild_id);
      },
      { remote: true },
    ); // changes made on other nodes too, for the guilds this node watches (see state)
  }

  invalidate(guildId: string): void {
    this.cache.delete(guildId);
    this.rows.drop(guildId);
  }

  private state(guildId: string): Promise<GuildState | null> {
    let p = this.cache.get(guildId);
    if (!p) {
      p = watchForCache(this.bus, `guild-changes:${guildId}`).then(() => this.load(guildId));
      this.cache.set(guildId, p);
      p.catch(() => this.cache.delete(guildId));
    }
    return p;
  }

  private async load(guildId: string): Promise<GuildState | null> {
    const rows = await this.repos.guilds.permissionState(guildId);
    if (!rows) return null;
    const privateThreadMembers = new Map(rows.privateThreadIds.map((t) => [t, new Set<string>()]));
    for (const tm of rows.privateThreadMembers) privateThreadMembers.get(tm.channelId)?.add(tm.userId);
    return {
      guildId,
      privateThreadMembers,
      ownerId: rows.ownerId,
      rolePermissions: new Map(rows.roles.map((r) => [r.id, r.permissions])),
      rolePositions: new Map(rows.roles.map((r) => [r.id, r.position])),
      channels: new Map(rows.channels.map((c) => [c.id, { type: c.type, parentId: c.parentId, overwrites: c.overwrites }])),
      members: new Map(rows.members.map((m) => [m.userId, { roles: m.roles, timeoutUntil: m.timeoutUntil }])),
    };
  }

  private subject(s: GuildState, userId: string): PermissionSubject | null {
    const m = s.members.get(userId);
    if (!m) return null;
    return { userId, guildId: s.guildId, ownerId: s.ownerId, rolePermissions: s.rolePermissions, memberRoleIds: m.roles, timeoutUntil: m.timeoutUntil };
  }

  async isMember(guildId: string, userId: string): Promise<boolean> {
    const s = await this.state(guildId);
    return !!s?.members.has(userId);
  }

  async memberIds(guildId: string): Promise<string[]> {
    const s = await this.state(guildId);
    return s ? [...s.members.keys()] : [];
  }

  /** How many members a guild has, without listing them (asked once per presence change). */
  async memberCount(guildId: string): Promise<number> {
    return (await this.state(guildId))?.members.size ?? 0;
  }

  /** Guild-level permissions; null when the user is not a member (or the guild is unknown). */
  async guildPerms(guildId: string, userId: string): Promise<bigint | null> {
    const s = await this.state(guildId);
    const subj = s && this.subject(s, userId);
    return subj ? guildPermissions(subj, this.clock.now()) : null;
  }

  /** Channel permissions; threads take their parent's overwrites. Null when not a member. */
  async channelPerms(guildId: string, channelId: string, userId: string): Promise<bigint | null> {
    const s = await this.state(guildId);
    return s ? this.permsIn(s, channelId, userId) : null;
  }

  /** Channel permissions of many users after one wait (fan-out): a function of the user over one state of the guild. */
  async channelPermsOf(guildId: string, channelId: string): Promise<(userId: string) => bigint | null> {
    const s = await this.state(guildId);
    return (userId) => (s ? this.permsIn(s, channelId, userId) : null);
  }

  /**
   * An app installed without a bot (`applications.commands` only) acts as its integration: @everyone's permissions
   * with the channel's @everyone overwrite and any member overwrite naming the application. Null for an unknown guild.
   */
  async integrationPerms(guildId: string, channelId: string, applicationId: string): Promise<bigint | null> {
    const s = await this.state(guildId);
    if (!s) return null;
    const subj: PermissionSubject = {
      userId: applicationId,
      guildId,
      ownerId: s.ownerId,
      rolePermissions: s.rolePermissions,
      memberRoleIds: [],
      timeoutUntil: null,
    };
    let ch = s.channels.get(channelId);
    if (ch && THREAD_TYPES.has(ch.type) && ch.parentId) ch = s.channels.get(ch.parentId) ?? ch;
    const now = this.clock.now();
    return ch ? channelPermissions(subj, ch.overwrites, { voice: VOICE_TYPES.has(ch.type), now }) : guildPermissions(subj, now);
  }

  private permsIn(s: GuildState, channelId: string, userId: string): bigint | null {
    const subj = this.subject(s, userId);
    if (!subj) return null;
    const now = this.clock.now();
    let ch = s.channels.get(channelId);
    const privateMembers = s.privateThreadMembers.get(channelId);
    if (ch && THREAD_TYPES.has(ch.type) && ch.parentId) ch = s.channels.get(ch.parentId) ?? ch;
    if (!ch) return guildPermissions(subj, now);
    const perms = channelPermissions(subj, ch.overwrites, { voice: VOICE_TYPES.has(ch.type), now });
    if (privateMembers && !privateMembers.has(userId) && !has(perms, P.MANAGE_THREADS, now)) return 0n;
    return perms;
  }

  /** Highest role position of a member (the owner ranks above everyone). */
  async topPosition(guildId: string, userId: string): Promise<number> {
    const s = await this.state(guildId);
    if (!s) return -1;
    if (s.ownerId === userId) return Number.MAX_SAFE_INTEGER;
    const m = s.members.get(userId);
    if (!m) return -1;
    return Math.max(0, ...m.roles.map((r) => s.rolePositions.get(r) ?? 0));
  }

  async ownerId(guildId: string): Promise<string | null> {
    return (await this.state(guildId))?.ownerId ?? null;
  }

  /** Throws 10004 for non-members, 50013 when a permission is missing. */
  async requireGuild(guildId: string, userId: string, needed: bigint = 0n): Promise<bigint> {
    const perms = await this.guildPerms(guildId, userId);
    if (perms === null) throw Errors.unknownGuild();
    if (needed && !has(perms, needed, this.clock.now())) throw Errors.missingPermissions();
    return perms;
  }

  /** Throws 10003 when the channel is invisible, 50001 without VIEW_CHANNEL, 50013 when a permission is missing. */
  async requireChannel(guildId: string, channelId: string, userId: string, needed: bigint = 0n): Promise<bigint> {
    const perms = await this.channelPerms(guildId, channelId, userId);
    if (perms === null) throw Errors.unknownChannel();
    if (!(perms & P.VIEW_CHANNEL)) throw Errors.missingAccess();
    if (needed && !has(perms, needed, this.clock.now())) throw Errors.missingPermissions();
    return perms;
  }

  hasPerm(perms: bigint, needed: bigint): boolean {
    return has(perms, needed, this.clock.now());
  }

  static readonly ALL = ALL_PERMISSIONS;
}
