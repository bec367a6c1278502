import { useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { useLater } from '../lib/use-later.js';
import { Navigate, useNavigate, useParams } from 'react-router';
import { MentionContext, type MentionResolver } from '../lib/markdown/Markdown.js';
import { useSession, useStore } from '../lib/session.js';
import { ErrorState, Loading } from '../lib/ui/index.js';
import { isVoice } from '../lib/api/types.js';
import { AddServerDialog } from './AddServerDialog.js';
import { ChannelView } from './channel/ChannelView.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { DmHome } from './DmHome.js';
import { DrawerProvider, DrawerScrim, type DrawerSide } from './drawers.js';
import { GuildRail } from './GuildRail.js';
import { DmSidebar } from './sidebar/DmSidebar.js';
import { GuildSidebar } from './sidebar/GuildSidebar.js';
import { firstTextChannel } from './sidebar/channel-tree.js';
import { ModalHost } from '../apps/ModalHost.js';
import { useReadStateEffects } from './read-states/use-read-state-effects.js';

/** /channels/@me and /channels/{guild}/{channel}: the rail, the channel sidebar, the channel and its members. */
export function ChatApp() {
  const { guildId = '@me', channelId } = useParams();
  const status = useStore((s) => s.status);
  const detail = useStore((s) => s.statusDetail);
  const me = useStore((s) => s.me);
  const guild = useStore((s) => (guildId === '@me' ? null : s.guilds.get(guildId)));
  const [adding, setAdding] = useState(false);
  const mentions = useMentionResolver(guildId);
  const late = useLater(guildId, 5000);
  useReadStateEffects();

  if (!me) {
    if (status === 'failed')
      return <ErrorState title="Cannot connect" message={detail ?? 'The Gateway refused the session.'} onRetry={() => location.reload()} />;
    return <Loading label="Connecting…" />;
  }
  if (guildId !== '@me') {
    // A guild just created or joined arrives over the Gateway a moment after the HTTP answer: wait a little.
    if (!guild)
      return (
        <Shell active={guildId} onAdd={() => setAdding(true)} adding={adding} onCloseAdd={() => setAdding(false)}>
          {late ? <ErrorState title="Server not found" message="This server does not exist or you are not a member." /> : <Loading label="Loading server…" />}
        </Shell>
      );
    if (guild.unavailable)
      return (
        <Shell active={guildId} onAdd={() => setAdding(true)} adding={adding} onCloseAdd={() => setAdding(false)}>
          <Loading label="Loading server…" />
        </Shell>
      );
    if (!channelId) {
      const first = firstTextChannel(guild);
      if (first) return <Navigate to={`/channels/${guildId}/${first}`} replace />;
    }
  }

  return (
    <MentionContext.Provider value={mentions}>
      <Shell active={guildId} onAdd={() => setAdding(true)} adding={adding} onCloseAdd={() => setAdding(false)}>
        {guildId === '@me' ? <DmSidebar activeId={channelId} /> : <GuildSidebar guildId={guildId} activeId={channelId} />}
        {channelId ? (
          <ChannelView key={channelId} guildId={guildId === '@me' ? null : guildId} channelId={channelId} />
        ) : guildId === '@me' ? (
          <DmHome />
        ) : (
          <EmptyGuild />
        )}
      </Shell>
      <ModalHost />
    </MentionContext.Provider>
  );
}

function Shell({
  active,
  onAdd,
  adding,
  onCloseAdd,
  children,
}: {
  active: string;
  onAdd: () => void;
  adding: boolean;
  onCloseAdd: () => void;
  children: ReactNode;
}) {
  const { channelId } = useParams();
  // On a phone (styles/phone.css) the rail with the channel list, and the member list, are drawers.
  const [drawer, setDrawer] = useState<DrawerSide>(null);
  const drawers = useMemo(() => ({ open: drawer, setOpen: setDrawer }), [drawer]);
  useEffect(() => setDrawer((d) => (d === 'members' ? null : d)), [channelId]);
  useEffect(() => {
    if (!drawer) return;
    // Escape closes the drawer, unless it is closing a dialog opened from it.
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !document.querySelector('[aria-modal="true"]') && setDrawer(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer]);
  // Picking a channel or a conversation in the drawer closes it, to show what was picked.
  const picked = (e: MouseEvent) => drawer === 'nav' && (e.target as Element).closest('.sidebar a[href]') && setDrawer(null);
  return (
    <DrawerProvider value={drawers}>
      <div className={drawer ? `chat chat--${drawer}-open` : 'chat'} onClick={picked}>
        <GuildRail active={active} onAdd={onAdd} />
        <div className="chat__body">
          <ConnectionBanner />
          <div className="chat__main">{children}</div>
        </div>
        <DrawerScrim />
        {adding ? <AddServerDialog onClose={onCloseAdd} /> : null}
      </div>
    </DrawerProvider>
  );
}

function EmptyGuild() {
  return <ErrorState title="No text channels" message="This server has no channel you can read yet." />;
}

/** Names for mentions: people from everything the store knows, channels and roles from the open guild. */
function useMentionResolver(guildId: string): MentionResolver {
  const { store } = useSession();
  const nav = useNavigate();
  const users = useStore((s) => s.users);
  const guild = useStore((s) => (guildId === '@me' ? null : s.guilds.get(guildId)));
  return useMemo<MentionResolver>(
    () => ({
      user: (id) => {
        const member = guild?.members.get(id);
        const u = users.get(id);
        return member?.nick ?? u?.global_name ?? u?.username ?? null;
      },
      channel: (id) => {
        for (const g of store.state.guilds.values()) {
          const c = g.channels.get(id);
          if (c) return c.name ?? null;
        }
        return null;
      },
      role: (id) => {
        const r = guild?.roles.get(id);
        return r ? { name: r.name, color: r.color } : null;
      },
      openChannel: (id) => {
        for (const g of store.state.guilds.values()) {
          const c = g.channels.get(id);
          if (c && !isVoice(c.type)) return nav(`/channels/${g.id}/${id}`);
        }
      },
    }),
    [guild, users],
  );
}
