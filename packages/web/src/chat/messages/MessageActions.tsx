import { useState } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../../lib/api/errors.js';
import { MessageFlag, type Channel, type Message } from '../../lib/api/types.js';
import { channelPermissions, has, Perm } from '../../lib/state/permissions.js';
import { dismissMessage } from '../../lib/state/message-events.js';
import { useSession, useStore } from '../../lib/session.js';
import { confirmInPage, Icon, Menu, toast, type MenuEntry } from '../../lib/ui/index.js';
import { loadCommands } from '../../apps/command-index.js';
import { runContextCommand } from '../../apps/invoke.js';
import { EmojiPicker } from './EmojiPicker.js';
import { Twemoji } from '../../lib/emoji/Emoji.js';

/** The toolbar on a hovered message: react, reply, edit, thread, and a menu with pin, delete, copy and Apps. */
export function MessageActions({
  message: m,
  channel,
  onReply,
  onEdit,
}: {
  message: Message;
  channel: Channel;
  onReply: (id: string) => void;
  onEdit: (id: string | null) => void;
}) {
  const { api, store } = useSession();
  const nav = useNavigate();
  const me = useStore((s) => s.me)!;
  const guild = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const [menu, setMenu] = useState<{ x: number; y: number; items: MenuEntry[] } | null>(null);
  const [picking, setPicking] = useState<{ x: number; y: number } | null>(null);
  const mine = m.author.id === me.id;
  const ephemeral = ((m.flags ?? 0) & MessageFlag.EPHEMERAL) !== 0;
  const perms = guild ? channelPermissions(guild, me.id, channel) : (1n << 64n) - 1n;
  const canManage = guild ? has(perms, Perm.MANAGE_MESSAGES) : false;
  const canPin = !guild || canManage || has(perms, Perm.PIN_MESSAGES);
  const canThread = !!guild && (channel.type === 0 || channel.type === 5) && has(perms, Perm.CREATE_PUBLIC_THREADS) && !(m as any).thread;
  const fail = (err: unknown) => toast(readableError(err), true);

  const react = (emoji: string) => api.channels.react(m.channel_id, m.id, emoji).catch(fail);
  const thread = async () => {
    const name = (m.content || 'Thread').replace(/\s+/g, ' ').slice(0, 40);
    try {
      const t = await api.channels.threadFromMessage(channel.id, m.id, name);
      nav(`/channels/${channel.guild_id}/${t.id}`);
    } catch (err) {
      fail(err);
    }
  };

  const openMenu = async (x: number, y: number) => {
    const items: MenuEntry[] = [];
    if (ephemeral) {
      items.push({ label: 'Dismiss message', onSelect: () => dismissMessage(store, m.channel_id, m.id) });
    } else {
      items.push({ label: 'Add Reaction', onSelect: () => setPicking({ x, y }) });
      if (mine && m.type !== 20 && m.type !== 23) items.push({ label: 'Edit Message', onSelect: () => onEdit(m.id) });
      items.push({ label: 'Reply', onSelect: () => onReply(m.id) });
      if (canThread) items.push({ label: 'Create Thread', onSelect: () => void thread() });
      if (canPin)
        items.push(
          m.pinned
            ? { label: 'Unpin Message', onSelect: () => api.channels.unpin(channel.id, m.id).catch(fail) }
            : {
                label: 'Pin Message',
                onSelect: () =>
                  api.channels
                    .pin(channel.id, m.id)
                    .then(() => toast('Message pinned'))
                    .catch(fail),
              },
        );
    }
    items.push({ label: 'Copy Text', onSelect: () => void navigator.clipboard?.writeText(m.content ?? '') });
    items.push({ label: 'Copy Message ID', onSelect: () => void navigator.clipboard?.writeText(m.id) });
    const cmds = await loadCommands(api, channel).catch(() => null);
    if (cmds?.message.length && !ephemeral) {
      items.push('separator', { heading: 'Apps' });
      for (const { app, command } of cmds.message)
        items.push({
          label: command.name,
          hint: <span className="muted">{app.name}</span>,
          onSelect: () => void runContextCommand(api, store, channel, command, app.name, m.id),
        });
    }
    if (!ephemeral && (mine || canManage))
      items.push('separator', {
        label: 'Delete Message',
        danger: true,
        onSelect: () =>
          void confirmInPage({ title: 'Delete Message', body: 'Are you sure you want to delete this message?', confirmLabel: 'Delete', danger: true }).then(
            (yes) => {
              if (yes) api.channels.remove(channel.id, m.id).catch(fail);
            },
          ),
      });
    setMenu({ x, y, items });
  };

  return (
    <div className="msg__actions" role="toolbar" aria-label="Message actions">
      {!ephemeral ? (
        <>
          {['👍', '❤️', '🎉'].map((e) => (
            <button key={e} type="button" className="icon-btn" aria-label={`React with ${e}`} onClick={() => react(e)}>
              <Twemoji emoji={e} className="emoji--action" />
            </button>
          ))}
          <button
            type="button"
            className="icon-btn"
            aria-label="Add Reaction"
            title="Add Reaction"
            onClick={(e) => {
              const r = e.currentTarget.getBoundingClientRect();
              setPicking({ x: r.left - 280, y: r.bottom + 4 });
            }}
          >
            <Icon name="smile" size={18} />
          </button>
          <button type="button" className="icon-btn" aria-label="Reply" title="Reply" onClick={() => onReply(m.id)}>
            <Icon name="reply" size={18} />
          </button>
          {mine && m.type !== 20 && m.type !== 23 ? (
            <button type="button" className="icon-btn" aria-label="Edit" title="Edit" onClick={() => onEdit(m.id)}>
              <Icon name="edit" size={18} />
            </button>
          ) : null}
          {canThread ? (
            <button type="button" className="icon-btn" aria-label="Create Thread" title="Create Thread" onClick={() => void thread()}>
              <Icon name="thread" size={18} />
            </button>
          ) : null}
        </>
      ) : null}
      <button
        type="button"
        className="icon-btn"
        aria-label="More"
        title="More"
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          void openMenu(r.left - 160, r.bottom + 4);
        }}
      >
        <Icon name="more" size={18} />
      </button>
      {menu ? <Menu x={menu.x} y={menu.y} items={menu.items} onClose={() => setMenu(null)} label="Message menu" /> : null}
      {picking ? (
        <EmojiPicker
          x={picking.x}
          y={picking.y}
          guildId={channel.guild_id}
          onPick={(e) => {
            setPicking(null);
            void react(e);
          }}
          onClose={() => setPicking(null)}
        />
      ) : null}
    </div>
  );
}
