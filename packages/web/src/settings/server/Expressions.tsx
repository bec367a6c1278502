import { useRef, useState, type ReactNode } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, displayName, Empty, ErrorState, Loading, TextField } from '../../lib/ui/index.js';
import { readAsDataUrl } from '../../portal/ui/files.js';
import type { GuildEmoji, GuildSticker } from './api.js';
import type { SectionProps } from './section-props.js';
import { useLoad } from './use-load.js';

/** Custom emoji and stickers: upload (the server's size and format errors show by the form), rename, delete. */
export function Expressions(props: SectionProps) {
  return (
    <div>
      <EmojiPanel {...props} />
      <StickerPanel {...props} />
    </div>
  );
}

/** Emoji names as the platform takes them: 2 to 32 letters, digits and underscores; a file name gives a start. */
const nameFromFile = (f: File) =>
  f.name
    .replace(/\.[^.]+$/, '')
    .replace(/[^a-zA-Z0-9_]/g, '_')
    .slice(0, 32);

function EmojiPanel({ api }: SectionProps) {
  const list = useLoad(() => api.emojis(), [api]);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const upload = useAction(async () => {
    if (!file) return;
    await api.createEmoji(name, await readAsDataUrl(file));
    setFile(null);
    setName('');
    await list.reload();
  });
  return (
    <section aria-labelledby="ss-emoji-title" className="ss-block">
      <h2 id="ss-emoji-title" className="ss-subtitle">
        Emoji
      </h2>
      <p className="muted">PNG, JPEG, GIF or WebP, at most 256 KB; 128×128 px looks best. Names use letters, digits and underscores.</p>
      <UploadForm
        what="Emoji"
        accept="image/png,image/jpeg,image/gif,image/webp"
        file={file}
        onFile={(f) => {
          setFile(f);
          if (f && !name) setName(nameFromFile(f));
        }}
        ready={!!file && !!name}
        busy={upload.busy}
        onSubmit={() => void upload.run()}
      >
        <TextField label="Emoji name" value={name} onChange={(e) => setName(e.target.value)} error={upload.fieldError('name')} />
      </UploadForm>
      {upload.error && !upload.fieldError('name') ? <Banner>{readableError(upload.error)}</Banner> : null}
      <ExpressionList
        items={list.data}
        error={list.error}
        empty="No custom emoji yet."
        label="Custom emoji"
        image={(e) => `/emojis/${e.id}.${e.animated ? 'gif' : 'png'}?size=48`}
        rename={(id, n) => api.renameEmoji(id, n).then(() => list.reload())}
        remove={(id) => api.deleteEmoji(id).then(() => list.reload())}
      />
    </section>
  );
}

function StickerPanel({ api }: SectionProps) {
  const list = useLoad(() => api.stickers(), [api]);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const upload = useAction(async () => {
    if (!file) return;
    await api.createSticker({ name, tags, description: '' }, file);
    setFile(null);
    setName('');
    setTags('');
    await list.reload();
  });
  const fieldShown = ['name', 'tags'].some((f) => upload.fieldError(f));
  return (
    <section aria-labelledby="ss-sticker-title" className="ss-block">
      <h2 id="ss-sticker-title" className="ss-subtitle">
        Stickers
      </h2>
      <p className="muted">PNG, APNG or GIF, at most 512 KB, 320×320 px. The related emoji (tags) helps people find it.</p>
      <UploadForm
        what="Sticker"
        accept="image/png,image/apng,image/gif"
        file={file}
        onFile={setFile}
        ready={!!file && !!name && !!tags}
        busy={upload.busy}
        onSubmit={() => void upload.run()}
      >
        <TextField label="Sticker name" value={name} onChange={(e) => setName(e.target.value)} error={upload.fieldError('name')} />
        <TextField label="Related emoji" value={tags} onChange={(e) => setTags(e.target.value)} error={upload.fieldError('tags')} />
      </UploadForm>
      {upload.error && !fieldShown ? <Banner>{readableError(upload.error)}</Banner> : null}
      <ExpressionList
        items={list.data}
        error={list.error}
        empty="No stickers yet."
        label="Stickers"
        image={(s: GuildSticker) => `/stickers/${s.id}.${s.format_type === 4 ? 'gif' : 'png'}?size=64`}
        rename={(id, n) => api.renameSticker(id, { name: n }).then(() => list.reload())}
        remove={(id) => api.deleteSticker(id).then(() => list.reload())}
      />
    </section>
  );
}

/** A panel's upload form: "Choose Image" in front of a hidden file input, the panel's fields, and its submit button. */
function UploadForm({
  what,
  accept,
  file,
  onFile,
  ready,
  busy,
  onSubmit,
  children,
}: {
  what: 'Emoji' | 'Sticker';
  accept: string;
  file: File | null;
  onFile: (f: File | null) => void;
  ready: boolean;
  busy: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <form
      className="ss-upload"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <input
        ref={input}
        type="file"
        accept={accept}
        aria-label={`${what} image`}
        className="sr-only"
        tabIndex={-1}
        onChange={(e) => {
          onFile(e.target.files?.[0] ?? null);
          e.target.value = '';
        }}
      />
      <Button variant="secondary" onClick={() => input.current?.click()}>
        {file ? `Image: ${file.name}` : 'Choose Image'}
      </Button>
      {children}
      <Button type="submit" busy={busy} disabled={!ready}>
        Upload {what}
      </Button>
    </form>
  );
}

function ExpressionList<T extends GuildEmoji | GuildSticker>({
  items,
  error,
  empty,
  label,
  image,
  rename,
  remove,
}: {
  items: T[] | null;
  error: unknown;
  empty: string;
  label: string;
  image: (item: T) => string;
  rename: (id: string, name: string) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
}) {
  if (error) return <ErrorState message={readableError(error)} />;
  if (!items) return <Loading />;
  if (!items.length) return <Empty icon="smile" title={empty} />;
  return (
    <ul className="ss-list" aria-label={label}>
      {items.map((item) => (
        <ExpressionRow key={item.id} item={item} image={image(item)} rename={rename} remove={remove} />
      ))}
    </ul>
  );
}

function ExpressionRow({
  item,
  image,
  rename,
  remove,
}: {
  item: GuildEmoji | GuildSticker;
  image: string;
  rename: (id: string, name: string) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
}) {
  const [name, setName] = useState(item.name);
  const save = useAction(() => rename(item.id, name));
  const del = useAction(() => remove(item.id));
  const error = save.error ?? del.error;
  return (
    <li className="ss-row ss-row--tall" data-expression={item.name}>
      <img src={image} alt="" width={32} height={32} className="ss-expr__img" />
      <div className="grow ss-row__text">
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void save.run();
          }}
        >
          <input className="input" aria-label={`Name of ${item.name}`} value={name} onChange={(e) => setName(e.target.value)} />
          {name !== item.name ? (
            <Button type="submit" size="sm" busy={save.busy}>
              Rename
            </Button>
          ) : null}
        </form>
        <div className="muted ss-row__reason">{item.user ? `Uploaded by ${displayName(item.user)}` : null}</div>
        {error ? <Banner>{readableError(error)}</Banner> : null}
      </div>
      <Button variant="danger" size="sm" aria-label={`Delete ${item.name}`} busy={del.busy} onClick={() => void del.run()}>
        Delete
      </Button>
    </li>
  );
}
