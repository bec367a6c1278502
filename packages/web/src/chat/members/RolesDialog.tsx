import { useState } from 'react';
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
  const [pending, setPending] = useState<Map<string, boolean>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const toggle = async (role: APIRole, add: boolean) => {
    setError(null);
    setPending((p) => new Map(p).set(role.id, add));
    try {
      await setRole(role.id, add);
    } catch (err) {
      setError(readableError(err));
    } finally {
      setPending((p) => {
        const next = new Map(p);
        next.delete(role.id);
        return next;
      });
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
            const checked = want ?? held.includes(r.id);
            return (
              <li key={r.id}>
                <label className="mod__choice">
                  <input type="checkbox" checked={checked} disabled={want !== undefined} onChange={(e) => void toggle(r, e.target.checked)} />
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
