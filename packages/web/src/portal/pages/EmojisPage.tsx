import { useEffect, useRef, useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { Banner, Button, Empty, ErrorState, Icon, Loading, toast } from '../../lib/ui/index.js';
import { useOpenApp } from '../context.js';
import type { AppEmoji } from '../types.js';
import { copyText } from '../ui/CopyField.js';
import { IMAGE_TYPES, readAsDataUrl } from '../ui/files.js';
import { PageHead, Section } from '../ui/Section.js';

/** An emoji name from a file name: letters, digits and underscores, 2 to 32 of them. */
export function emojiName(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
  return base.length >= 2 ? base : `emoji_${base}`.slice(0, 32);
}

/** Application emojis: usable by the app in any server, without being in it. */
export function EmojisPage() {
  const { app, api } = useOpenApp();
  const [emojis, setEmojis] = useState<AppEmoji[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const load = () => {
    setError(null);
    api
      .emojis(app.id)
      .then((r) => setEmojis(r.items))
      .catch(setError);
  };
  useEffect(load, [app.id]);

  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setUploading(true);
    setUploadError(null);
    const problems: string[] = [];
    for (const f of Array.from(files)) {
      try {
        const e = await api.createEmoji(app.id, emojiName(f.name), await readAsDataUrl(f));
        setEmojis((list) => [...(list ?? []), e]);
      } catch (err) {
        problems.push(`${f.name}: ${readableError(err)}`);
      }
    }
    setUploading(false);
    if (problems.length) setUploadError(problems.join(' · '));
  };
  const remove = async (e: AppEmoji) => {
    try {
      await api.deleteEmoji(app.id, e.id);
      setEmojis((list) => (list ?? []).filter((x) => x.id !== e.id));
      toast(`:${e.name}: deleted`);
    } catch (err) {
      toast(readableError(err), true);
    }
  };
  const copy = async (e: AppEmoji) => {
    await copyText(`<${e.animated ? 'a' : ''}:${e.name}:${e.id}>`);
    toast('Emoji markdown copied');
  };

  return (
    <>
      <PageHead title="Emojis">Up to 2000 emojis your app can use in messages anywhere, with no server needed.</PageHead>
      <Section
        title={`Emojis${emojis ? ` (${emojis.length})` : ''}`}
        description="PNG, JPG, GIF, WebP or AVIF up to 256 KB; names of 2 to 32 letters, digits or underscores."
        actions={
          <Button busy={uploading} onClick={() => file.current?.click()}>
            Upload Emoji
          </Button>
        }
      >
        <input
          ref={file}
          type="file"
          accept={`${IMAGE_TYPES},image/avif`}
          multiple
          hidden
          data-testid="emoji-input"
          onChange={(e) => {
            void upload(e.target.files);
            e.target.value = '';
          }}
        />
        {uploadError ? <Banner>{uploadError}</Banner> : null}
        {error ? (
          <ErrorState title="Could not load emojis" message={readableError(error)} onRetry={load} />
        ) : !emojis ? (
          <Loading label="Loading emojis…" />
        ) : !emojis.length ? (
          <div className="p-empty p-empty--small">
            <Empty icon="smile" title="No emojis yet">
              Upload images to give your app its own emojis.
            </Empty>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Application emojis">
              <thead>
                <tr>
                  <th>Image</th>
                  <th>Name</th>
                  <th>ID</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {emojis.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <img className="emoji-img" src={`/emojis/${e.id}.${e.animated ? 'gif' : 'png'}?size=64`} alt={`:${e.name}:`} />
                    </td>
                    <td>
                      <code>:{e.name}:</code>
                    </td>
                    <td className="muted">{e.id}</td>
                    <td className="table__actions">
                      <Button variant="secondary" size="sm" onClick={() => void copy(e)}>
                        Copy markdown
                      </Button>
                      <button type="button" className="icon-btn" aria-label={`Delete :${e.name}:`} onClick={() => void remove(e)}>
                        <Icon name="trash" size={18} />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}
