import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { APIApplicationCommandOption, Channel } from '../lib/api/types.js';
import { useSession, useStore } from '../lib/session.js';
import { Icon } from '../lib/ui/index.js';
import { optionTree, type CommandEntry } from './command-index.js';
import { requestAutocomplete, runCommand } from './invoke.js';
import { EntityOptions, optionEntity } from './EntityOptions.js';

/**
 * The composer in command mode: the command's chip, then one typed field per option (required first, optional
 * ones added on demand). Enter runs it; Escape goes back to the message box.
 */
export function CommandForm({ entry, channel, onDone }: { entry: CommandEntry; channel: Channel; onDone: () => void }) {
  const { api, store } = useSession();
  const required = entry.options.filter((o) => o.required);
  const optional = entry.options.filter((o) => !o.required);
  const [shown, setShown] = useState<string[]>(required.map((o) => o.name));
  const [values, setValues] = useState<Record<string, string>>({});
  const [files, setFiles] = useState<Record<string, File>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const first = useRef<HTMLElement | null>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);

  const fields = entry.options.filter((o) => shown.includes(o.name));
  type Leaf = { type: number; name: string; value: unknown; focused?: boolean };
  const leaves = (): Leaf[] =>
    fields.flatMap((o): Leaf[] => {
      if (o.type === 11) return files[o.name] ? [{ type: 11, name: o.name, value: String(Object.keys(files).indexOf(o.name)) }] : [];
      const raw = values[o.name];
      return raw === undefined || raw === '' ? [] : [{ type: o.type, name: o.name, value: convert(o, raw) }];
    });
  /** The options with the one being typed marked focused and sent as typed, as autocomplete wants. */
  const focusedLeaves = (o: APIApplicationCommandOption, partial: string): Leaf[] => [
    ...leaves().filter((l) => l.name !== o.name),
    { type: o.type, name: o.name, value: partial, focused: true },
  ];

  const run = async () => {
    const lack = fields.filter((o) => o.required && (o.type === 11 ? !files[o.name] : !values[o.name]?.trim())).map((o) => o.name);
    setMissing(lack);
    if (lack.length) return;
    const opts = leaves();
    const display =
      `/${entry.fullName}` +
      fields
        .map((o) =>
          o.type === 11 ? (files[o.name] ? ` ${o.name}: ${files[o.name].name}` : '') : values[o.name] ? ` ${o.name}: ${labelOf(o, values[o.name])}` : '',
        )
        .join('');
    onDone();
    await runCommand(api, store, channel, {
      command: entry.command,
      appName: entry.app.name,
      options: optionTree(entry, opts),
      display,
      files: Object.values(files),
    });
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onDone();
    }
    if (e.key === 'Enter' && !e.shiftKey && !(e.target as HTMLElement).closest('.ac')) {
      e.preventDefault();
      void run();
    }
  };

  return (
    <div className="cmdform" onKeyDown={onKey} role="group" aria-label={`/${entry.fullName}`}>
      <div className="cmdform__head">
        <span className="cmdform__chip">/{entry.fullName}</span>
        <span className="muted ellipsis grow">{entry.description}</span>
        <button type="button" className="icon-btn" aria-label="Cancel command" onClick={onDone}>
          <Icon name="x" size={18} />
        </button>
      </div>
      <div className="cmdform__fields">
        {fields.map((o, i) => (
          <OptionField
            key={o.name}
            option={o}
            channel={channel}
            value={values[o.name] ?? ''}
            file={files[o.name]}
            invalid={missing.includes(o.name)}
            inputRef={
              i === 0
                ? (el) => {
                    first.current = el;
                  }
                : undefined
            }
            onFocus={() => undefined}
            onChange={(v) => setValues((s) => ({ ...s, [o.name]: v }))}
            onFile={(f) =>
              setFiles((s) => {
                const n = { ...s };
                if (f) n[o.name] = f;
                else delete n[o.name];
                return n;
              })
            }
            autocomplete={
              'autocomplete' in o && o.autocomplete
                ? (partial) => requestAutocomplete(api, store, channel, entry.command, optionTree(entry, focusedLeaves(o, partial)))
                : undefined
            }
          />
        ))}
        {optional.filter((o) => !shown.includes(o.name)).length ? (
          <div className="cmdform__more">
            <span className="muted">Optional:</span>
            {optional
              .filter((o) => !shown.includes(o.name))
              .map((o) => (
                <button key={o.name} type="button" className="cmdform__add" onClick={() => setShown((s) => [...s, o.name])}>
                  + {o.name}
                </button>
              ))}
          </div>
        ) : null}
      </div>
      <div className="cmdform__foot">
        {missing.length ? (
          <span className="cmdform__error" role="alert">
            Fill in {missing.join(', ')}
          </span>
        ) : (
          <span className="muted">Enter to send · Esc to cancel</span>
        )}
        <button type="button" className="btn btn--sm" onClick={() => void run()}>
          Send
        </button>
      </div>
    </div>
  );
}

function convert(o: APIApplicationCommandOption, raw: string): unknown {
  if (o.type === 4) return Number.parseInt(raw, 10);
  if (o.type === 10) return Number(raw);
  if (o.type === 5) return raw === 'true';
  return raw;
}

function labelOf(o: APIApplicationCommandOption, raw: string): string {
  const choices = 'choices' in o ? (o.choices as { name: string; value: unknown }[] | undefined) : undefined;
  return choices?.find((c) => String(c.value) === raw)?.name ?? raw;
}

function OptionField({
  option: o,
  channel,
  value,
  file,
  invalid,
  onChange,
  onFile,
  onFocus,
  inputRef,
  autocomplete,
}: {
  option: APIApplicationCommandOption;
  channel: Channel;
  value: string;
  file?: File;
  invalid: boolean;
  onChange: (v: string) => void;
  onFile: (f: File | null) => void;
  onFocus: () => void;
  inputRef?: (el: HTMLElement | null) => void;
  autocomplete?: (partial: string) => Promise<string>;
}) {
  const id = `opt-${o.name}`;
  const choices = 'choices' in o ? (o.choices as { name: string; value: string | number }[] | undefined) : undefined;
  const common = { id, onFocus, 'aria-invalid': invalid || undefined, ref: inputRef as any };
  let control;
  if (o.type === 11) {
    control = (
      <label className="cmdform__file">
        <input {...common} type="file" onChange={(e) => onFile(e.target.files?.[0] ?? null)} />
        <Icon name="paperclip" size={16} /> {file ? file.name : 'Choose a file'}
      </label>
    );
  } else if (o.type === 5) {
    control = (
      <select {...common} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        <option value="true">True</option>
        <option value="false">False</option>
      </select>
    );
  } else if (choices?.length) {
    control = (
      <select {...common} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {choices.map((c) => (
          <option key={String(c.value)} value={String(c.value)}>
            {c.name}
          </option>
        ))}
      </select>
    );
  } else if (o.type >= 6 && o.type <= 9) {
    control = (
      <EntityOptions {...common} entity={optionEntity(o.type)} channel={channel} channelTypes={(o as any).channel_types} value={value} onChange={onChange} />
    );
  } else if (autocomplete) {
    control = <Autocomplete common={common} numeric={o.type === 4 || o.type === 10} value={value} onChange={onChange} ask={autocomplete} />;
  } else {
    const numeric = o.type === 4 || o.type === 10;
    const lim = o as any;
    control = (
      <input
        {...common}
        className="input"
        type={numeric ? 'number' : 'text'}
        step={o.type === 4 ? 1 : 'any'}
        min={lim.min_value}
        max={lim.max_value}
        minLength={lim.min_length}
        maxLength={lim.max_length}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={o.description}
      />
    );
  }
  return (
    <div className={invalid ? 'cmdform__field cmdform__field--invalid' : 'cmdform__field'}>
      <label htmlFor={id} className="cmdform__label">
        {o.name}
        {o.required ? '' : ' (optional)'}
      </label>
      {control}
    </div>
  );
}

/** A text field whose suggestions come from the app (APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE, matched by nonce). */
function Autocomplete({
  common,
  numeric,
  value,
  onChange,
  ask,
}: {
  common: Record<string, unknown>;
  numeric: boolean;
  value: string;
  onChange: (v: string) => void;
  ask: (partial: string) => Promise<string>;
}) {
  const [nonce, setNonce] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const reply = useStore((s) => (s.autocomplete && s.autocomplete.nonce === nonce ? s.autocomplete : null));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const query = (v: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      ask(v).then(setNonce, () => undefined);
    }, 200);
  };
  useEffect(() => {
    query(value);
    return () => clearTimeout(timer.current);
  }, []);
  const choices = useMemo(() => reply?.choices ?? [], [reply]);
  return (
    <div className="ac">
      <input
        {...common}
        className="input"
        inputMode={numeric ? 'decimal' : undefined}
        value={value}
        autoComplete="off"
        role="combobox"
        aria-expanded={open && choices.length > 0}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          query(e.target.value);
        }}
        onFocus={(e) => {
          (common.onFocus as () => void)();
          setOpen(true);
          void e;
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && open && choices[0]) {
            e.preventDefault();
            e.stopPropagation();
            onChange(String(choices[0].value));
            setOpen(false);
          }
        }}
      />
      {open && choices.length ? (
        <ul className="ac__list" role="listbox">
          {choices.map((c) => (
            <li
              key={String(c.value)}
              role="option"
              aria-selected={String(c.value) === value}
              className="ac__item"
              onMouseDown={(e) => {
                e.preventDefault();
                onChange(String(c.value));
                setOpen(false);
              }}
            >
              {c.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
