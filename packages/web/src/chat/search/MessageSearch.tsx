import { useState } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../../lib/api/errors.js';
import type { Message } from '../../lib/api/types.js';
import { Markdown } from '../../lib/markdown/Markdown.js';
import { messageTime } from '../../lib/markdown/timestamp.js';
import { useApi, useStore } from '../../lib/session.js';
import { Avatar, displayName, Empty, ErrorState, Icon, Loading } from '../../lib/ui/index.js';
import './search.css';
import { plural } from '../../lib/plural.js';

type Results = { messages: Message[]; total: number } | null;

/** A server's first search starts its index: the API answers 202 with `retry_after` until it is built, so wait and ask again. */
async function search(api: ReturnType<typeof useApi>, guildId: string, content: string): Promise<Results> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = (await api.guilds.searchMessages(guildId, content)) as { messages?: Message[][]; total_results?: number; retry_after?: number };
    if (r.messages) return { messages: r.messages.map((m) => m[0]), total: r.total_results ?? r.messages.length };
    await new Promise((done) => setTimeout(done, Math.min(5, Math.max(0.2, r.retry_after ?? 1)) * 1000));
  }
  throw new Error('Search is still indexing this server. Try again in a moment.');
}

/** Searches the server's messages (`GET /guilds/{id}/messages/search`) from the channel header; a hit opens its channel. */
export function MessageSearch({ guildId }: { guildId: string }) {
  const api = useApi();
  const nav = useNavigate();
  const channels = useStore((s) => s.guilds.get(guildId)?.channels);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<Results>(null);
  const [error, setError] = useState<unknown>(null);

  const run = (e: React.FormEvent) => {
    e.preventDefault();
    const content = query.trim();
    if (!content) return;
    setOpen(true);
    setResults(null);
    setError(null);
    search(api, guildId, content).then(setResults, setError);
  };
  const close = () => setOpen(false);

  return (
    <form className="search" role="search" onSubmit={run}>
      <input
        className="search__input"
        type="search"
        placeholder="Search"
        aria-label="Search messages"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && close()}
      />
      <Icon name="search" size={16} className="search__icon" />
      {open ? (
        <div className="popover search__results" role="dialog" aria-label="Search results">
          <div className="popover__head">
            <strong className="grow">{results ? plural(results.total, 'result', 'results') : 'Searching…'}</strong>
            <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
              <Icon name="x" size={16} />
            </button>
          </div>
          <div className="popover__body">
            {error ? (
              <ErrorState message={readableError(error)} />
            ) : !results ? (
              <Loading />
            ) : !results.messages.length ? (
              <Empty icon="search" title="No results">
                Nothing in this server matches “{query.trim()}”.
              </Empty>
            ) : (
              results.messages.map((m) => (
                <button
                  type="button"
                  key={m.id}
                  className="search__hit"
                  onClick={() => {
                    close();
                    nav(`/channels/${guildId}/${m.channel_id}`);
                  }}
                >
                  <span className="row">
                    <Avatar user={m.author} size={24} />
                    <strong>{displayName(m.author)}</strong>
                    <span className="muted">#{channels?.get(m.channel_id)?.name ?? 'channel'}</span>
                    <span className="msg__time">{messageTime(m.timestamp)}</span>
                  </span>
                  {m.content ? <Markdown text={m.content} /> : <span className="muted">Attachment</span>}
                </button>
              ))
            )}
          </div>
        </div>
      ) : null}
    </form>
  );
}
