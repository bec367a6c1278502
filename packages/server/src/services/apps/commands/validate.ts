import { Checker, compact, isObj, type Obj, type Path } from '../components/check.js';
import { CHANNEL_TYPES } from '../components/types.js';
import { CommandType, OptionType, LOCALES, MAX_COMMAND_SIZE, type CommandData, type CommandOption, type Localizations, type OptionChoice } from './types.js';

/** Chat-input and option names: letters, numbers, `-`, `_`, `'`, Devanagari and Thai; lowercase where one exists. */
const CHAT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** default_member_permissions: 0..2^54-1 (bits 0-53). */
const MAX_PERMISSIONS = (1n << 54n) - 1n;
const FILE_TYPE = /^(image|video|audio|\.[A-Za-z0-9][A-Za-z0-9_-]{0,15})$/;
const VALUE_TYPES = [3, 4, 5, 6, 7, 8, 9, 10, 11];
const ALL_OPTION_TYPES = Object.values(OptionType);
const HAS_CHOICES = new Set<number>([OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER]);

export interface ValidateOptions {
  scope: 'global' | 'guild';
  /** integration_types given to a global command that sets none: the app's installation contexts. */
  defaultIntegrationTypes: number[];
  /** PATCH keeps the command's type whatever the body says. */
  fixedType?: number;
}

/**
 * Validates one command body (create, bulk item, or a PATCH merged onto the stored command) and returns what is
 * stored. Errors go to `c` under `path`; returns undefined when the body is not even an object.
 */
export function validateCommand(c: Checker, input: unknown, path: Path, opts: ValidateOptions): CommandData | undefined {
  const raw = c.obj(input, path);
  if (!raw) return undefined;
  const before = c.leaves.length;
  const allowedTypes = opts.scope === 'global' ? [1, 2, 3, 4] : [1, 2, 3];
  const type = opts.fixedType ?? (raw.type == null ? CommandType.CHAT_INPUT : c.oneOf(raw, 'type', path, allowedTypes));
  const chat = type === CommandType.CHAT_INPUT;
  const contextMenu = type === CommandType.USER || type === CommandType.MESSAGE;

  const name = chat ? chatName(c, raw.name, [...path, 'name'], true) : c.str(raw, 'name', path, 1, 32, true);
  const name_localizations = localizations(c, raw, 'name_localizations', path, (v, p) => (chat ? chatName(c, v, p, false) : strAt(c, v, p, 1, 32)));

  let description = '';
  let description_localizations: Localizations = null;
  if (chat) {
    description = c.str(raw, 'description', path, 1, 100, true) ?? '';
    description_localizations = localizations(c, raw, 'description_localizations', path, (v, p) => strAt(c, v, p, 1, 100));
  } else if (contextMenu) {
    if (raw.description != null && raw.description !== '') c.add([...path, 'description'], 'BASE_TYPE_MAX_LENGTH', 'Must be 0 or fewer in length.');
  } else {
    description = c.str(raw, 'description', path, 0, 100) ?? '';
    description_localizations = localizations(c, raw, 'description_localizations', path, (v, p) => strAt(c, v, p, 0, 100));
  }

  let options: CommandOption[] = [];
  if (chat) options = optionList(c, raw.options, [...path, 'options'], 'top') ?? [];
  else if (Array.isArray(raw.options) && raw.options.length) c.add([...path, 'options'], 'BASE_TYPE_MAX_LENGTH', 'Must be 0 or fewer in length.');

  const data: CommandData = {
    type: type ?? CommandType.CHAT_INPUT,
    name: name ?? '',
    name_localizations,
    description,
    description_localizations,
    options,
    default_member_permissions: memberPermissions(c, raw, path),
    nsfw: c.bool(raw, 'nsfw', path) ?? false,
  };
  if (opts.scope === 'global') {
    data.dm_permission = c.bool(raw, 'dm_permission', path) ?? true;
    data.contexts = enumList(c, raw, 'contexts', path, [0, 1, 2]) ?? null;
    data.integration_types = enumList(c, raw, 'integration_types', path, [0, 1]) ?? [...opts.defaultIntegrationTypes];
  }
  if (type === CommandType.PRIMARY_ENTRY_POINT) data.handler = c.oneOf(raw, 'handler', path, [1, 2], true);

  if (c.leaves.length === before && commandSize(data) > MAX_COMMAND_SIZE) {
    c.add(path, 'APPLICATION_COMMAND_TOO_LARGE', `Command exceeds maximum size (${MAX_COMMAND_SIZE})`);
  }
  return data;
}

function strAt(c: Checker, v: unknown, path: Path, min: number, max: number): string | undefined {
  // Checker reads fields of an object; wrap the value so the leaf lands on `path` itself.
  const key = path[path.length - 1];
  return c.str({ [key]: v }, String(key), path.slice(0, -1), min, max, true);
}

/** A chat-input (or option) name: 1–32 of the allowed characters, and lowercase. */
function chatName(c: Checker, v: unknown, path: Path, required: boolean): string | undefined {
  if (v == null && !required) return undefined;
  const s = strAt(c, v, path, 1, 32);
  if (s === undefined) return undefined;
  if (!CHAT_NAME.test(s)) {
    c.add(path, 'STRING_TYPE_REGEX', 'String value did not match validation regex.');
    return undefined;
  }
  if (s !== s.toLowerCase()) {
    c.add(path, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    return undefined;
  }
  return s;
}

/** `{locale: text}`; keys must be known locales. Null or absent → null. */
function localizations(c: Checker, raw: Obj, key: string, path: Path, value: (v: unknown, p: Path) => string | undefined): Localizations {
  const v = raw[key];
  if (v == null) return null;
  const p = [...path, key];
  if (!isObj(v)) {
    c.add(p, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return null;
  }
  const out: Record<string, string> = {};
  for (const [locale, text] of Object.entries(v)) {
    if (!LOCALES.includes(locale)) {
      c.add([...p, locale], 'BASE_TYPE_CHOICES', `Value must be one of (${LOCALES.join(', ')}).`);
      continue;
    }
    if (text == null) continue;
    const s = value(text, [...p, locale]);
    if (s !== undefined) out[locale] = s;
  }
  return Object.keys(out).length ? out : null;
}

function memberPermissions(c: Checker, raw: Obj, path: Path): string | null {
  const v = raw.default_member_permissions;
  if (v == null) return null;
  const p = [...path, 'default_member_permissions'];
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !/^\d{1,20}$/.test(s)) {
    c.add(p, 'NUMBER_TYPE_COERCE', `Value "${String(v)}" is not int.`);
    return null;
  }
  if (BigInt(s) > MAX_PERMISSIONS) {
    c.add(p, 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${MAX_PERMISSIONS}.`);
    return null;
  }
  return BigInt(s).toString();
}

/** `contexts` / `integration_types`: null, or 1+ distinct values of an enum. */
function enumList(c: Checker, raw: Obj, key: string, path: Path, values: number[]): number[] | undefined {
  const p = [...path, key];
  const list = c.arr(raw[key], p, 1, values.length, false);
  if (!list) return undefined;
  const out: number[] = [];
  list.forEach((v, i) => {
    if (!values.includes(v as number)) c.choices([...p, i], values);
    else if (!out.includes(v as number)) out.push(v as number);
  });
  return out;
}

type Level = 'top' | 'group' | 'sub';

/**
 * Options of one level. At the top: all subcommands/groups, or all value options. In a group: subcommands only.
 * In a subcommand (or a flat command): value options, required ones first.
 */
function optionList(c: Checker, v: unknown, path: Path, level: Level): CommandOption[] | undefined {
  const list = c.arr(v, path, level === 'group' ? 1 : 0, 25, level === 'group');
  if (!list) return undefined;
  const names = new Set<string>();
  let sawOptional = false;
  const nested = list.map((o) => isObj(o) && (o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP));
  const mixed = level === 'top' && nested.some(Boolean) && nested.some((n) => !n);
  const out: CommandOption[] = [];
  list.forEach((item, i) => {
    const p = [...path, i];
    const raw = c.obj(item, p);
    if (!raw) return;
    const allowed = level === 'group' ? [OptionType.SUB_COMMAND] : level === 'sub' ? VALUE_TYPES : ALL_OPTION_TYPES;
    const type = c.oneOf(raw, 'type', p, allowed, true);
    if (mixed && type !== undefined) {
      c.add(
        [...p, 'type'],
        'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
        'Sub-command and sub-command group option types are mutually exclusive to all other types',
      );
    }
    const name = chatName(c, raw.name, [...p, 'name'], true);
    if (name !== undefined) {
      if (names.has(name)) c.add([...p, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', 'Option name already used in these options');
      names.add(name);
    }
    const opt: CommandOption = {
      type: type ?? OptionType.STRING,
      name: name ?? '',
      name_localizations: localizations(c, raw, 'name_localizations', p, (x, lp) => chatName(c, x, lp, false)),
      description: c.str(raw, 'description', p, 1, 100, true) ?? '',
      description_localizations: localizations(c, raw, 'description_localizations', p, (x, lp) => strAt(c, x, lp, 1, 100)),
    };
    if (type === OptionType.SUB_COMMAND_GROUP) opt.options = optionList(c, raw.options, [...p, 'options'], 'group') ?? [];
    else if (type === OptionType.SUB_COMMAND) opt.options = optionList(c, raw.options, [...p, 'options'], 'sub') ?? [];
    else if (type !== undefined) {
      const required = c.bool(raw, 'required', p) ?? false;
      if (required && sawOptional) c.add(p, 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
      if (!required) sawOptional = true;
      if (required) opt.required = true;
      valueOption(c, raw, p, type, opt);
    }
    out.push(compact(opt as unknown as Obj) as unknown as CommandOption);
  });
  return out;
}

function valueOption(c: Checker, raw: Obj, p: Path, type: number, opt: CommandOption): void {
  const choicesGiven = Array.isArray(raw.choices) && raw.choices.length > 0;
  if (choicesGiven && !HAS_CHOICES.has(type))
    c.add([...p, 'choices'], 'APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED', 'Choices are only allowed on STRING, INTEGER and NUMBER options.');
  else if (raw.choices != null && HAS_CHOICES.has(type)) {
    const list = c.arr(raw.choices, [...p, 'choices'], 0, 25) ?? [];
    if (list.length) opt.choices = list.map((v, i) => choice(c, v, [...p, 'choices', i], type));
  }
  const autocomplete = c.bool(raw, 'autocomplete', p);
  if (autocomplete) {
    if (!HAS_CHOICES.has(type))
      c.add(
        [...p, 'autocomplete'],
        'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_NOT_ALLOWED',
        'Autocomplete is only allowed on STRING, INTEGER and NUMBER options.',
      );
    else if (choicesGiven)
      c.add([...p, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES_EXCLUSIVE', 'Autocomplete and choices are mutually exclusive.');
    else opt.autocomplete = true;
  }
  if (type === OptionType.INTEGER || type === OptionType.NUMBER) {
    const integer = type === OptionType.INTEGER;
    const min = c.num(raw, 'min_value', p, -MAX_SAFE, MAX_SAFE, false, integer);
    const max = c.num(raw, 'max_value', p, -MAX_SAFE, MAX_SAFE, false, integer);
    if (min !== undefined && max !== undefined && min > max) c.add([...p, 'min_value'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
    opt.min_value = min;
    opt.max_value = max;
  }
  if (type === OptionType.STRING) {
    const min = c.int(raw, 'min_length', p, 0, 6000);
    const max = c.int(raw, 'max_length', p, 1, 6000);
    if (min !== undefined && max !== undefined && min > max) c.add([...p, 'min_length'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
    opt.min_length = min;
    opt.max_length = max;
  }
  if (type === OptionType.CHANNEL && raw.channel_types != null) {
    const list = c.arr(raw.channel_types, [...p, 'channel_types'], 0, CHANNEL_TYPES.length) ?? [];
    opt.channel_types = list.filter((v, i) => {
      if (CHANNEL_TYPES.includes(v as number)) return true;
      c.choices([...p, 'channel_types', i], CHANNEL_TYPES);
      return false;
    }) as number[];
  }
  if (type === OptionType.ATTACHMENT && raw.file_types != null) {
    const list = c.arr(raw.file_types, [...p, 'file_types'], 0, 10) ?? [];
    list.forEach((v, i) => {
      if (typeof v !== 'string' || !FILE_TYPE.test(v))
        c.add([...p, 'file_types', i], 'FILE_UPLOAD_INVALID_FILE_TYPE', 'File types are image, video, audio or a .extension.');
    });
    opt.file_types = list as string[];
  }
}

function choice(c: Checker, v: unknown, p: Path, type: number): OptionChoice {
  const raw = c.obj(v, p) ?? {};
  const name = c.str(raw, 'name', p, 1, 100, true) ?? '';
  const name_localizations = localizations(c, raw, 'name_localizations', p, (x, lp) => strAt(c, x, lp, 1, 100));
  let value: string | number | undefined;
  if (type === OptionType.STRING) value = c.str(raw, 'value', p, 1, 100, true);
  else value = c.num(raw, 'value', p, -MAX_SAFE, MAX_SAFE, true, type === OptionType.INTEGER);
  return compact({ name, name_localizations: name_localizations ?? undefined, value: value ?? '' }) as OptionChoice;
}

/** Characters of names, descriptions and choice values, counting each field's longest localization. */
export function commandSize(d: CommandData): number {
  const longest = (base: string, loc: Localizations | undefined) => Math.max(base.length, ...Object.values(loc ?? {}).map((s) => s.length));
  const option = (o: CommandOption): number =>
    longest(o.name, o.name_localizations) +
    longest(o.description, o.description_localizations) +
    (o.choices ?? []).reduce((n, ch) => n + longest(ch.name, ch.name_localizations) + String(ch.value).length, 0) +
    (o.options ?? []).reduce((n, sub) => n + option(sub), 0);
  return longest(d.name, d.name_localizations) + longest(d.description, d.description_localizations) + d.options.reduce((n, o) => n + option(o), 0);
}
