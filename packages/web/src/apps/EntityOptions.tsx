import { forwardRef, useMemo } from 'react';
import type { Channel } from '../lib/api/types.js';
import { useStore } from '../lib/session.js';
import type { GuildState } from '../lib/state/store.js';
import { displayName } from '../lib/ui/index.js';

export type Entity = 'user' | 'role' | 'mentionable' | 'channel';
/** Command option types 6-9 and select component types 5-8 as entities. */
export const optionEntity = (type: number): Entity => (({ 6: 'user', 7: 'channel', 8: 'role', 9: 'mentionable' }) as Record<number, Entity>)[type] ?? 'user';
export const selectEntity = (type: number): Entity => (({ 5: 'user', 6: 'role', 7: 'mentionable', 8: 'channel' }) as Record<number, Entity>)[type] ?? 'user';

/** A select of people, roles or channels of the guild (user/role/mentionable/channel options and selects). */
export const EntityOptions = forwardRef<
  HTMLSelectElement,
  {
    entity: Entity;
    channel: Channel;
    channelTypes?: number[];
    value: string;
    onChange: (v: string) => void;
    id?: string;
    onFocus?: () => void;
    multiple?: boolean;
    values?: string[];
    onValues?: (v: string[]) => void;
    placeholder?: string;
  }
>(function EntityOptions({ entity, channel, channelTypes, value, onChange, multiple, values, onValues, placeholder, ...rest }, ref) {
  const guild = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const users = useStore((s) => s.users);
  const me = useStore((s) => s.me);
  const options = useMemo(() => entityChoices(entity, guild, channel, users, me?.id, channelTypes), [entity, guild, channel, users, channelTypes]);
  if (multiple) {
    return (
      <select
        ref={ref}
        {...rest}
        className="select select--multi"
        multiple
        value={values ?? []}
        onChange={(e) => onValues?.([...e.target.selectedOptions].map((o) => o.value))}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  return (
    <select ref={ref} {...rest} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{placeholder ?? 'Choose…'}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
});

export function entityChoices(
  entity: Entity,
  guild: GuildState | undefined,
  channel: Channel,
  users: Map<string, any>,
  meId: string | undefined,
  channelTypes?: number[],
): { value: string; label: string }[] {
  const people = guild
    ? [...guild.members.values()].filter((m) => m.user).map((m) => ({ value: m.user!.id, label: `@${m.nick ?? displayName(m.user)}` }))
    : [...(channel.recipients ?? []), ...(meId && users.get(meId) ? [users.get(meId)] : [])].map((u) => ({ value: u.id, label: `@${displayName(u)}` }));
  const roles = guild
    ? [...guild.roles.values()].sort((a, b) => b.position - a.position).map((r) => ({ value: r.id, label: r.id === guild.id ? '@everyone' : `@${r.name}` }))
    : [];
  const channels = guild
    ? [...guild.channels.values()].filter((c) => !channelTypes?.length || channelTypes.includes(c.type)).map((c) => ({ value: c.id, label: `#${c.name}` }))
    : [{ value: channel.id, label: 'This conversation' }];
  switch (entity) {
    case 'user':
      return people.sort((a, b) => a.label.localeCompare(b.label));
    case 'channel':
      return channels;
    case 'mentionable':
      return [...people, ...roles];
    default:
      return roles;
  }
}
