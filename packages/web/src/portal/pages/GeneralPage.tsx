import { useRef } from 'react';
import { Link } from 'react-router';
import { AppIcon } from '../../lib/oauth/AppIcon.js';
import { Button, Field, TextField, toast } from '../../lib/ui/index.js';
import { useAppForm, useOpenApp } from '../context.js';
import { CopyField } from '../ui/CopyField.js';
import { IMAGE_TYPES, readAsDataUrl } from '../ui/files.js';
import { SaveBar } from '../ui/SaveBar.js';
import { PageHead, Section } from '../ui/Section.js';

interface Info {
  name: string;
  description: string;
  tags: string;
  icon: string | null;
}

/** General information: name, description, tags and icon; the ids an app's code needs. */
export function GeneralPage() {
  const { app } = useOpenApp();
  const form = useAppForm<Info>(
    (a) => ({ name: a.name, description: a.description, tags: a.tags.join(', '), icon: a.icon }),
    (d, base) => ({
      name: d.name.trim(),
      description: d.description,
      tags: d.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      ...(d.icon !== base.icon ? { icon: d.icon } : {}),
    }),
  );
  const file = useRef<HTMLInputElement>(null);
  const { draft } = form;
  const preview = { id: app.id, name: draft.name || app.name, icon: draft.icon };
  const pendingIcon = draft.icon?.startsWith('data:') ? draft.icon : null;

  const pick = async (f: File | undefined) => {
    if (!f) return;
    if (f.size > 10 * 1024 * 1024) return toast('That image is larger than 10 MB.', true);
    form.set({ icon: await readAsDataUrl(f) });
  };

  return (
    <>
      <PageHead title="General Information">What should people call your app? What does it do? Give it a name, a description and an icon.</PageHead>
      <Section title="Identity">
        <div className="general">
          <div className="general__icon">
            <div className="field__label">App icon</div>
            <button type="button" className="icon-drop" onClick={() => file.current?.click()}>
              <span className="icon-drop__art" aria-hidden>
                {pendingIcon ? <img src={pendingIcon} alt="" className="icon-drop__img" /> : <AppIcon app={preview} size={128} radius={32} />}
              </span>
              <span className="icon-drop__hover">Change icon</span>
            </button>
            <input
              ref={file}
              type="file"
              accept={IMAGE_TYPES}
              hidden
              data-testid="icon-input"
              onChange={(e) => {
                void pick(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <div className="field__hint">PNG, JPG, GIF or WebP, at least 512×512, up to 10 MB.</div>
            {draft.icon ? (
              <Button variant="link" size="sm" onClick={() => form.set({ icon: null })}>
                Remove
              </Button>
            ) : null}
          </div>
          <div className="grow">
            <TextField
              label="Name"
              required
              maxLength={100}
              value={draft.name}
              onChange={(e) => form.set({ name: e.target.value })}
              error={form.save.fieldError('name')}
            />
            <Field
              label="Description"
              hint={`${draft.description.length} / 400. Shown on your app's profile and consent screen.`}
              error={form.save.fieldError('description')}
            >
              {(id) => (
                <textarea
                  id={id}
                  className="textarea"
                  maxLength={400}
                  rows={4}
                  value={draft.description}
                  onChange={(e) => form.set({ description: e.target.value })}
                  placeholder="What your app does, in a sentence or two."
                />
              )}
            </Field>
            <TextField
              label="Tags"
              value={draft.tags}
              onChange={(e) => form.set({ tags: e.target.value })}
              hint="Up to 5, separated by commas: they help people find your app."
              error={form.save.fieldError('tags')}
            />
          </div>
        </div>
      </Section>
      <Section
        title="Keys"
        description={
          <>
            Your code needs these. The interactions endpoint URL lives under <Link to={`/developers/applications/${app.id}/endpoints`}>Endpoints</Link>.
          </>
        }
      >
        <div className="p-cols">
          <CopyField label="Application ID" value={app.id} />
          <CopyField label="Public key" value={app.verify_key} hint="Verifies the signatures of interactions sent to your endpoint." />
        </div>
      </Section>
      <SaveBar form={form} />
    </>
  );
}
