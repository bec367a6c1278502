import { useEffect, useState } from 'react';
import type { Message } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { relative } from '../../lib/markdown/timestamp.js';
import { useApi } from '../../lib/session.js';
import { Button, Icon, toast } from '../../lib/ui/index.js';
import { plural } from '../../lib/plural.js';

/** A poll: pick one answer (or several), vote, see the results with your choice marked; remove your vote. */
export function Poll({ message: m }: { message: Message }) {
  const api = useApi();
  const poll = m.poll!;
  const counts = poll.results?.answer_counts ?? [];
  const voted = counts.filter((c) => c.me_voted).map((c) => c.id);
  const total = counts.reduce((n, c) => n + c.count, 0);
  const ended = poll.results?.is_finalized || (poll.expiry ? new Date(poll.expiry).getTime() < Date.now() : false);
  const showResults = voted.length > 0 || ended;
  const [picked, setPicked] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  // A vote answered 204 stays marked and "being sent" until MESSAGE_POLL_VOTE_ADD counts it, rather than the poll
  // showing no choice in between.
  const [sent, setSent] = useState(false);
  useEffect(() => {
    if (!voted.length) return;
    setSent(false);
    setPicked([]);
  }, [voted.length]);
  const vote = async (ids: number[]) => {
    setBusy(true);
    try {
      await api.channels.vote(m.channel_id, m.id, ids);
      if (ids.length) setSent(true);
      else setPicked([]);
    } catch (err) {
      toast(readableError(err), true);
    } finally {
      setBusy(false);
    }
  };
  const pick = (id: number) => setPicked((p) => (poll.allow_multiselect ? (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]) : [id]));
  return (
    <div className="poll" role="group" aria-label={`Poll: ${poll.question.text}`}>
      <div className="poll__q">{poll.question.text}</div>
      <div className="poll__hint muted">{poll.allow_multiselect ? 'Select one or more answers' : 'Select one answer'}</div>
      <div className="poll__answers">
        {poll.answers.map((a) => {
          const c = counts.find((x) => x.id === a.answer_id);
          const pct = total ? Math.round(((c?.count ?? 0) / total) * 100) : 0;
          const mine = voted.includes(a.answer_id);
          const on = picked.includes(a.answer_id);
          return (
            <button
              key={a.answer_id}
              type="button"
              className={['poll__answer', (on || mine) && 'poll__answer--on'].filter(Boolean).join(' ')}
              disabled={showResults || busy || sent}
              onClick={() => pick(a.answer_id)}
              aria-pressed={on || mine}
            >
              {showResults ? <span className="poll__bar" style={{ width: `${pct}%` }} /> : null}
              <span className="poll__text">
                {a.poll_media.emoji?.name ? `${a.poll_media.emoji.name} ` : ''}
                {a.poll_media.text}
              </span>
              {showResults ? (
                <span className="poll__pct">
                  {plural(c?.count ?? 0, 'vote', 'votes')} · {pct}%
                </span>
              ) : (
                <span className={on ? 'poll__radio poll__radio--on' : 'poll__radio'} aria-hidden>
                  {on ? <Icon name="check" size={12} /> : null}
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div className="poll__foot">
        <span className="muted">
          {total} vote{total === 1 ? '' : 's'} ·{' '}
          {ended ? 'Poll closed' : poll.expiry ? `${relative(new Date(poll.expiry).getTime()).replace(/^in /, '')} left` : ''}
        </span>
        <span className="grow" />
        {!ended && voted.length ? (
          <Button variant="link" size="sm" onClick={() => void vote([])}>
            Remove Vote
          </Button>
        ) : null}
        {!showResults ? (
          <Button size="sm" busy={busy || sent} disabled={!picked.length} onClick={() => void vote(picked)}>
            Vote
          </Button>
        ) : null}
      </div>
    </div>
  );
}
