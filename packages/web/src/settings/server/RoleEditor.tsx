import { useEffect, useState } from 'react';
import { Tabs } from './Tabs.js';
import { Toggle } from './Toggle.js';
import type { APIRole } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, ConfirmDialog, Icon, TextField } from '../../lib/ui/index.js';
import { grantable, roleColor } from './access.js';
import { RolePermissions } from './PermissionEditor.js';
import { Saved } from './Saved.js';
import type { SectionProps } from './section-props.js';

const SWATCHES = [0x1abc9c, 0x2ecc71, 0x3498db, 0x9b59b6, 0xe91e63, 0xf1c40f, 0xe67e22, 0xe74c3c, 0x95a5a6, 0x607d8b];

const ROLE_TABS = [
  ['display', 'Display'],
  ['permissions', 'Permissions'],
] as const;
const PERMISSIONS_ONLY = [['permissions', 'Permissions']] as const;

interface Draft {
  name: string;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  permissions: bigint;
}

const draftOf = (r: APIRole): Draft => ({ name: r.name, color: r.color, hoist: r.hoist, mentionable: r.mentionable, permissions: BigInt(r.permissions) });

/** One role: its look (name, colour, shown apart, mentionable) and its permissions, saved together. */
export function RoleEditor({ guild, me, api, role, editable, onBack }: SectionProps & { role: APIRole; editable: boolean; onBack: () => void }) {
  const everyone = role.id === guild.id;
  const [draft, setDraft] = useState<Draft>(() => draftOf(role));
  const [tab, setTab] = useState<'display' | 'permissions'>(everyone ? 'permissions' : 'display');
  const [saved, setSaved] = useState(0);
  const [confirming, setConfirming] = useState(false);
  // Another moderator's change (GUILD_ROLE_UPDATE) resets the form when nothing was typed.
  useEffect(() => setDraft(draftOf(role)), [role]);
  const base = draftOf(role);
  const dirty = JSON.stringify({ ...draft, permissions: String(draft.permissions) }) !== JSON.stringify({ ...base, permissions: String(base.permissions) });
  const save = useAction(async () => {
    await api.editRole(
      role.id,
      everyone
        ? { permissions: String(draft.permissions) }
        : { name: draft.name, color: draft.color, hoist: draft.hoist, mentionable: draft.mentionable, permissions: String(draft.permissions) },
    );
    setSaved((n) => n + 1);
  });
  const remove = useAction(async () => {
    await api.deleteRole(role.id);
    onBack();
  });
  const set = (p: Partial<Draft>) => setDraft((d) => ({ ...d, ...p }));
  const hex = `#${draft.color.toString(16).padStart(6, '0')}`;

  return (
    <div className="ss-role">
      <div className="ss-role__head">
        <Button variant="secondary" size="sm" className="desktop-only" onClick={onBack}>
          ← Roles
        </Button>
        <span className="ss-role-dot" style={{ background: roleColor({ ...role, color: draft.color }) }} aria-hidden />
        <h2 className="ss-subtitle ellipsis">{everyone ? '@everyone' : role.name}</h2>
      </div>
      {!editable ? <Banner kind="warn">This role is at or above your highest role, so you cannot edit it.</Banner> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save.run();
        }}
      >
        <Tabs label="Role settings" tabs={everyone ? PERMISSIONS_ONLY : ROLE_TABS} value={tab} onChange={setTab}>
          {tab === 'display' && !everyone ? (
            <div>
              <TextField
                label="Role name"
                value={draft.name}
                maxLength={100}
                required
                disabled={!editable}
                error={save.fieldError('name')}
                onChange={(e) => set({ name: e.target.value })}
              />
              <fieldset className="ss-fieldset" disabled={!editable}>
                <legend className="field__label">Role colour</legend>
                <div className="ss-swatches">
                  <button
                    type="button"
                    className="ss-swatch"
                    style={{ background: '#99aab5' }}
                    aria-label="Default colour"
                    aria-pressed={draft.color === 0}
                    onClick={() => set({ color: 0 })}
                  />
                  {SWATCHES.map((c) => (
                    <button
                      key={c}
                      type="button"
                      className="ss-swatch"
                      style={{ background: `#${c.toString(16).padStart(6, '0')}` }}
                      aria-label={`Colour #${c.toString(16).padStart(6, '0')}`}
                      aria-pressed={draft.color === c}
                      onClick={() => set({ color: c })}
                    />
                  ))}
                  <input
                    type="color"
                    className="ss-color"
                    aria-label="Custom colour"
                    value={hex}
                    onChange={(e) => set({ color: parseInt(e.target.value.slice(1), 16) })}
                  />
                </div>
              </fieldset>
              <Toggle
                label="Display role members separately from online members"
                checked={draft.hoist}
                disabled={!editable}
                onChange={(hoist) => set({ hoist })}
              />
              <Toggle
                label="Allow anyone to @mention this role"
                help="Members without Mention @everyone can still mention it."
                checked={draft.mentionable}
                disabled={!editable}
                onChange={(mentionable) => set({ mentionable })}
              />
            </div>
          ) : (
            <div>
              <RolePermissions
                value={draft.permissions}
                grantable={grantable(guild, me.id)}
                disabled={!editable}
                onChange={(permissions) => set({ permissions })}
              />
            </div>
          )}
        </Tabs>
        {save.error ? <Banner>{readableError(save.error)}</Banner> : null}
        <div className="ss-savebar">
          <Saved count={saved} />
          <Button variant="link" disabled={!dirty} onClick={() => setDraft(base)}>
            Reset
          </Button>
          <Button type="submit" variant="success" busy={save.busy} disabled={!dirty || !editable}>
            Save Changes
          </Button>
        </div>
      </form>
      {!everyone && editable ? (
        <div className="ss-danger">
          {remove.error ? <Banner>{readableError(remove.error)}</Banner> : null}
          <Button variant="danger" size="sm" busy={remove.busy} onClick={() => setConfirming(true)}>
            <Icon name="trash" size={16} /> Delete Role
          </Button>
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Delete Role"
          confirmLabel="Delete"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void remove.run();
          }}
        >
          Are you sure you want to delete the role <strong>{role.name}</strong>? Members lose its permissions.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
