import { useState } from 'react';
import { isThread, isVoice } from '../../lib/api/types.js';
import { channelPermissions, has, Perm } from '../../lib/state/permissions.js';
import { useStore } from '../../lib/session.js';
import { ErrorState, Icon, Loading } from '../../lib/ui/index.js';
import { useLater } from '../../lib/use-later.js';
import { Composer } from '../composer/Composer.js';
import { ForumView } from '../forum/ForumView.js';
import { MemberList } from '../members/MemberList.js';
import { MessageList } from '../messages/MessageList.js';
import { dmName } from '../sidebar/DmSidebar.js';
import { channelIcon } from '../sidebar/channel-tree.js';
import { PinsPopover } from './PinsPopover.js';
import { TypingIndicator } from './TypingIndicator.js';
import { VoiceView } from './VoiceView.js';
import { MessageSearch } from '../search/MessageSearch.js';
import { ActivityDock, ActivityLauncherButton } from '../../activity/ActivityDock.js';
import { CallButton } from '../../voice/CallButton.js';
import { NavDrawerButton, useDrawers, usePhone } from '../drawers.js';
import { useOwnTimeoutEnd } from '../members/use-timeout.js';
import { fullTime } from '../../lib/markdown/timestamp.js';

/** The open channel: its header, then messages and the composer (or a forum's posts, or a voice channel's people). */
export function ChannelView({ guildId, channelId }: { guildId: string | null; channelId: string }) {
  const channel = useStore((s) => (guildId ? s.guilds.get(guildId)?.channels.get(channelId) : s.privateChannels.get(channelId)));
  const guild = useStore((s) => (guildId ? s.guilds.get(guildId) : undefined));
  const me = useStore((s) => s.me)!;
  const [members, setMembers] = useState(true);
  const [pins, setPins] = useState(false);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const late = useLater(channelId);
  const phone = usePhone();
  const drawers = useDrawers();
  const timedOutUntil = useOwnTimeoutEnd(guildId);
  if (!channel)
    return (
      <section className="channel">
        {late ? <ErrorState title="Channel not found" message="This channel does not exist or you cannot see it." /> : <Loading label="Opening channel…" />}
      </section>
    );

  const title = guildId ? (channel.name ?? '') : dmName(channel);
  const perms = guild ? channelPermissions(guild, me.id, channel) : (1n << 64n) - 1n;
  const sendBit = isThread(channel.type) ? Perm.SEND_MESSAGES_IN_THREADS : Perm.SEND_MESSAGES;
  const locked = channel.thread_metadata?.locked && !has(perms, Perm.MANAGE_THREADS);
  const cannotSend = timedOutUntil
    ? `You are timed out until ${fullTime(new Date(timedOutUntil).toISOString())}. You can read messages, but cannot send them or react.`
    : !has(perms, sendBit)
      ? 'You do not have permission to send messages in this channel.'
      : locked
        ? 'This thread is locked.'
        : null;
  const parent = isThread(channel.type) && channel.parent_id ? guild?.channels.get(channel.parent_id) : undefined;
  // On a phone the member list is a drawer, always there to be opened; on a desktop the button shows or hides it.
  const showMembers = (phone || members) && (!!guildId || channel.type === 3);
  const membersShown = phone ? drawers.open === 'members' : members;
  const forum = channel.type === 15 || channel.type === 16;
  const activityPlace = guildId ? `#${title}` : title;

  return (
    <section className="channel" aria-label={title}>
      <header className="channel__header">
        <NavDrawerButton />
        {channel.type === 1 ? (
          <span className="channel__at">@</span>
        ) : (
          <Icon name={channel.type === 3 ? 'users' : channelIcon(channel.type)} size={22} className="channel__icon" />
        )}
        {parent ? (
          <>
            <span className="channel__parent">{parent.name}</span>
            <span className="muted">›</span>
          </>
        ) : null}
        <h1 className="channel__title">{title}</h1>
        {channel.topic ? (
          <>
            <span className="channel__divider" />
            <span className="channel__topic ellipsis">{channel.topic}</span>
          </>
        ) : (
          <span className="grow" />
        )}
        <span className="grow" />
        {channel.type === 1 || channel.type === 3 ? <CallButton channel={channel} /> : null}
        {!forum ? <ActivityLauncherButton guildId={guildId} channelId={channel.id} channelLabel={activityPlace} /> : null}
        {!forum && !isVoice(channel.type) ? (
          <button
            type="button"
            className="icon-btn"
            aria-label="Pinned Messages"
            title="Pinned Messages"
            aria-pressed={pins}
            onClick={() => setPins((p) => !p)}
          >
            <Icon name="pin" />
          </button>
        ) : null}
        {guildId || channel.type === 3 ? (
          <button
            type="button"
            className="icon-btn"
            aria-label={membersShown ? 'Hide Member List' : 'Show Member List'}
            title="Member List"
            aria-pressed={membersShown}
            onClick={() => (phone ? drawers.setOpen(membersShown ? null : 'members') : setMembers((m) => !m))}
          >
            <Icon name="users" />
          </button>
        ) : null}
        {guildId ? <MessageSearch guildId={guildId} /> : null}
        {pins ? <PinsPopover channel={channel} onClose={() => setPins(false)} /> : null}
      </header>
      <div className="channel__body">
        <div className="channel__content">
          {!forum ? <ActivityDock channelId={channel.id} channelLabel={activityPlace} /> : null}
          {forum ? (
            <ForumView channel={channel} canPost={has(perms, Perm.SEND_MESSAGES)} />
          ) : isVoice(channel.type) ? (
            <VoiceView channel={channel} />
          ) : (
            <>
              <MessageList channel={{ ...channel, name: title }} onReply={setReplyTo} onEdit={setEditing} editingId={editing} />
              <Composer
                channel={channel}
                placeholder={`Message ${channel.type === 1 ? '@' : channel.type === 3 || isThread(channel.type) ? '' : '#'}${title}`}
                replyTo={replyTo}
                onCancelReply={() => setReplyTo(null)}
                disabledReason={cannotSend}
                editing={editing}
                onEdit={setEditing}
              />
              <TypingIndicator channelId={channel.id} guildId={guildId} />
            </>
          )}
        </div>
        {showMembers ? <MemberList guildId={guildId} channel={channel} /> : null}
      </div>
    </section>
  );
}
