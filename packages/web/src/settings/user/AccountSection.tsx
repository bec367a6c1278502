import { useState } from 'react';
import { useStore } from '../../lib/session.js';
import { Avatar, Button, displayName } from '../../lib/ui/index.js';
import { AccountFieldDialog } from './AccountFieldDialog.js';
import { PasswordDialog } from './PasswordDialog.js';
import { bannerColor } from './ProfilePreview.js';
import type { SelfUser } from './api.js';

/** My Account: the card, then the username and email (each changed with the current password) and the password. */
export function AccountSection({ onEditProfile }: { onEditProfile: () => void }) {
  const me = useStore((s) => s.me) as SelfUser;
  const [editing, setEditing] = useState<'username' | 'email' | 'password' | null>(null);
  const row = (label: string, value: string, onEdit?: () => void, editLabel?: string) => (
    <div className="usettings__row">
      <div className="grow" style={{ minWidth: 0 }}>
        <div className="usettings__label">{label}</div>
        <div className="usettings__value ellipsis">{value}</div>
      </div>
      {onEdit ? (
        <Button variant="secondary" size="sm" onClick={onEdit} aria-label={editLabel}>
          Edit
        </Button>
      ) : null}
    </div>
  );
  return (
    <>
      <section className="usettings__card" aria-label="Your account">
        <div className="usettings__cardbanner" style={{ background: bannerColor(me.accent_color) }} />
        <div className="usettings__cardhead">
          <span className="usettings__cardavatar">
            <Avatar user={me} size={80} />
          </span>
          <div className="usettings__cardname ellipsis">{displayName(me)}</div>
          <Button onClick={onEditProfile}>Edit User Profile</Button>
        </div>
        <div className="usettings__rows">
          {row('Display Name', me.global_name ?? 'You have not set a display name yet.', onEditProfile, 'Edit display name')}
          {row('Username', me.username, () => setEditing('username'), 'Edit username')}
          {row('Email', me.email ?? 'No email on this account.', () => setEditing('email'), 'Edit email')}
        </div>
      </section>
      <h3 className="usettings__subtitle">Password and Authentication</h3>
      <Button onClick={() => setEditing('password')}>Change Password</Button>
      {editing === 'username' || editing === 'email' ? (
        <AccountFieldDialog field={editing} current={(editing === 'username' ? me.username : me.email) ?? ''} onClose={() => setEditing(null)} />
      ) : null}
      {editing === 'password' ? <PasswordDialog onClose={() => setEditing(null)} /> : null}
    </>
  );
}
