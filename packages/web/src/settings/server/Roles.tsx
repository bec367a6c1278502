import { useState, type DragEvent } from 'react';
import type { APIRole, Snowflake } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, Icon } from '../../lib/ui/index.js';
import { canEditRole, highestPosition, roleColor, rolesTopDown } from './access.js';
import { RoleEditor } from './RoleEditor.js';
import type { SectionProps } from './section-props.js';
import { useOpenItem } from './use-open-item.js';

/**
 * The roles, highest first, @everyone last. Drag a row (or use its up and down buttons) to reorder; open one to
 * edit it. Roles at or above your highest role are shown locked unless you own the server.
 */
export function Roles(props: SectionProps) {
  const { guild, me, api } = props;
  const [open, setOpen] = useOpenItem();
  const [dragging, setDragging] = useState<Snowflake | null>(null);
  const roles = rolesTopDown(guild);
  const ordered = roles.filter((r) => r.id !== guild.id);
  const everyone = guild.roles.get(guild.id);
  const create = useAction(async () => {
    const role = await api.createRole({ name: 'new role' });
    setOpen(role.id);
  });
  const move = useAction(async (next: APIRole[]) => {
    // Positions count up from 1 at the bottom (@everyone keeps 0); the server refuses moves past your highest role.
    await api.moveRoles(next.map((r, i) => ({ id: r.id, position: next.length - i })));
  });
  const editable = (r: APIRole) => canEditRole(guild, me.id, r) && !r.managed;
  const ceiling = guild.ownerId === me.id ? Infinity : highestPosition(guild, me.id);
  const moveTo = (id: Snowflake, index: number) => {
    const from = ordered.findIndex((r) => r.id === id);
    if (from < 0 || index < 0 || index >= ordered.length || index === from) return;
    const next = [...ordered];
    const [role] = next.splice(from, 1);
    next.splice(index, 0, role);
    // Nothing may end up at or above your own highest role.
    if (next.findIndex((r) => r.id === id) < ordered.findIndex((r) => r.position < ceiling)) return;
    void move.run(next);
  };

  const role = open ? guild.roles.get(open) : undefined;
  if (role) return <RoleEditor {...props} role={role} editable={editable(role)} onBack={() => setOpen(null)} />;

  const onDrop = (e: DragEvent, index: number) => {
    e.preventDefault();
    if (dragging) moveTo(dragging, index);
    setDragging(null);
  };
  return (
    <div>
      <p className="muted">
        Members get the permissions of all their roles. A role’s colour shows on names from its highest coloured role. Drag roles, or use the arrows, to order
        them: people can manage only the roles below their own highest one.
      </p>
      <div className="ss-actions">
        <Button busy={create.busy} onClick={() => void create.run()}>
          Create Role
        </Button>
      </div>
      {create.error ? <Banner>{readableError(create.error)}</Banner> : null}
      {move.error ? <Banner>{readableError(move.error)}</Banner> : null}
      <ul className="ss-list" aria-label="Roles">
        {ordered.map((r, i) => {
          const canMove = editable(r);
          return (
            <li
              key={r.id}
              className={dragging === r.id ? 'ss-row ss-row--dragging' : 'ss-row'}
              draggable={canMove}
              onDragStart={(e) => {
                e.dataTransfer.effectAllowed = 'move';
                setDragging(r.id);
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => dragging && e.preventDefault()}
              onDrop={(e) => onDrop(e, i)}
              data-role-id={r.id}
            >
              <span className="ss-role-dot" style={{ background: roleColor(r) }} aria-hidden />
              <button type="button" className="ss-row__main" onClick={() => setOpen(r.id)}>
                <span className="ellipsis">{r.name}</span>
                {!editable(r) ? <Icon name="lock" size={14} title="Above your highest role" /> : null}
              </button>
              <Button variant="secondary" size="sm" aria-label={`Move ${r.name} up`} disabled={!canMove || i === 0} onClick={() => moveTo(r.id, i - 1)}>
                ↑
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Move ${r.name} down`}
                disabled={!canMove || i === ordered.length - 1}
                onClick={() => moveTo(r.id, i + 1)}
              >
                ↓
              </Button>
            </li>
          );
        })}
        {everyone ? (
          <li className="ss-row">
            <span className="ss-role-dot" style={{ background: roleColor(everyone) }} aria-hidden />
            <button type="button" className="ss-row__main" onClick={() => setOpen(everyone.id)}>
              <span className="ellipsis">@everyone</span>
              <span className="muted ss-row__note">Default permissions for all members</span>
            </button>
          </li>
        ) : null}
      </ul>
    </div>
  );
}
