import { memo, useState } from 'react';
import { useNavigate } from 'react-router';
import { MessageFlag, type Channel, type Message } from '../../lib/api/types.js';
import { Markdown } from '../../lib/markdown/Markdown.js';
import { fullTime, messageTime, shortTime } from '../../lib/markdown/timestamp.js';
import { dismissMessage } from '../../lib/state/message-events.js';
import { useSession, useStore } from '../../lib/session.js';
import { Avatar, displayName, Icon } from '../../lib/ui/index.js';
import { Components } from '../../apps/components/Components.js';
import { Attachments } from './Attachments.js';
import { EditBox } from './EditBox.js';
import { Embed } from './Embed.js';
import { MessageActions } from './MessageActions.js';
import { Poll } from './Poll.js';
import { Reactions } from './Reactions.js';
import { ReplyPreview } from './ReplyPreview.js';
import { SystemMessage, isSystem } from './SystemMessage.js';
import { plural } from '../../lib/plural.js';

/** One message: header (unless grouped), reply, content, embeds, attachments, components, poll, reactions. */
export const MessageItem = memo(function MessageItem({
  message: m,
  grouped,
  channel,
  onReply,
  onEdit,
  editing,
}: {
  message: Message;
  grouped: boolean;
  channel: Channel;
  onReply: (id: string) => void;
  onEdit: (id: string | null) => void;
  editing: boolean;
}) {
  const me = useStore((s) => s.me)!;
  const member = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id)?.members.get(m.author.id) : undefined));
  const roles = useStore((s) => (channel.guild_id ? s.guilds.get(channel.guild_id)?.roles : undefined));
  // The author as the Gateway last described them (a new name or avatar shows on old messages too); webhooks as sent.
  const live = useStore((s) => (m.webhook_id ? undefined : s.users.get(m.author.id)));
  const author = live ?? m.author;
  const { store } = useSession();
  const nav = useNavigate();
  const [hover, setHover] = useState(false);
  if (isSystem(m)) return <SystemMessage message={m} />;

  const flags = m.flags ?? 0;
  const ephemeral = (flags & MessageFlag.EPHEMERAL) !== 0;
  const loading = (flags & MessageFlag.LOADING) !== 0;
  const v2 = (flags & MessageFlag.IS_COMPONENTS_V2) !== 0;
  const mentionsMe = m.mention_everyone || m.mentions?.some((u) => u.id === me.id);
  const name = member?.nick ?? displayName(author);
  const color = roleColor(member?.roles, roles);
  const meta = m.interaction_metadata as { user?: { id: string; username: string; global_name?: string | null }; name?: string } | undefined;
  const commandName = (m as any).interaction?.name as string | undefined;
  const thread = (m as any).thread as Channel | undefined;
  const cls = ['msg', grouped && 'msg--grouped', mentionsMe && 'msg--mention', ephemeral && 'msg--ephemeral', editing && 'msg--editing']
    .filter(Boolean)
    .join(' ');

  return (
    <article
      className={cls}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      // A touch screen has no hover: a tap on the message shows its actions.
      onClick={() => setHover(true)}
      data-message-id={m.id}
      aria-label={`${name}: ${m.content?.slice(0, 80) ?? ''}`}
    >
      {m.type === 19 && m.message_reference ? <ReplyPreview channelId={m.channel_id} reference={m.referenced_message as Message | null | undefined} /> : null}
      {(m.type === 20 || m.type === 23) && meta?.user ? (
        <div className="msg__used">
          <span className="msg__spine" aria-hidden />
          <Avatar user={meta.user as any} size={16} />
          <span className="msg__used-name">{meta.user.global_name ?? meta.user.username}</span>
          <span className="muted">used</span>
          <span className="msg__used-cmd">
            {m.type === 20 ? '/' : ''}
            {commandName ?? meta.name ?? 'command'}
          </span>
        </div>
      ) : null}
      <div className="msg__row">
        <div className="msg__gutter">
          {grouped ? (
            <time className="msg__hovertime" dateTime={m.timestamp}>
              {shortTime(m.timestamp)}
            </time>
          ) : (
            <Avatar user={author} size={40} />
          )}
        </div>
        <div className="msg__body">
          {grouped ? null : (
            <h3 className="msg__head">
              <span className="msg__author" style={color ? { color } : undefined}>
                {name}
              </span>
              {m.author.bot ? (
                <span className="tag">
                  {(m.author.flags ?? 0) & (1 << 16) ? (
                    <>
                      <Icon name="check" size={10} /> App
                    </>
                  ) : (
                    'App'
                  )}
                </span>
              ) : null}
              <time className="msg__time" dateTime={m.timestamp} title={fullTime(m.timestamp)}>
                {messageTime(m.timestamp)}
              </time>
            </h3>
          )}
          {editing ? (
            <EditBox message={m} onDone={() => onEdit(null)} />
          ) : loading ? (
            <div className="msg__thinking">
              <span className="dots" aria-hidden>
                <i />
                <i />
                <i />
              </span>{' '}
              {m.author.global_name ?? m.author.username} is thinking…
            </div>
          ) : m.content ? (
            <div className="msg__content">
              <Markdown text={m.content} />
              {m.edited_timestamp ? (
                <span className="msg__edited" title={fullTime(m.edited_timestamp)}>
                  {' '}
                  (edited)
                </span>
              ) : null}
            </div>
          ) : null}
          {!v2 && !(flags & MessageFlag.SUPPRESS_EMBEDS) ? m.embeds?.map((e, i) => <Embed key={i} embed={e} />) : null}
          {m.attachments?.length && !v2 ? <Attachments attachments={m.attachments} /> : null}
          {m.poll ? <Poll message={m} /> : null}
          {m.components?.length ? <Components message={m} channel={channel} /> : null}
          {m.sticker_items?.length ? (
            <div className="msg__stickers">
              {m.sticker_items.map((s) => (
                <img key={s.id} src={`/stickers/${s.id}.png`} alt={s.name} title={s.name} width={160} height={160} />
              ))}
            </div>
          ) : null}
          {thread ? (
            <button type="button" className="msg__thread" onClick={() => nav(`/channels/${channel.guild_id}/${thread.id}`)}>
              <Icon name="thread" size={16} /> <strong>{thread.name}</strong>{' '}
              <span className="muted">{plural(thread.message_count ?? 0, 'Message', 'Messages')} ›</span>
            </button>
          ) : null}
          {m.reactions?.length ? <Reactions message={m} /> : null}
          {ephemeral ? (
            <div className="msg__ephemeral">
              <Icon name="eye" size={16} /> Only you can see this •{' '}
              <button type="button" className="linklike" onClick={() => dismissMessage(store, m.channel_id, m.id)}>
                Dismiss message
              </button>
            </div>
          ) : null}
        </div>
      </div>
      {hover && !editing && !loading ? <MessageActions message={m} channel={channel} onReply={onReply} onEdit={onEdit} /> : null}
    </article>
  );
});

function roleColor(roleIds: string[] | undefined, roles: Map<string, { color: number; position: number }> | undefined): string | null {
  if (!roleIds?.length || !roles) return null;
  let best: { color: number; position: number } | null = null;
  for (const id of roleIds) {
    const r = roles.get(id);
    if (r?.color && (!best || r.position > best.position)) best = r;
  }
  return best ? `#${best.color.toString(16).padStart(6, '0')}` : null;
}
