import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { APIUser, Channel } from '../../lib/api/types.js';
import { Op } from '@accord/protocol';
import { useSession, useStore } from '../../lib/session.js';
import { Avatar, displayName, Menu, toast, type MenuEntry } from '../../lib/ui/index.js';
import { loadCommands } from '../../apps/command-index.js';
import { runContextCommand } from '../../apps/invoke.js';
import { readableError } from '../../lib/api/errors.js';
import { memberActionItems, ModerationDialog, type ModRequest } from './MemberActions.js';
import { ProfileCard } from './ProfileCard.js';
import './members.css';

interface Row {
  user: APIUser;
  name: string;
  status: string;
  color?: string;
  activity?: string;
}

/**
 * The member list: online people first, then offline, each with presence; a click opens their card, a right click (a
 * long press on a phone) their menu; both offer the member actions the viewer may take.
 */
export function MemberList({ guildId, channel }: { guildId: string | null; channel: Channel }) {
  const { gateway } = useSession();
  const guild = useStore((s) => (guildId ? s.guilds.get(guildId) : undefined));
  const presences = useStore((s) => s.presences);
  const me = useStore((s) => s.me)!;
  const [card, setCard] = useState<{ row: Row; top: number } | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; items: MenuEntry[] } | null>(null);
  const [mod, setMod] = useState<ModRequest | null>(null);
  const { api, store } = useSession();
  const nav = useNavigate();
  const actionsFor = (u: APIUser) => (guild ? memberActionItems(guild, me.id, u, setMod) : []);

  /** Right click: Message, and the user commands of the apps here (user context menu). */
  const openMenu = async (r: Row, x: number, y: number) => {
    const items: MenuEntry[] = [{ label: 'Profile', onSelect: () => setCard({ row: r, top: y }) }];
    if (r.user.id !== me.id && !r.user.bot) {
      items.push({
        label: 'Message',
        onSelect: () =>
          void api.users.openDm(r.user.id).then(
            (c) => nav(`/channels/@me/${c.id}`),
            (err) => toast(readableError(err), true),
          ),
      });
    }
    const actions = actionsFor(r.user);
    if (actions.length) items.push('separator', ...actions);
    const cmds = await loadCommands(api, channel).catch(() => null);
    if (cmds?.user.length) {
      items.push('separator', { heading: 'Apps' });
      for (const { app, command } of cmds.user)
        items.push({
          label: command.name,
          hint: <span className="muted">{app.name}</span>,
          onSelect: () => void runContextCommand(api, store, channel, command, app.name, r.user.id),
        });
    }
    items.push('separator', { label: 'Copy User ID', onSelect: () => void navigator.clipboard?.writeText(r.user.id) });
    setMenu({ x, y, items });
  };

  // Large guilds list only a few members in GUILD_CREATE: ask for the rest (op 8), with presences, which also makes
  // the session follow their presence changes. Again when a new session's GUILD_CREATE lists a few members only.
  const incomplete = !!guild && guild.members.size < guild.memberCount;
  useEffect(() => {
    if (guild && incomplete && guild.memberCount <= 1000) gateway?.send(Op.REQUEST_GUILD_MEMBERS, { guild_id: guild.id, query: '', limit: 0, presences: true });
  }, [guild?.id, gateway, incomplete]);

  const rows = useMemo<Row[]>(() => {
    const people: Row[] = [];
    if (guild) {
      for (const m of guild.members.values()) {
        if (!m.user) continue;
        const top = m.roles
          .map((id) => guild.roles.get(id))
          .filter((r) => r?.color)
          .sort((a, b) => b!.position - a!.position)[0];
        const p = presences.get(m.user.id);
        people.push({
          user: m.user,
          name: m.nick ?? displayName(m.user),
          status: m.user.id === me.id ? 'online' : (p?.status ?? 'offline'),
          color: top ? `#${top.color.toString(16).padStart(6, '0')}` : undefined,
          activity: p?.activities?.[0]?.name,
        });
      }
    } else {
      for (const u of [...(channel.recipients ?? []), me])
        people.push({ user: u, name: displayName(u), status: u.id === me.id ? 'online' : (presences.get(u.id)?.status ?? 'offline') });
    }
    return people.sort((a, b) => a.name.localeCompare(b.name));
  }, [guild, presences, channel]);
  const online = rows.filter((r) => r.status !== 'offline' && r.status !== 'invisible');
  const offline = rows.filter((r) => r.status === 'offline' || r.status === 'invisible');

  const section = (label: string, list: Row[]) =>
    list.length ? (
      <div className="members__group" key={label}>
        <h2 className="members__head">
          {label} — {list.length}
        </h2>
        {list.map((r) => (
          <button
            key={r.user.id}
            type="button"
            className={r.status === 'offline' ? 'member member--offline' : 'member'}
            data-user={r.user.id}
            onClick={(e) => setCard({ row: r, top: e.currentTarget.getBoundingClientRect().top })}
            onContextMenu={(e) => {
              e.preventDefault();
              void openMenu(r, e.clientX, e.clientY);
            }}
          >
            <Avatar user={r.user} size={32} status={r.status} ring="var(--bg-sidebar)" />
            <span className="grow" style={{ minWidth: 0 }}>
              <span className="member__name ellipsis" style={r.color ? { color: r.color } : undefined}>
                {r.name}
                {r.user.bot ? (
                  <span className="tag" style={{ marginLeft: 6 }}>
                    App
                  </span>
                ) : null}
              </span>
              {r.activity ? (
                <span className="member__activity ellipsis">
                  Playing <strong>{r.activity}</strong>
                </span>
              ) : null}
            </span>
          </button>
        ))}
      </div>
    ) : null;

  return (
    <aside className="members" aria-label="Members">
      {section('Online', online)}
      {section('Offline', offline)}
      {menu ? <Menu x={menu.x} y={menu.y} items={menu.items} onClose={() => setMenu(null)} label="User menu" /> : null}
      {card ? <ProfileCard person={card.row} guildId={guildId} top={card.top} actions={actionsFor(card.row.user)} onClose={() => setCard(null)} /> : null}
      {mod && guildId ? <ModerationDialog guildId={guildId} request={mod} onClose={() => setMod(null)} /> : null}
    </aside>
  );
}
