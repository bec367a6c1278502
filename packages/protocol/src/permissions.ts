/** Permission bits (bits 0-52) and the platform's computation algorithm, as pure functions over BigInt. */
export const P = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  PRIORITY_SPEAKER: 1n << 8n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  VIEW_GUILD_INSIGHTS: 1n << 19n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  MUTE_MEMBERS: 1n << 22n,
  DEAFEN_MEMBERS: 1n << 23n,
  MOVE_MEMBERS: 1n << 24n,
  USE_VAD: 1n << 25n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  MANAGE_WEBHOOKS: 1n << 29n,
  MANAGE_GUILD_EXPRESSIONS: 1n << 30n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  REQUEST_TO_SPEAK: 1n << 32n,
  MANAGE_EVENTS: 1n << 33n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  MODERATE_MEMBERS: 1n << 40n,
  VIEW_CREATOR_MONETIZATION_ANALYTICS: 1n << 41n,
  USE_SOUNDBOARD: 1n << 42n,
  CREATE_GUILD_EXPRESSIONS: 1n << 43n,
  CREATE_EVENTS: 1n << 44n,
  USE_EXTERNAL_SOUNDS: 1n << 45n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SET_VOICE_CHANNEL_STATUS: 1n << 48n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
  PIN_MESSAGES: 1n << 51n,
  BYPASS_SLOWMODE: 1n << 52n,
} as const;

export const ALL_PERMISSIONS = Object.values(P).reduce((a, b) => a | b, 0n); // 8866461766385663

/** Default @everyone permissions of a new guild (what the official client creates). */
export const DEFAULT_EVERYONE =
  P.CREATE_INSTANT_INVITE |
  P.ADD_REACTIONS |
  P.STREAM |
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.MENTION_EVERYONE |
  P.USE_EXTERNAL_EMOJIS |
  P.CONNECT |
  P.SPEAK |
  P.USE_VAD |
  P.CHANGE_NICKNAME |
  P.USE_APPLICATION_COMMANDS |
  P.REQUEST_TO_SPEAK |
  P.CREATE_PUBLIC_THREADS |
  P.CREATE_PRIVATE_THREADS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_MESSAGES_IN_THREADS |
  P.USE_EMBEDDED_ACTIVITIES |
  P.USE_SOUNDBOARD |
  P.CREATE_GUILD_EXPRESSIONS |
  P.CREATE_EVENTS |
  P.USE_EXTERNAL_SOUNDS |
  P.SEND_VOICE_MESSAGES |
  P.SEND_POLLS |
  P.USE_EXTERNAL_APPS;

/** Dated cutovers of split permissions, judged against the server clock. */
export const CUTOVERS = {
  /** MANAGE_MESSAGES stops granting PIN_MESSAGES (the later notice wins over 2026-01-12). */
  pinSplit: Date.UTC(2026, 1, 23),
  /** BYPASS_SLOWMODE, CREATE_GUILD_EXPRESSIONS and CREATE_EVENTS split. */
  permissionSplit: Date.UTC(2026, 1, 23),
} as const;

export interface Overwrite {
  id: string;
  type: 0 | 1;
  allow: string;
  deny: string;
}

export interface PermissionSubject {
  userId: string;
  guildId: string;
  ownerId: string;
  /** role id -> permissions; must include @everyone (id = guild id). */
  rolePermissions: Map<string, bigint>;
  memberRoleIds: string[];
  /** ms epoch; a member timed out until after now keeps only view and history. */
  timeoutUntil?: number | null;
}

export function basePermissions(s: PermissionSubject): bigint {
  if (s.userId === s.ownerId) return ALL_PERMISSIONS;
  let perms = s.rolePermissions.get(s.guildId) ?? 0n;
  for (const id of s.memberRoleIds) perms |= s.rolePermissions.get(id) ?? 0n;
  if (perms & P.ADMINISTRATOR) return ALL_PERMISSIONS;
  return perms;
}

const TEXT_DEPENDENT = P.MENTION_EVERYONE | P.SEND_TTS_MESSAGES | P.ATTACH_FILES | P.EMBED_LINKS;
const VOICE_DEPENDENT =
  P.SPEAK | P.MUTE_MEMBERS | P.DEAFEN_MEMBERS | P.MOVE_MEMBERS | P.USE_VAD | P.PRIORITY_SPEAKER | P.STREAM | P.USE_SOUNDBOARD | P.SET_VOICE_CHANNEL_STATUS;

export function channelPermissions(s: PermissionSubject, overwrites: Overwrite[], opts: { voice?: boolean; now: number }): bigint {
  const base = basePermissions(s);
  if (base === ALL_PERMISSIONS && (s.userId === s.ownerId || base & P.ADMINISTRATOR)) return ALL_PERMISSIONS;
  let perms = base;
  const everyone = overwrites.find((o) => o.id === s.guildId && o.type === 0);
  if (everyone) perms = (perms & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === 0 && o.id !== s.guildId && s.memberRoleIds.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  perms = (perms & ~deny) | allow;
  const member = overwrites.find((o) => o.type === 1 && o.id === s.userId);
  if (member) perms = (perms & ~BigInt(member.deny)) | BigInt(member.allow);
  return applyImplicit(perms, s, opts);
}

function applyImplicit(perms: bigint, s: PermissionSubject, opts: { voice?: boolean; now: number }): bigint {
  if (!(perms & P.VIEW_CHANNEL)) return 0n;
  if (!(perms & P.SEND_MESSAGES)) perms &= ~TEXT_DEPENDENT;
  if (opts.voice && !(perms & P.CONNECT)) perms &= ~VOICE_DEPENDENT;
  if (s.timeoutUntil && s.timeoutUntil > opts.now) perms &= P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;
  return perms;
}

/** Guild-level permissions with the timeout rule applied (for guild-scoped routes). */
export function guildPermissions(s: PermissionSubject, now: number): bigint {
  const base = basePermissions(s);
  if (base === ALL_PERMISSIONS) return base;
  if (s.timeoutUntil && s.timeoutUntil > now) return base & (P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  return base;
}

/** Checks a permission, including the legacy grants that lapse at their cutover. */
export function has(perms: bigint, needed: bigint, now: number): boolean {
  if ((perms & needed) === needed) return true;
  // Before the split, the old permission still grants the new one.
  if (needed === P.PIN_MESSAGES && now < CUTOVERS.pinSplit) return (perms & P.MANAGE_MESSAGES) !== 0n;
  if (now < CUTOVERS.permissionSplit) {
    if (needed === P.CREATE_GUILD_EXPRESSIONS) return (perms & P.MANAGE_GUILD_EXPRESSIONS) !== 0n;
    if (needed === P.CREATE_EVENTS) return (perms & P.MANAGE_EVENTS) !== 0n;
    if (needed === P.BYPASS_SLOWMODE) return (perms & (P.MANAGE_MESSAGES | P.MANAGE_CHANNELS | P.MANAGE_THREADS)) !== 0n;
  }
  return false;
}

export function parsePermissions(v: unknown): bigint | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return BigInt(v);
  return null;
}
