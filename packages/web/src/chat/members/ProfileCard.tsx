import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import type { APIUser } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { fullTime } from '../../lib/markdown/timestamp.js';
import { useSession, useStore } from '../../lib/session.js';
import { Avatar, Button, toast, type MenuEntry } from '../../lib/ui/index.js';
import { roleColor, timeoutEnd } from './moderation.js';

/** The member list's row as the card needs it. */
export interface CardPerson {
  user: APIUser;
  name: string;
  status: string;
  color?: string;
}

/**
 * The user popout: banner, avatar, names, their roles in the server, a timeout if there is one, Message, and the member
 * actions the viewer may take (MemberActions.tsx), as buttons a keyboard reaches.
 */
export function ProfileCard({
  person: row,
  guildId,
  top,
  actions,
  onClose,
}: {
  person: CardPerson;
  guildId: string | null;
  top: number;
  actions: MenuEntry[];
  onClose: () => void;
}) {
  const { api } = useSession();
  const me = useStore((s) => s.me)!;
  const guild = useStore((s) => (guildId ? s.guilds.get(guildId) : undefined));
  const nav = useNavigate();
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  // Opened from the keyboard (Enter on a member), the card takes focus, and gives it back when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('button')?.focus();
    return () => {
      if (before?.isConnected && !document.querySelector('[aria-modal="true"]')) before.focus();
    };
  }, []);
  useEffect(() => {
    const k = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', k);
    return () => window.removeEventListener('keydown', k);
  }, [onClose]);
  const member = guild?.members.get(row.user.id);
  const roles = (member?.roles ?? [])
    .map((id) => guild?.roles.get(id))
    .filter((r) => !!r)
    .sort((a, b) => b.position - a.position);
  const until = timeoutEnd(member?.communication_disabled_until);
  const message = async () => {
    setBusy(true);
    try {
      const c = await api.users.openDm(row.user.id);
      onClose();
      nav(`/channels/@me/${c.id}`);
    } catch (err) {
      toast(readableError(err), true);
      setBusy(false);
    }
  };
  return (
    <div className="overlay overlay--clear" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="profile profile-card"
        role="dialog"
        aria-label={row.name}
        ref={ref}
        style={{ '--profile-top': `${Math.min(top, window.innerHeight - 260)}px` } as CSSProperties}
      >
        <div className="profile__banner" style={{ background: row.color ?? 'var(--accent)' }} />
        <div className="profile__avatar">
          <Avatar user={row.user} size={80} status={row.status} ring="var(--bg-floating)" />
        </div>
        <div className="profile__body">
          <div className="profile__name">{row.name}</div>
          <div className="muted">
            {row.user.username}
            {row.user.bot ? ' · App' : ''}
          </div>
          {until ? <div className="profile__timeout">Timed out until {fullTime(new Date(until).toISOString())}</div> : null}
          {roles.length ? (
            <>
              <h3 className="profile__label">Roles</h3>
              <ul className="profile__roles" aria-label="Roles">
                {roles.map((r) => (
                  <li key={r.id} className="profile__role">
                    <span className="mod__dot" style={{ background: roleColor(r) ?? 'var(--text-muted)' }} aria-hidden />
                    {r.name}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {row.user.id !== me.id && !row.user.bot ? (
            <Button block busy={busy} onClick={() => void message()} className="profile__msg">
              Message
            </Button>
          ) : null}
          {row.user.bot ? (
            <Button
              block
              variant="secondary"
              className="profile__msg"
              onClick={() => {
                onClose();
                nav(`/application-directory/${row.user.id}/store`);
              }}
            >
              Open Store
            </Button>
          ) : null}
          {actions.length ? (
            <div className="profile__actions" role="group" aria-label="Member actions">
              {actions.map((a) =>
                typeof a === 'object' && 'label' in a ? (
                  <Button
                    key={a.label}
                    size="sm"
                    variant={a.danger ? 'danger' : 'secondary'}
                    onClick={() => {
                      onClose();
                      a.onSelect();
                    }}
                  >
                    {a.label}
                  </Button>
                ) : null,
              )}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
