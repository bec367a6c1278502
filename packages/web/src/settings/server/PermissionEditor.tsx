import { useId, useState } from 'react';
import { PERMISSION_GROUPS, type PermissionInfo } from '../../lib/oauth/permissions.js';
import { PERMISSION_HELP, SERVER_ONLY } from './permission-help.js';
import { Toggle } from './Toggle.js';

/** The groups with a search applied; `channel` leaves out what an overwrite cannot change. */
function visibleGroups(query: string, channel: boolean) {
  const q = query.trim().toLowerCase();
  return PERMISSION_GROUPS.map((g) => ({
    title: g.title,
    permissions: g.permissions.filter(
      (p) =>
        (!channel || !SERVER_ONLY.includes(p.key)) && (!q || p.label.toLowerCase().includes(q) || (PERMISSION_HELP[p.key] ?? '').toLowerCase().includes(q)),
    ),
  })).filter((g) => g.permissions.length);
}

function Search({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <input
      className="input ss-perms__search"
      type="search"
      placeholder="Search permissions"
      aria-label="Search permissions"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** A role's permissions: one switch per permission, grouped, with what it allows underneath. */
export function RolePermissions({
  value,
  onChange,
  grantable,
  disabled,
}: {
  value: bigint;
  onChange: (v: bigint) => void;
  grantable: bigint;
  disabled?: boolean;
}) {
  const [query, setQuery] = useState('');
  return (
    <div className="ss-perms">
      <Search value={query} onChange={setQuery} />
      {visibleGroups(query, false).map((g) => (
        <section key={g.title} aria-label={`${g.title} permissions`}>
          <h3 className="ss-perms__group">{g.title} permissions</h3>
          {g.permissions.map((p) => (
            <Toggle
              key={p.key}
              label={p.label}
              help={PERMISSION_HELP[p.key]}
              checked={(value & p.bit) === p.bit}
              // You may take away what you cannot grant, never add it.
              disabled={disabled || ((grantable & p.bit) !== p.bit && (value & p.bit) !== p.bit)}
              onChange={(on) => onChange(on ? value | p.bit : value & ~p.bit)}
            />
          ))}
        </section>
      ))}
    </div>
  );
}

export interface OverwriteBits {
  allow: bigint;
  deny: bigint;
}

type Tri = 'deny' | 'inherit' | 'allow';
const TRI: { v: Tri; label: string; glyph: string }[] = [
  { v: 'deny', label: 'Deny', glyph: '✕' },
  { v: 'inherit', label: 'Inherit', glyph: '/' },
  { v: 'allow', label: 'Allow', glyph: '✓' },
];

/** A channel overwrite: per permission deny, inherit (from the roles) or allow. */
export function OverwritePermissions({ value, onChange, disabled }: { value: OverwriteBits; onChange: (v: OverwriteBits) => void; disabled?: boolean }) {
  const [query, setQuery] = useState('');
  const stateOf = (bit: bigint): Tri => ((value.allow & bit) === bit ? 'allow' : (value.deny & bit) === bit ? 'deny' : 'inherit');
  const set = (bit: bigint, t: Tri) =>
    onChange({ allow: t === 'allow' ? value.allow | bit : value.allow & ~bit, deny: t === 'deny' ? value.deny | bit : value.deny & ~bit });
  return (
    <div className="ss-perms">
      <Search value={query} onChange={setQuery} />
      {visibleGroups(query, true).map((g) => (
        <section key={g.title} aria-label={`${g.title} permissions`}>
          <h3 className="ss-perms__group">{g.title} permissions</h3>
          {g.permissions.map((p) => (
            <TriState key={p.key} p={p} state={stateOf(p.bit)} disabled={disabled} onChange={(t) => set(p.bit, t)} />
          ))}
        </section>
      ))}
    </div>
  );
}

function TriState({ p, state, disabled, onChange }: { p: PermissionInfo; state: Tri; disabled?: boolean; onChange: (t: Tri) => void }) {
  const id = useId();
  const help = PERMISSION_HELP[p.key];
  return (
    <div className="ss-perm">
      <div className="grow">
        <div className="ss-perm__name" id={`${id}-n`}>
          {p.label}
        </div>
        {help ? (
          <div className="ss-perm__help" id={`${id}-d`}>
            {help}
          </div>
        ) : null}
      </div>
      <div className="ss-tri" role="radiogroup" aria-labelledby={`${id}-n`} aria-describedby={help ? `${id}-d` : undefined}>
        {TRI.map((t) => (
          <label key={t.v} className={`ss-tri__opt ss-tri__opt--${t.v}`} title={t.label}>
            <input type="radio" name={id} value={t.v} checked={state === t.v} disabled={disabled} aria-label={t.label} onChange={() => onChange(t.v)} />
            <span aria-hidden>{t.glyph}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
