import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../../lib/api/errors.js';
import { isVoice } from '../../lib/api/types.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, ConfirmDialog, Field, TextField } from '../../lib/ui/index.js';
import { readAsDataUrl, IMAGE_TYPES } from '../../portal/ui/files.js';
import type { SectionProps } from './section-props.js';
import { Saved } from './Saved.js';

/** Name, icon and the system messages channel; the owner may delete the server (confirmed in the page). */
export function Overview({ guild, me, api }: SectionProps) {
  const [name, setName] = useState(guild.name);
  const [system, setSystem] = useState(guild.systemChannelId ?? '');
  const [icon, setIcon] = useState<string | null | undefined>(undefined);
  const [saved, setSaved] = useState(0);
  const [deleting, setDeleting] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const nav = useNavigate();
  const textChannels = [...guild.channels.values()].filter((c) => c.type === 0 && !isVoice(c.type));
  const dirty = name !== guild.name || system !== (guild.systemChannelId ?? '') || icon !== undefined;
  const save = useAction(async () => {
    await api.editGuild({ name, system_channel_id: system || null, ...(icon !== undefined ? { icon } : {}) });
    setIcon(undefined);
    setSaved((n) => n + 1);
  });
  const remove = useAction(async () => {
    await api.deleteGuild();
    nav('/channels/@me');
  });
  const shown = icon !== undefined ? icon : guild.icon ? `/icons/${guild.id}/${guild.icon}.png?size=256` : null;

  return (
    <form
      className="ss-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <div className="ss-overview">
        <div className="ss-icon">
          <div className="ss-icon__preview" aria-hidden>
            <span>{guild.name.slice(0, 2).toUpperCase()}</span>
            {/* Over the initials; hidden if the CDN cannot serve it (as Avatar does). */}
            {shown ? <img src={shown} alt="" onError={(e) => ((e.target as HTMLImageElement).style.display = 'none')} /> : null}
          </div>
          <input
            ref={file}
            type="file"
            accept={IMAGE_TYPES}
            className="sr-only"
            aria-label="Server icon file"
            tabIndex={-1}
            onChange={async (e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) setIcon(await readAsDataUrl(f));
            }}
          />
          <Button variant="secondary" size="sm" onClick={() => file.current?.click()}>
            Upload Icon
          </Button>
          {shown ? (
            <Button variant="link" size="sm" onClick={() => setIcon(null)}>
              Remove
            </Button>
          ) : null}
          <div className="field__hint">At least 128×128 px; PNG, JPEG, GIF or WebP.</div>
        </div>
        <div className="grow">
          <TextField label="Server name" value={name} maxLength={100} required error={save.fieldError('name')} onChange={(e) => setName(e.target.value)} />
          <Field label="System messages channel" hint="Where the server posts welcome messages." error={save.fieldError('system_channel_id')}>
            {(id) => (
              <select id={id} className="select" value={system} onChange={(e) => setSystem(e.target.value)}>
                <option value="">No system messages</option>
                {textChannels.map((c) => (
                  <option key={c.id} value={c.id}>
                    #{c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </div>
      {save.error && !save.fieldError('name') && !save.fieldError('system_channel_id') ? <Banner>{readableError(save.error)}</Banner> : null}
      <div className="ss-actions">
        <Button type="submit" busy={save.busy} disabled={!dirty}>
          Save Changes
        </Button>
        <Saved count={saved} />
      </div>

      {guild.ownerId === me.id ? (
        <section className="ss-danger" aria-labelledby="ss-danger-title">
          <h2 id="ss-danger-title" className="ss-subtitle">
            Delete server
          </h2>
          <p className="muted">Deleting the server removes every channel, message and role for everyone. It cannot be undone.</p>
          {remove.error ? <Banner>{readableError(remove.error)}</Banner> : null}
          <Button variant="danger" busy={remove.busy} onClick={() => setDeleting(true)}>
            Delete Server
          </Button>
        </section>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete ${guild.name}`}
          confirmLabel="Delete Server"
          danger
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            void remove.run();
          }}
        >
          Are you sure you want to delete <strong>{guild.name}</strong>? This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </form>
  );
}
