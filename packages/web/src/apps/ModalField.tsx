import { useId } from 'react';
import type { Channel } from '../lib/api/types.js';
import { useStore } from '../lib/session.js';
import { Icon } from '../lib/ui/index.js';
import { Dropdown, type Choice } from './components/SelectMenu.js';
import { entityChoices, selectEntity } from './EntityOptions.js';

export type FieldValue = string | string[] | boolean | File[] | null;

export function initialValue(c: any): FieldValue {
  switch (c.type) {
    case 4:
      return c.value ?? '';
    case 21:
      return (c.options ?? []).find((o: any) => o.default)?.value ?? null;
    case 22:
      return (c.options ?? []).filter((o: any) => o.default).map((o: any) => o.value);
    case 23:
      return c.default === true;
    case 19:
      return [];
    case 3:
      return (c.options ?? []).filter((o: any) => o.default).map((o: any) => o.value);
    default:
      return (c.default_values ?? []).map((d: any) => d.id);
  }
}

/** One labelled field of a modal, for each interactive component type of the spec. */
export function ModalField({
  label,
  description,
  component: c,
  channel,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  component: any;
  channel?: Channel;
  value: FieldValue;
  onChange: (v: FieldValue) => void;
}) {
  const id = useId();
  const guild = useStore((s) => (channel?.guild_id ? s.guilds.get(channel.guild_id) : undefined));
  const users = useStore((s) => s.users);
  const me = useStore((s) => s.me);
  const required = c.required !== false && c.type !== 23;
  let control;
  switch (c.type) {
    case 4: {
      const Tag = c.style === 2 ? 'textarea' : 'input';
      control = (
        <Tag
          id={id}
          className={c.style === 2 ? 'textarea' : 'input'}
          value={value as string}
          placeholder={c.placeholder}
          minLength={c.min_length}
          maxLength={c.max_length}
          required={required}
          onChange={(e: any) => onChange(e.target.value)}
        />
      );
      break;
    }
    case 21:
      control = (
        <div role="radiogroup" aria-labelledby={`${id}-l`} className="choices">
          {(c.options ?? []).map((o: any) => (
            <label key={o.value} className={value === o.value ? 'choice choice--on' : 'choice'}>
              <input type="radio" name={id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
              <span className="grow">
                <span>{o.label}</span>
                {o.description ? <span className="choice__desc">{o.description}</span> : null}
              </span>
            </label>
          ))}
        </div>
      );
      break;
    case 22: {
      const picked = (value as string[]) ?? [];
      control = (
        <div role="group" aria-labelledby={`${id}-l`} className="choices">
          {(c.options ?? []).map((o: any) => (
            <label key={o.value} className={picked.includes(o.value) ? 'choice choice--on' : 'choice'}>
              <input
                type="checkbox"
                value={o.value}
                checked={picked.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...picked, o.value] : picked.filter((x) => x !== o.value))}
              />
              <span className="grow">
                <span>{o.label}</span>
                {o.description ? <span className="choice__desc">{o.description}</span> : null}
              </span>
            </label>
          ))}
        </div>
      );
      break;
    }
    case 23:
      return (
        <div className="field">
          <label className="choice choice--single">
            <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
            <span className="grow">
              <span className="choice__title">{label}</span>
              {description ? <span className="choice__desc">{description}</span> : null}
            </span>
          </label>
        </div>
      );
    case 19: {
      const files = (value as File[]) ?? [];
      const max = c.max_values ?? 1;
      control = (
        <div className="upload">
          <label className="upload__drop">
            <input
              id={id}
              type="file"
              multiple={max > 1}
              accept={(c.file_types ?? []).map((t: string) => (t.startsWith('.') ? t : `${t}/*`)).join(',') || undefined}
              onChange={(e) => {
                onChange([...files, ...Array.from(e.target.files ?? [])].slice(0, max));
                e.target.value = '';
              }}
            />
            <Icon name="upload" size={20} /> <span>{files.length ? 'Add more files' : 'Click to upload'}</span>
            <span className="muted">{max > 1 ? `Up to ${max} files` : 'One file'}</span>
          </label>
          {files.map((f, i) => (
            <div key={i} className="upload__file">
              <Icon name="file" size={16} />
              <span className="ellipsis grow">{f.name}</span>
              <button type="button" className="icon-btn" aria-label={`Remove ${f.name}`} onClick={() => onChange(files.filter((_, j) => j !== i))}>
                <Icon name="x" size={14} />
              </button>
            </div>
          ))}
        </div>
      );
      break;
    }
    default: {
      const choices: Choice[] =
        c.type === 3
          ? (c.options ?? []).map((o: any) => ({ value: o.value, label: o.label, description: o.description, emoji: o.emoji?.name }))
          : channel
            ? entityChoices(selectEntity(c.type), guild, channel, users, me?.id, c.channel_types)
            : [];
      control = (
        <Dropdown
          id={id}
          label={c.placeholder ?? 'Make a selection'}
          choices={choices}
          min={c.min_values ?? 1}
          max={c.max_values ?? 1}
          initial={(value as string[]) ?? []}
          onChange={(v) => onChange(v)}
        />
      );
    }
  }
  return (
    <div className="field">
      <label id={`${id}-l`} htmlFor={id} className="field__label">
        {label}
        {required ? (
          <span className="req" aria-hidden>
            {' '}
            *
          </span>
        ) : null}
      </label>
      {description ? <div className="field__hint">{description}</div> : null}
      {control}
    </div>
  );
}
