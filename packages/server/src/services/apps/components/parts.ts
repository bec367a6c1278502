import { Checker, compact, isObj, type Obj, type Path } from './check.js';
import { C, CHANNEL_TYPES, LIMITS } from './types.js';

/**
 * State shared by one walk over a message's or a modal's components: numeric `id`s (unique, 0 or absent =
 * auto-assigned in reading order once the walk is done) and `custom_id`s (unique).
 */
export class Walk {
  private explicit = new Map<number, Path>();
  private auto: Obj[] = [];
  private customIds = new Map<string, Path>();
  /** Components seen, at every nesting level. */
  count = 0;

  constructor(readonly c: Checker) {}

  /** Reads `id` of a raw component into `out` (placed right after `type`). */
  id(raw: Obj, path: Path, out: Obj): void {
    this.count++;
    const v = this.c.int(raw, 'id', path, 0, LIMITS.int32);
    if (v === undefined || v === 0) {
      out.id = 0;
      this.auto.push(out);
      return;
    }
    if (this.explicit.has(v)) this.c.add([...path, 'id'], 'COMPONENT_ID_DUPLICATED', 'Component id cannot be duplicated');
    else this.explicit.set(v, path);
    out.id = v;
  }

  customId(raw: Obj, path: Path, required = true): string | undefined {
    const v = this.c.str(raw, 'custom_id', path, 1, LIMITS.customId, required);
    if (v === undefined) return undefined;
    if (this.customIds.has(v)) this.c.add([...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    else this.customIds.set(v, path);
    return v;
  }

  /** Gives every component without an id the next free number, in reading order. */
  assignIds(): void {
    let next = 1;
    for (const out of this.auto) {
      while (this.explicit.has(next)) next++;
      out.id = next++;
    }
  }
}

/** `{type, id, …rest}`: the shape every normalized component starts with. */
export function head(w: Walk, raw: Obj, path: Path, type: number): Obj {
  const out: Obj = { type };
  w.id(raw, path, out);
  return out;
}

export function readType(c: Checker, raw: Obj, path: Path): number | undefined {
  const t = raw.type;
  if (t == null) {
    c.required([...path, 'type']);
    return undefined;
  }
  if (typeof t !== 'number' || !Number.isInteger(t)) {
    c.add([...path, 'type'], 'NUMBER_TYPE_COERCE', `Value "${String(t)}" is not int.`);
    return undefined;
  }
  return t;
}

export function emoji(c: Checker, raw: Obj, path: Path): Obj | undefined {
  if (raw.emoji == null) return undefined;
  const p = [...path, 'emoji'];
  const e = c.obj(raw.emoji, p);
  if (!e) return undefined;
  const id = c.snowflake(e, 'id', p);
  const name = c.str(e, 'name', p, 1, LIMITS.emojiName);
  const animated = c.bool(e, 'animated', p);
  if (id === undefined && name === undefined && e.id == null && e.name == null) c.required([...p, 'id']);
  return compact({ id, name, animated });
}

export interface SelectOpts {
  /** Inside a modal: `disabled` is refused and `required` is kept. */
  modal: boolean;
}

/** String, User, Role, Mentionable and Channel selects, in a message row or inside a modal Label. */
export function select(w: Walk, raw: Obj, path: Path, type: number, opts: SelectOpts): Obj {
  const { c } = w;
  const out = head(w, raw, path, type);
  out.custom_id = w.customId(raw, path);
  let optionCount = Infinity;
  if (type === C.STRING_SELECT) {
    const options = c.arr(raw.options, [...path, 'options'], 1, LIMITS.selectOptions);
    if (options) {
      optionCount = options.length;
      out.options = choiceOptions(c, options, [...path, 'options'], { emoji: true });
    }
  }
  if (type === C.CHANNEL_SELECT && raw.channel_types != null) out.channel_types = channelTypes(c, raw, path);
  out.placeholder = c.str(raw, 'placeholder', path, 0, LIMITS.placeholder);
  const min = c.int(raw, 'min_values', path, 0, LIMITS.selectValues);
  const max = c.int(raw, 'max_values', path, 1, LIMITS.selectValues);
  out.min_values = min;
  out.max_values = max;
  const lo = min ?? 1;
  const hi = max ?? 1;
  if (min !== undefined && min > hi) c.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${hi}.`);
  if (max !== undefined && max > optionCount) c.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${optionCount}.`);
  else if (min !== undefined && min > optionCount) c.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${optionCount}.`);
  if (Array.isArray(out.options)) {
    const defaults = (out.options as Obj[]).filter((o) => o.default === true).length;
    if (defaults > hi) c.add([...path, 'options'], 'SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES', `At most ${hi} options may be selected by default.`);
  }
  if (type !== C.STRING_SELECT && raw.default_values != null) out.default_values = defaultValues(c, raw, path, type, lo, hi);
  const disabled = c.bool(raw, 'disabled', path);
  if (opts.modal) {
    if (disabled === true) c.add([...path, 'disabled'], 'COMPONENT_DISABLED_NOT_ALLOWED', 'Select menus cannot be disabled in modals.');
    out.required = c.bool(raw, 'required', path);
  } else {
    out.disabled = disabled;
  }
  return compact(out);
}

const DEFAULT_VALUE_TYPES: Record<number, string[]> = {
  [C.USER_SELECT]: ['user'],
  [C.ROLE_SELECT]: ['role'],
  [C.MENTIONABLE_SELECT]: ['user', 'role'],
  [C.CHANNEL_SELECT]: ['channel'],
};

function defaultValues(c: Checker, raw: Obj, path: Path, type: number, min: number, max: number): Obj[] | undefined {
  const p = [...path, 'default_values'];
  const list = c.arr(raw.default_values, p, 0, LIMITS.selectValues);
  if (!list) return undefined;
  if (list.length && (list.length < min || list.length > max)) c.add(p, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
  const allowed = DEFAULT_VALUE_TYPES[type];
  return list.map((v, i) => {
    const o = c.obj(v, [...p, i]) ?? {};
    const id = c.snowflake(o, 'id', [...p, i], true);
    const t = c.oneOf(o, 'type', [...p, i], allowed, true);
    return compact({ id, type: t });
  });
}

function channelTypes(c: Checker, raw: Obj, path: Path): number[] | undefined {
  const p = [...path, 'channel_types'];
  const list = c.arr(raw.channel_types, p, 0, CHANNEL_TYPES.length);
  if (!list) return undefined;
  return list.filter((v, i) => {
    if (CHANNEL_TYPES.includes(v as number)) return true;
    c.choices([...p, i], CHANNEL_TYPES);
    return false;
  }) as number[];
}

/** Options of a String Select, Radio Group or Checkbox Group: `{label, value, description?, emoji?, default?}`. */
export function choiceOptions(c: Checker, list: unknown[], path: Path, opts: { emoji: boolean }): Obj[] {
  const seen = new Set<string>();
  return list.map((v, i) => {
    const p = [...path, i];
    const o = c.obj(v, p) ?? {};
    const label = c.str(o, 'label', p, 1, LIMITS.optionText, true);
    const value = c.str(o, 'value', p, 1, LIMITS.optionText, true);
    if (value !== undefined) {
      if (seen.has(value)) c.add([...p, 'value'], 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', 'Option values must be unique.');
      seen.add(value);
    }
    const description = c.str(o, 'description', p, 0, LIMITS.optionText);
    const em = opts.emoji ? emoji(c, o, p) : undefined;
    const dflt = c.bool(o, 'default', p);
    return compact({ label, value, description, emoji: em, default: dflt });
  });
}

/** Anything that is not an object where a component belongs. */
export function componentObj(c: Checker, v: unknown, path: Path): Obj | undefined {
  if (isObj(v)) return v;
  c.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
  return undefined;
}
