import { useEffect, useRef } from 'react';
import { Avatar } from '../../lib/ui/index.js';
import { customEmojiUrl, Twemoji } from '../../lib/emoji/Emoji.js';
import type { Suggestion, Trigger } from './completion.js';

const HEAD: Record<Trigger['kind'], string> = { '@': 'Members', '#': 'Text Channels', ':': 'Emoji matching' };

/** The list above the composer while typing `@…`, `#…` or `:…`; the composer drives it with the keyboard. */
export function Autocomplete({
  trigger,
  items,
  selected,
  onHover,
  onPick,
}: {
  trigger: Trigger;
  items: Suggestion[];
  selected: number;
  onHover: (i: number) => void;
  onPick: (s: Suggestion) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <div className="picker complete" role="listbox" id="composer-complete" aria-label="Suggestions" ref={ref}>
      <div className="picker__head">
        {HEAD[trigger.kind]}
        {trigger.query ? (
          <>
            {' '}
            <strong className="complete__query">
              {trigger.kind}
              {trigger.query}
            </strong>
          </>
        ) : null}
      </div>
      {items.map((s, i) => (
        <div
          key={s.key}
          id={`complete-${i}`}
          role="option"
          aria-selected={i === selected}
          className={i === selected ? 'picker__item picker__item--on' : 'picker__item'}
          onMouseEnter={() => onHover(i)}
          onMouseDown={(ev) => {
            ev.preventDefault();
            onPick(s);
          }}
        >
          <span className="complete__icon" aria-hidden>
            {s.kind === 'member' ? (
              <Avatar user={s.user} size={24} />
            ) : s.kind === 'channel' ? (
              '#'
            ) : s.kind === 'role' || s.kind === 'everyone' ? (
              <span style={s.color ? { color: `#${s.color.toString(16).padStart(6, '0')}` } : undefined}>@</span>
            ) : s.kind === 'custom' ? (
              <img className="emoji" src={customEmojiUrl(s.custom!.id, s.custom!.animated, 32)} alt="" />
            ) : (
              <Twemoji emoji={s.unicode!} />
            )}
          </span>
          <span className="complete__label ellipsis">{s.kind === 'role' ? `@${s.label}` : s.label}</span>
          {s.detail ? <span className="complete__detail ellipsis grow">{s.detail}</span> : <span className="grow" />}
        </div>
      ))}
    </div>
  );
}
