import { useEffect, useState } from 'react';
import type { Channel, Snowflake } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, displayName, Field } from '../../lib/ui/index.js';
import { rolesTopDown, roleColor } from './access.js';
import { OverwritePermissions, type OverwriteBits } from './PermissionEditor.js';
import { Saved } from './Saved.js';
import type { SectionProps } from './section-props.js';

interface Target {
  id: Snowflake;
  type: 0 | 1;
  label: string;
  color?: string;
}

/**
 * A channel's permission overwrites: @everyone, then each role and member that has one. Pick one to set each
 * permission to allow, inherit or deny; add a role or member; remove an overwrite.
 */
export function Overwrites({ guild, api, channel }: SectionProps & { channel: Channel }) {
  const overwrites = channel.permission_overwrites ?? [];
  const users = guild.members;
  const roleTarget = (id: Snowflake): Target => {
    const r = guild.roles.get(id);
    return { id, type: 0, label: id === guild.id ? '@everyone' : (r?.name ?? 'Deleted role'), color: r ? roleColor(r) : undefined };
  };
  const memberTarget = (id: Snowflake): Target => {
    const m = users.get(id);
    return { id, type: 1, label: m?.nick ?? displayName(m?.user) };
  };
  const targets: Target[] = [
    roleTarget(guild.id),
    ...overwrites.filter((o) => o.type === 0 && o.id !== guild.id).map((o) => roleTarget(o.id)),
    ...overwrites.filter((o) => o.type === 1).map((o) => memberTarget(o.id)),
  ];
  const [added, setAdded] = useState<Target | null>(null);
  const [selected, setSelected] = useState<Snowflake>(guild.id);
  const all = added && !targets.some((t) => t.id === added.id) ? [...targets, added] : targets;
  const target = all.find((t) => t.id === selected) ?? all[0];
  const addable: Target[] = [
    ...rolesTopDown(guild)
      .filter((r) => r.id !== guild.id && !all.some((t) => t.id === r.id))
      .map((r) => roleTarget(r.id)),
    ...[...users.keys()].filter((id) => !all.some((t) => t.id === id)).map(memberTarget),
  ];

  return (
    <div className="ss-overwrites">
      <div className="ss-overwrites__targets">
        <Field label="Add a role or member">
          {(id) => (
            <select
              id={id}
              className="select"
              value=""
              onChange={(e) => {
                const t = addable.find((x) => x.id === e.target.value);
                if (!t) return;
                setAdded(t);
                setSelected(t.id);
              }}
            >
              <option value="">Choose…</option>
              <optgroup label="Roles">
                {addable
                  .filter((t) => t.type === 0)
                  .map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.label}
                    </option>
                  ))}
              </optgroup>
              <optgroup label="Members">
                {addable
                  .filter((t) => t.type === 1)
                  .map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.label}
                    </option>
                  ))}
              </optgroup>
            </select>
          )}
        </Field>
        <ul className="ss-list" aria-label="Roles and members with overwrites">
          {all.map((t) => (
            <li key={t.id}>
              <button type="button" className="ss-target" aria-pressed={t.id === target.id} onClick={() => setSelected(t.id)}>
                {t.type === 0 ? <span className="ss-role-dot" style={{ background: t.color ?? '#99aab5' }} aria-hidden /> : null}
                <span className="ellipsis">{t.label}</span>
                <span className="muted ss-row__note">{t.type === 0 ? 'Role' : 'Member'}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <OverwriteEditor
        key={target.id}
        target={target}
        current={overwrites.find((o) => o.id === target.id)}
        onSave={(bits) => api.putOverwrite(channel.id, target.id, { type: target.type, allow: String(bits.allow), deny: String(bits.deny) })}
        onRemove={async () => {
          await api.deleteOverwrite(channel.id, target.id);
          if (added?.id === target.id) setAdded(null);
          setSelected(guild.id);
        }}
      />
    </div>
  );
}

function OverwriteEditor({
  target,
  current,
  onSave,
  onRemove,
}: {
  target: Target;
  current?: { allow: string; deny: string };
  onSave: (bits: OverwriteBits) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
}) {
  const initial = { allow: BigInt(current?.allow ?? '0'), deny: BigInt(current?.deny ?? '0') };
  const [draft, setDraft] = useState<OverwriteBits>(initial);
  const [saved, setSaved] = useState(0);
  useEffect(() => setDraft(initial), [current?.allow, current?.deny]);
  const dirty = draft.allow !== initial.allow || draft.deny !== initial.deny;
  const save = useAction(async () => {
    await onSave(draft);
    setSaved((n) => n + 1);
  });
  const remove = useAction(onRemove);
  return (
    <form
      className="ss-overwrites__editor"
      aria-label={`Permissions for ${target.label}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <h3 className="ss-subtitle">Permissions for {target.label}</h3>
      <OverwritePermissions value={draft} onChange={setDraft} />
      {save.error ? <Banner>{readableError(save.error)}</Banner> : null}
      {remove.error ? <Banner>{readableError(remove.error)}</Banner> : null}
      <div className="ss-savebar">
        <Saved count={saved} />
        {current ? (
          <Button variant="danger" size="sm" busy={remove.busy} onClick={() => void remove.run()}>
            Remove Overwrite
          </Button>
        ) : null}
        <Button variant="link" disabled={!dirty} onClick={() => setDraft(initial)}>
          Reset
        </Button>
        <Button type="submit" variant="success" busy={save.busy} disabled={!dirty}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}
