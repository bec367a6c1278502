import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../../lib/api/errors.js';
import type { Channel } from '../../lib/api/types.js';
import { compareIds, snowflakeTime } from '../../lib/state/snowflake.js';
import { relative } from '../../lib/markdown/timestamp.js';
import { useSession, useStore } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { Banner, Button, Empty, Field, Icon, TextField } from '../../lib/ui/index.js';

/** A forum channel: its posts (threads), newest activity first, with tags; "New Post" opens the form. */
export function ForumView({ channel, canPost }: { channel: Channel; canPost: boolean }) {
  const { api } = useSession();
  const nav = useNavigate();
  const guild = useStore((s) => s.guilds.get(channel.guild_id!));
  const [archived, setArchived] = useState<Channel[]>([]);
  const [composing, setComposing] = useState(false);
  useEffect(() => {
    api.channels.archivedThreads(channel.id).then(
      (r) => setArchived(r.threads),
      () => undefined,
    );
  }, [channel.id]);
  const posts = useMemo(() => {
    const active = [...(guild?.channels.values() ?? [])].filter((c) => c.parent_id === channel.id && c.type >= 10 && c.type <= 12);
    const all = [...active, ...archived.filter((a) => !active.some((x) => x.id === a.id))];
    return all.sort((a, b) => compareIds(b.last_message_id ?? b.id, a.last_message_id ?? a.id));
  }, [guild?.channels, archived]);
  const tags = new Map((channel.available_tags ?? []).map((t) => [t.id, t]));

  return (
    <div className="forum">
      <div className="forum__bar">
        <span className="muted grow">{channel.topic ?? 'Start a discussion: each post is its own thread.'}</span>
        {canPost ? (
          <Button onClick={() => setComposing(true)}>
            <Icon name="plus" size={16} /> New Post
          </Button>
        ) : null}
      </div>
      {composing ? (
        <NewPost
          channel={channel}
          onDone={(id) => {
            setComposing(false);
            if (id) nav(`/channels/${channel.guild_id}/${id}`);
          }}
        />
      ) : null}
      {posts.length === 0 && !composing ? (
        <Empty icon="forum" title="No posts yet">
          Be the first to start a discussion in #{channel.name}.
        </Empty>
      ) : null}
      <ul className="forum__list">
        {posts.map((p) => (
          <li key={p.id}>
            <button type="button" className="post" onClick={() => nav(`/channels/${channel.guild_id}/${p.id}`)}>
              <div className="post__title">{p.name}</div>
              {p.applied_tags?.length ? (
                <div className="post__tags">
                  {p.applied_tags.map((t) => (
                    <span key={t} className="post__tag">
                      {tags.get(t)?.emoji_name ? `${tags.get(t)!.emoji_name} ` : ''}
                      {tags.get(t)?.name ?? 'tag'}
                    </span>
                  ))}
                </div>
              ) : null}
              <div className="post__meta muted">
                <Icon name="thread" size={14} /> {p.message_count ?? 0} · {relative(snowflakeTime(p.last_message_id ?? p.id))}
                {p.thread_metadata?.archived ? ' · Archived' : ''}
              </div>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function NewPost({ channel, onDone }: { channel: Channel; onDone: (id?: string) => void }) {
  const { api } = useSession();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const { busy, error, run, fieldError } = useAction(async () => {
    const t = await api.channels.createThread(channel.id, { name: title.trim(), message: { content: body }, ...(tags.length ? { applied_tags: tags } : {}) });
    onDone(t.id);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };
  return (
    <form className="forum__new" onSubmit={submit} aria-label="New post">
      {error && !fieldError('name') ? <Banner>{readableError(error)}</Banner> : null}
      <TextField label="Post title" value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} error={fieldError('name')} required autoFocus />
      <Field label="Message">
        {(id) => <textarea id={id} className="textarea" value={body} onChange={(e) => setBody(e.target.value)} placeholder="Share your thoughts…" />}
      </Field>
      {channel.available_tags?.length ? (
        <div className="post__tags">
          {channel.available_tags.map((t) => (
            <label key={t.id} className={tags.includes(t.id) ? 'post__tag post__tag--on' : 'post__tag'}>
              <input
                type="checkbox"
                hidden
                checked={tags.includes(t.id)}
                onChange={() => setTags((s) => (s.includes(t.id) ? s.filter((x) => x !== t.id) : [...s, t.id]))}
              />
              {t.emoji_name ? `${t.emoji_name} ` : ''}
              {t.name}
            </label>
          ))}
        </div>
      ) : null}
      <div className="row" style={{ justifyContent: 'flex-end' }}>
        <Button variant="link" onClick={() => onDone()}>
          Cancel
        </Button>
        <Button type="submit" busy={busy} disabled={!title.trim() || !body.trim()}>
          Post
        </Button>
      </div>
    </form>
  );
}
