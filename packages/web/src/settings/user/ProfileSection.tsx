import { useRef, useState } from 'react';
import { useSession, useStore } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { readableError } from '../../lib/api/errors.js';
import { Banner, Button, Field, TextField, toast } from '../../lib/ui/index.js';
import { ProfilePreview } from './ProfilePreview.js';
import { fileToDataUri, userSettingsApi, type ProfileChanges, type SelfUser } from './api.js';

const BIO_MAX = 190;

/**
 * Profiles: avatar (upload or remove), display name, about me and banner color, edited as a draft with a preview and
 * saved together (the official client's "unsaved changes" bar). Others see the change live, through the Gateway.
 */
export function ProfileSection() {
  const { api, store } = useSession();
  const me = useStore((s) => s.me) as SelfUser;
  const [name, setName] = useState(me.global_name ?? '');
  const [bio, setBio] = useState(me.bio ?? '');
  const [accent, setAccent] = useState<number | null>(me.accent_color ?? null);
  /** undefined: unchanged; a data URI: a new avatar; null: removed. */
  const [avatar, setAvatar] = useState<string | null | undefined>(undefined);
  const [pickError, setPickError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);

  const changes: ProfileChanges = {};
  if (name.trim() !== (me.global_name ?? '')) changes.global_name = name.trim() || null;
  if (bio !== (me.bio ?? '')) changes.bio = bio;
  if (accent !== (me.accent_color ?? null)) changes.accent_color = accent;
  if (avatar !== undefined) changes.avatar = avatar;
  const dirty = Object.keys(changes).length > 0;

  const reset = () => {
    setName(me.global_name ?? '');
    setBio(me.bio ?? '');
    setAccent(me.accent_color ?? null);
    setAvatar(undefined);
    save.setError(null);
  };
  const save = useAction(async () => {
    const u = await userSettingsApi(api).editProfile(changes);
    if (store.state.me) store.set({ me: { ...store.state.me, ...u } });
    setAvatar(undefined);
    toast('Your profile was saved.');
  });
  const pick = async (f: File | undefined) => {
    setPickError(null);
    if (!f) return;
    if (!/^image\/(png|jpeg|gif|webp)$/.test(f.type)) return setPickError('Pick a PNG, JPEG, GIF or WebP image.');
    if (f.size > 10 * 1024 * 1024) return setPickError('The image must be 10 MB or smaller.');
    setAvatar(await fileToDataUri(f));
  };
  const hasAvatar = avatar === undefined ? !!me.avatar : avatar !== null;
  const fieldErrors = ['global_name', 'bio', 'accent_color', 'avatar'].map((f) => save.fieldError(f)).filter(Boolean);

  return (
    <div className="usettings__split">
      <div className="usettings__form">
        <Field label="Avatar" error={save.fieldError('avatar') ?? pickError}>
          {(id) => (
            <div className="usettings__buttons">
              <input
                id={id}
                ref={file}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                className="sr-only"
                tabIndex={-1}
                onChange={(e) => {
                  void pick(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <Button size="sm" onClick={() => file.current?.click()}>
                Change Avatar
              </Button>
              {hasAvatar ? (
                <Button size="sm" variant="link" onClick={() => setAvatar(null)}>
                  Remove Avatar
                </Button>
              ) : null}
            </div>
          )}
        </Field>
        <TextField label="Display Name" value={name} maxLength={32} onChange={(e) => setName(e.target.value)} error={save.fieldError('global_name')} />
        <Field label="About Me" error={save.fieldError('bio')} hint={`${bio.length}/${BIO_MAX}`}>
          {(id) => <textarea id={id} className="textarea" value={bio} maxLength={BIO_MAX} rows={4} onChange={(e) => setBio(e.target.value)} />}
        </Field>
        <Field label="Banner Color" error={save.fieldError('accent_color')}>
          {(id) => (
            <div className="usettings__buttons">
              <input
                id={id}
                type="color"
                className="usettings__color"
                value={accent == null ? '#5865f2' : `#${accent.toString(16).padStart(6, '0')}`}
                onChange={(e) => setAccent(parseInt(e.target.value.slice(1), 16))}
              />
              {accent != null ? (
                <Button size="sm" variant="link" onClick={() => setAccent(null)}>
                  Use Default
                </Button>
              ) : null}
            </div>
          )}
        </Field>
        {save.error && !fieldErrors.length ? <Banner>{readableError(save.error)}</Banner> : null}
      </div>
      <ProfilePreview user={{ ...me, global_name: name.trim() || null }} avatarSrc={avatar === undefined ? undefined : avatar} bio={bio} accent={accent} />
      {dirty ? (
        <div className="usettings__savebar" role="region" aria-label="Unsaved changes">
          <span className="grow">Careful — you have unsaved changes!</span>
          <Button variant="link" onClick={reset}>
            Reset
          </Button>
          <Button busy={save.busy} onClick={() => void save.run()}>
            Save Changes
          </Button>
        </div>
      ) : null}
    </div>
  );
}
