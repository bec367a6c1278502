import { Twemoji } from '../../lib/emoji/Emoji.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import type { Channel, Message } from '../../lib/api/types.js';
import { useSession, useStore } from '../../lib/session.js';
import { Icon, Spinner, toast } from '../../lib/ui/index.js';
import { entityChoices, selectEntity } from '../EntityOptions.js';
import { clickComponent } from '../invoke.js';

export interface Choice {
  value: string;
  label: string;
  description?: string;
  emoji?: string;
}

/**
 * A select menu of any kind (string, user, role, mentionable, channel). The choice is sent when the menu closes
 * with a changed selection, within min_values..max_values, as the official client does.
 */
export function SelectMenu({ select: s, message, channel }: { select: any; message: Message; channel: Channel }) {
  const { api, store } = useSession();
  const guild = useStore((st) => (channel.guild_id ? st.guilds.get(channel.guild_id) : undefined));
  const users = useStore((st) => st.users);
  const me = useStore((st) => st.me);
  const pending = useStore((st) => {
    for (const p of st.interactions.values())
      if (p.messageId === message.id && p.customId === s.custom_id && (p.state === 'sending' || p.state === 'created')) return true;
    return false;
  });
  const choices: Choice[] = useMemo(
    () =>
      s.type === 3
        ? (s.options ?? []).map((o: any) => ({ value: o.value, label: o.label, description: o.description, emoji: o.emoji?.name }))
        : entityChoices(selectEntity(s.type), guild, channel, users, me?.id, s.channel_types),
    [s, guild, users],
  );
  const defaults = useMemo(
    () => (s.type === 3 ? (s.options ?? []).filter((o: any) => o.default).map((o: any) => o.value) : (s.default_values ?? []).map((d: any) => d.id)),
    [s],
  );
  const min = s.min_values ?? 1;
  const max = s.max_values ?? 1;
  const send = (values: string[]) =>
    clickComponent(api, store, channel, message, { custom_id: s.custom_id, type: s.type }, values).catch((err) => toast(readableError(err), true));
  return (
    <Dropdown
      label={s.placeholder ?? 'Make a selection'}
      choices={choices}
      min={min}
      max={max}
      initial={defaults}
      disabled={s.disabled || pending}
      busy={pending}
      onCommit={send}
    />
  );
}

/** The dropdown itself, shared with modals (where the choice is kept until submit instead of sent). */
export function Dropdown({
  label,
  choices,
  min,
  max,
  initial,
  disabled,
  busy,
  onCommit,
  onChange,
  id,
}: {
  label: string;
  choices: Choice[];
  min: number;
  max: number;
  initial: string[];
  disabled?: boolean;
  busy?: boolean;
  onCommit?: (values: string[]) => void;
  onChange?: (values: string[]) => void;
  id?: string;
}) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>(initial);
  const committed = useRef<string[]>(initial);
  const ref = useRef<HTMLDivElement>(null);
  const close = () => {
    setOpen(false);
    const changed = picked.join('\u0000') !== committed.current.join('\u0000');
    if (changed && picked.length >= min && picked.length <= max) {
      committed.current = picked;
      onCommit?.(picked);
    }
  };
  // Over the rows after this one while open (each virtual row is its own stacking context). A class, not :has():
  // :has() makes every style recalculation of the list slower.
  useEffect(() => {
    const row = ref.current?.closest('.messages__row');
    row?.classList.toggle('messages__row--raised', open);
    return () => row?.classList.remove('messages__row--raised');
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const out = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) close();
    };
    window.addEventListener('mousedown', out);
    return () => window.removeEventListener('mousedown', out);
  });
  const toggle = (v: string) => {
    let next: string[];
    if (max === 1) next = [v];
    else next = picked.includes(v) ? picked.filter((x) => x !== v) : picked.length >= max ? picked : [...picked, v];
    setPicked(next);
    onChange?.(next);
    if (max === 1 && onCommit) {
      setOpen(false);
      if (next.join() !== committed.current.join()) {
        committed.current = next;
        onCommit(next);
      }
    }
  };
  const shown = picked.map((v) => choices.find((c) => c.value === v)?.label ?? v);
  return (
    <div className={open ? 'dropdown dropdown--open' : 'dropdown'} ref={ref}>
      <button
        type="button"
        id={id}
        className="dropdown__btn"
        disabled={disabled}
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span className={shown.length ? 'ellipsis grow' : 'ellipsis grow muted'}>{shown.length ? shown.join(', ') : label}</span>
        {busy ? <Spinner small /> : <Icon name="chevron" size={18} />}
      </button>
      {open ? (
        <ul className="dropdown__list" role="listbox" aria-multiselectable={max > 1} aria-label={label}>
          {choices.length === 0 ? <li className="dropdown__empty">No options</li> : null}
          {choices.map((c) => {
            const on = picked.includes(c.value);
            return (
              <li
                key={c.value}
                role="option"
                aria-selected={on}
                className={on ? 'dropdown__item dropdown__item--on' : 'dropdown__item'}
                onClick={() => toggle(c.value)}
              >
                {c.emoji ? <Twemoji emoji={c.emoji} className="dropdown__emoji" /> : null}
                <span className="grow">
                  <span className="dropdown__label">{c.label}</span>
                  {c.description ? <span className="dropdown__desc">{c.description}</span> : null}
                </span>
                {max > 1 ? (
                  <span className={on ? 'check check--on' : 'check'} aria-hidden>
                    {on ? <Icon name="check" size={12} /> : null}
                  </span>
                ) : on ? (
                  <Icon name="check" size={16} />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
