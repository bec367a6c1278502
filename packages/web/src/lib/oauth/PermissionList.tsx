import './shared.css';
import { PERMISSION_GROUPS, type PermissionInfo } from './permissions.js';

/**
 * Permission checkboxes by group. `offered` limits the list (the consent page shows only what the app asked for);
 * the portal's generators offer everything.
 */
export function PermissionList({ value, onChange, offered, label }: { value: bigint; onChange: (next: bigint) => void; offered?: bigint; label: string }) {
  const groups = PERMISSION_GROUPS.map((g) => ({ ...g, permissions: g.permissions.filter((p) => offered === undefined || (offered & p.bit) !== 0n) })).filter(
    (g) => g.permissions.length,
  );
  const toggle = (p: PermissionInfo, on: boolean) => onChange(on ? value | p.bit : value & ~p.bit);
  return (
    <div className="perm-list" role="group" aria-label={label}>
      {groups.map((g) => (
        <div key={g.title}>
          {offered === undefined ? <div className="perm-list__group-title">{g.title} permissions</div> : null}
          <div className="perm-list__grid">
            {g.permissions.map((p) => (
              <label key={p.key} className={p.key === 'ADMINISTRATOR' ? 'checkbox-row checkbox-row--danger' : 'checkbox-row'}>
                <input type="checkbox" checked={(value & p.bit) !== 0n} onChange={(e) => toggle(p, e.target.checked)} />
                <span>{p.label}</span>
              </label>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
