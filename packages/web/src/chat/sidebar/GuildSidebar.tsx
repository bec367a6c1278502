import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isVoice, type Channel } from '../../lib/api/types.js';
import { channelPermissions, has, Perm } from '../../lib/state/permissions.js';
import { useSession, useStore } from '../../lib/session.js';
import { Icon, Menu, type MenuEntry } from '../../lib/ui/index.js';
import { CreateChannelDialog } from './CreateChannelDialog.js';
import { InviteDialog } from './InviteDialog.js';
import { UserPanel } from './UserPanel.js';
import { VoiceMembers } from './VoiceMembers.js';
import { channelIcon, channelTree } from './channel-tree.js';
import { ackGuild, isUnread } from '../../lib/state/read-states.js';
import { MentionBadge } from '../read-states/MentionBadge.js';
import { allowedSections, settingsPath } from '../../settings/server/access.js';

/** The guild's channel list: its name with a menu, categories that fold, channels, threads and voice members. */
export function GuildSidebar({ guildId, activeId }: { guildId: string; activeId?: string }) {
  const guild = useStore((s) => s.guilds.get(guildId))!;
  const me = useStore((s) => s.me)!;
  const { api, store } = useSession();
  const nav = useNavigate();
  const tree = useMemo(() => channelTree(guild), [guild.channels]);
  const [folded, setFolded] = useState<Set<string>>(new Set());
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [dialog, setDialog] = useState<'invite' | 'channel' | null>(null);
  const perms = channelPermissions(guild, me.id, undefined);

  const entries: MenuEntry[] = [
    { label: 'Mark As Read', onSelect: () => void ackGuild(api, store, guildId) },
    { label: 'Invite People', onSelect: () => setDialog('invite') },
    ...(allowedSections(guild, me.id).length ? [{ label: 'Server Settings', onSelect: () => nav(settingsPath(guildId)) }] : []),
    ...(has(perms, Perm.MANAGE_CHANNELS) ? [{ label: 'Create Channel', onSelect: () => setDialog('channel') }] : []),
    'separator',
    ...(guild.ownerId !== me.id
      ? [{ label: 'Leave Server', danger: true, onSelect: () => void api.users.leaveGuild(guildId).then(() => nav('/channels/@me')) }]
      : []),
  ];
  const toggle = (id: string) =>
    setFolded((f) => {
      const n = new Set(f);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <aside className="sidebar" aria-label={`${guild.name} channels`}>
      <button
        type="button"
        className="sidebar__header"
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setMenu({ x: r.left + 8, y: r.bottom + 4 });
        }}
        aria-haspopup="menu"
      >
        <span className="ellipsis">{guild.name}</span>
        <Icon name="chevron" size={18} />
      </button>
      <div className="sidebar__scroll">
        {tree.map(({ category, channels }) => {
          const visible = channels.filter(({ channel }) => has(channelPermissions(guild, me.id, channel), Perm.VIEW_CHANNEL));
          if (category && !visible.length && !has(perms, Perm.MANAGE_CHANNELS)) return null;
          const isFolded = category ? folded.has(category.id) : false;
          return (
            <div key={category?.id ?? 'top'} className="cat">
              {category ? (
                <button type="button" className="cat__head" aria-expanded={!isFolded} onClick={() => toggle(category.id)}>
                  <Icon name="chevron" size={12} className={isFolded ? 'cat__chev cat__chev--folded' : 'cat__chev'} />
                  <span className="ellipsis">{category.name}</span>
                </button>
              ) : null}
              {visible.map(({ channel, threads }) =>
                isFolded && channel.id !== activeId ? null : (
                  <div key={channel.id}>
                    <ChannelRow guildId={guildId} channel={channel} active={channel.id === activeId} />
                    {isVoice(channel.type) ? <VoiceMembers guild={guild} channelId={channel.id} /> : null}
                    {threads.map((t) => (
                      <Link
                        key={t.id}
                        to={`/channels/${guildId}/${t.id}`}
                        className={t.id === activeId ? 'chan chan--thread chan--active' : 'chan chan--thread'}
                      >
                        <span className="chan__spine" aria-hidden />
                        <span className="ellipsis">{t.name}</span>
                      </Link>
                    ))}
                  </div>
                ),
              )}
            </div>
          );
        })}
      </div>
      <UserPanel />
      {menu ? <Menu x={menu.x} y={menu.y} items={entries} onClose={() => setMenu(null)} label="Server menu" /> : null}
      {dialog === 'invite' ? <InviteDialog guild={guild} channelId={activeId} onClose={() => setDialog(null)} /> : null}
      {dialog === 'channel' ? <CreateChannelDialog guildId={guildId} onClose={() => setDialog(null)} /> : null}
    </aside>
  );
}

function ChannelRow({ guildId, channel, active }: { guildId: string; channel: Channel; active: boolean }) {
  const rs = useStore((s) => s.readStates.get(channel.id));
  const unread = isUnread(channel, rs);
  return (
    <Link
      to={`/channels/${guildId}/${channel.id}`}
      className={`chan${active ? ' chan--active' : ''}${unread ? ' chan--unread' : ''}`}
      data-unread={unread || undefined}
      aria-current={active ? 'page' : undefined}
      data-channel-type={channel.type}
    >
      <Icon name={channelIcon(channel.type)} size={20} className="chan__icon" />
      <span className="ellipsis">{channel.name}</span>
      {unread ? <MentionBadge count={rs?.mentionCount ?? 0} /> : null}
    </Link>
  );
}
