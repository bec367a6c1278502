import type { Channel, Snowflake } from '../api/types.js';
import type { GuildState } from './guild-state.js';

/** Permission bits the client consults to show or hide controls; the server decides for real. */
export const Perm = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  MANAGE_THREADS: 1n << 34n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  SEND_POLLS: 1n << 49n,
  PIN_MESSAGES: 1n << 51n,
} as const;

const ALL = (1n << 64n) - 1n;

/** The person's permissions in a channel (threads use their parent's overwrites), from roles and overwrites. */
export function channelPermissions(g: GuildState, userId: Snowflake, channel: Channel | undefined): bigint {
  if (g.ownerId === userId) return ALL;
  const member = g.members.get(userId);
  const everyone = g.roles.get(g.id);
  let base = BigInt(everyone?.permissions ?? '0');
  for (const id of member?.roles ?? []) base |= BigInt(g.roles.get(id)?.permissions ?? '0');
  if (base & Perm.ADMINISTRATOR) return ALL;
  const source = channel && channel.type >= 10 && channel.type <= 12 && channel.parent_id ? g.channels.get(channel.parent_id) : channel;
  const ow = source?.permission_overwrites ?? [];
  const apply = (o?: { allow: string; deny: string }) => {
    if (o) base = (base & ~BigInt(o.deny)) | BigInt(o.allow);
  };
  apply(ow.find((o) => o.id === g.id));
  let allow = 0n;
  let deny = 0n;
  for (const o of ow) {
    if (o.type === 0 && o.id !== g.id && member?.roles.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  base = (base & ~deny) | allow;
  apply(ow.find((o) => o.type === 1 && o.id === userId));
  return base;
}

export const has = (perms: bigint, bit: bigint) => (perms & bit) === bit;
