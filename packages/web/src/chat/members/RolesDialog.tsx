import { useEffect, useState } from 'react';
import type { APIRole, APIUser } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useStore } from '../../lib/session.js';
import { Banner, Button, Dialog, displayName } from '../../lib/ui/index.js';
import { roleColor } from './moderation.js';

/** Gives and takes roles one tick at a time (PUT/DELETE …/roles/{id}); the ticks follow the member's live roles. */
export function RolesDialog({
  guildId,
  user,
  roles,
  setRole,
  onClose,
}: {
  guildId: string;
  user: APIUser;
  /** The roles the acting person may manage, highest first. */
  roles: APIRole[];
  setRole: (roleId: string, add: boolean) => Promise<unknown>;
  onClose: () => void;
}) {
  const held = useStore((s) => s.guilds.get(guildId)?.members.get(user.id)?.roles) ?? [];
  // A tick the person chose: in flight, then kept until the live member update confirms it,
  // so the box does not flick back between the 204 and GUILD_MEMBER_UPDATE.
  const [pending, setPending] = useState<Map<string, { add: boolean; sent: boolean }>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const forget = (roleId: string, only?: { add: boolean; sent: boolean }) =>
    setPending((p) => {
      if (only && p.get(roleId) !== only) return p;
      const next = new Map(p);
      next.delete(roleId);
      return next;
    });
  useEffect(() => {
    for (const [roleId, want] of pending) if (want.sent && held.includes(roleId) === want.add) forget(roleId, want);
  }, [held, pending]);
  const toggle = async (role: APIRole, add: boolean) => {
    setError(null);
    setPending((p) => new Map(p).set(role.id, { add, sent: false }));
    try {
      await setRole(role.id, add);
      setPending((p) => new Map(p).set(role.id, { add, sent: true }));
    } catch (err) {
      setError(readableError(err));
      forget(role.id);
    }
  };
  return (
    <Dialog
      title="Roles"
      subtitle={displayName(user)}
      onClose={onClose}
      footer={
        <Button onClick={onClose} variant="secondary">
          Done
        </Button>
      }
    >
      {roles.length ? (
        <ul className="mod__roles">
          {roles.map((r) => {
            const want = pending.get(r.id);
            const checked = want?.add ?? held.includes(r.id);
            return (
              <li key={r.id}>
                <label className="mod__choice">
                  <input type="checkbox" checked={checked} disabled={want !== undefined && !want.sent} onChange={(e) => void toggle(r, e.target.checked)} />
                  <span className="mod__dot" style={{ background: roleColor(r) ?? 'var(--text-muted)' }} aria-hidden />
                  {r.name}
                </label>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">There is no role you can give: roles must be below your highest role.</p>
      )}
      {error ? <Banner>{error}</Banner> : null}
    </Dialog>
  );
}
