import type { AttachmentRecord } from '../../../store/records.js';
import type { CommandOption } from '../commands/types.js';
import { Checker, isObj, type Path } from '../components/check.js';
import type { Resolved } from './resolve.js';

/**
 * The options of an invoked command, checked against its definition and resolved: USER / CHANNEL / ROLE /
 * MENTIONABLE / ATTACHMENT values become entries of `data.resolved`. Autocomplete takes partial values and needs
 * exactly one option with `focused: true`.
 */

const T = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export interface OptionContext {
  c: Checker;
  resolved: Resolved;
  autocomplete: boolean;
  /** Uploaded attachments by the request's attachment id (`data.attachments[].id`). */
  attachments: Map<string, AttachmentRecord>;
  focused: number;
  /** Subcommand path, for the full command name. */
  names: string[];
}

export type OptionOut = { name: string; type: number; value?: string | number | boolean; options?: OptionOut[]; focused?: boolean };

export async function readOptions(defs: CommandOption[], given: unknown, path: Path, oc: OptionContext): Promise<OptionOut[]> {
  const { c } = oc;
  const list = given == null ? [] : c.arr(given, path, 0, 25);
  if (!list) return [];
  const out: OptionOut[] = [];
  const seen = new Set<string>();
  const isGroupLevel = defs.some((d) => d.type === T.SUB_COMMAND || d.type === T.SUB_COMMAND_GROUP);
  for (const [i, raw] of list.entries()) {
    const p = [...path, i];
    if (!isObj(raw)) {
      c.add(p, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      continue;
    }
    const name = raw.name;
    const def = typeof name === 'string' ? defs.find((d) => d.name === name) : undefined;
    if (!def) {
      c.add([...p, 'name'], 'APPLICATION_COMMAND_OPTION_UNKNOWN', 'Unknown option.');
      continue;
    }
    if (seen.has(def.name)) {
      c.add([...p, 'name'], 'APPLICATION_COMMAND_OPTION_DUPLICATED', 'Option given twice.');
      continue;
    }
    seen.add(def.name);
    if (raw.type != null && raw.type !== def.type) {
      c.add([...p, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', `Option "${def.name}" is of type ${def.type}.`);
      continue;
    }
    if (def.type === T.SUB_COMMAND || def.type === T.SUB_COMMAND_GROUP) {
      oc.names.push(def.name);
      out.push({ name: def.name, type: def.type, options: await readOptions(def.options ?? [], raw.options, [...p, 'options'], oc) });
      continue;
    }
    const item: OptionOut = { name: def.name, type: def.type };
    if (oc.autocomplete && raw.focused === true) {
      oc.focused++;
      if (!def.autocomplete) c.add([...p, 'focused'], 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_DISABLED', 'This option does not use autocomplete.');
      const v = raw.value;
      if (typeof v !== 'string' && typeof v !== 'number') c.add([...p, 'value'], 'BASE_TYPE_STRING', 'The focused value must be a string or a number.');
      item.value = typeof v === 'number' ? v : String(v ?? '');
      item.focused = true;
      out.push(item);
      continue;
    }
    const value = await readValue(def, raw.value, [...p, 'value'], oc);
    if (value !== undefined) item.value = value;
    out.push(item);
  }
  if (isGroupLevel) {
    if (defs.length && out.length !== 1) c.add(path, 'APPLICATION_COMMAND_SUBCOMMAND_REQUIRED', 'Exactly one subcommand or subcommand group must be given.');
  } else if (!oc.autocomplete) {
    for (const d of defs) if (d.required && !seen.has(d.name)) c.add([...path], 'APPLICATION_COMMAND_OPTION_REQUIRED', `Option "${d.name}" is required.`);
  }
  return out;
}

async function readValue(def: CommandOption, v: unknown, p: Path, oc: OptionContext): Promise<string | number | boolean | undefined> {
  const { c, resolved } = oc;
  if (v == null) {
    c.required(p);
    return undefined;
  }
  const choices = def.choices?.length ? def.choices.map((x) => x.value) : null;
  const inChoices = (x: string | number) => {
    if (choices && !choices.includes(x)) {
      c.choices(p, choices);
      return false;
    }
    return true;
  };
  switch (def.type) {
    case T.STRING: {
      if (typeof v !== 'string') return void c.add(p, 'BASE_TYPE_STRING', 'Could not interpret the value as string.');
      const len = [...v].length;
      if (len < (def.min_length ?? 0) || len > (def.max_length ?? 6000)) return void c.length(p, def.min_length ?? 0, def.max_length ?? 6000);
      return inChoices(v) ? v : undefined;
    }
    case T.INTEGER:
    case T.NUMBER: {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n) || (def.type === T.INTEGER && !Number.isInteger(n))) {
        return void c.add(p, 'NUMBER_TYPE_COERCE', `Value is not ${def.type === T.INTEGER ? 'int' : 'a valid number'}.`);
      }
      const min = def.min_value ?? -MAX_SAFE;
      const max = def.max_value ?? MAX_SAFE;
      if (n < min) return void c.add(p, 'NUMBER_TYPE_MIN', `Value should be greater than or equal to ${min}.`);
      if (n > max) return void c.add(p, 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
      return inChoices(n) ? n : undefined;
    }
    case T.BOOLEAN:
      if (typeof v !== 'boolean') return void c.add(p, 'BOOLEAN_TYPE_COERCE', 'Value is not a valid boolean.');
      return v;
    case T.USER:
    case T.CHANNEL:
    case T.ROLE:
    case T.MENTIONABLE: {
      const id = c.snowflakeValue(v, p);
      if (!id) return undefined;
      const ok =
        def.type === T.USER
          ? await resolved.user(id)
          : def.type === T.ROLE
            ? await resolved.role(id)
            : def.type === T.CHANNEL
              ? await resolved.channel(id, def.channel_types)
              : await resolved.mentionable(id);
      if (!ok) return void c.add(p, 'APPLICATION_COMMAND_OPTION_INVALID_VALUE', 'Unknown or unusable entity.');
      return id;
    }
    case T.ATTACHMENT: {
      const a = oc.attachments.get(String(v));
      if (!a) return void c.add(p, 'ATTACHMENT_NOT_FOUND', 'Unknown attachment or file reference.');
      if (def.file_types?.length && !fileTypeAllowed(a, def.file_types)) return void c.add(p, 'ATTACHMENT_FILE_TYPE_INVALID', 'This file type is not allowed.');
      resolved.attachment(a);
      return a.id;
    }
    default:
      return void c.add(p, 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Unsupported option type.');
  }
}

/** `image` / `video` / `audio` by content type, `.ext` by extension. */
function fileTypeAllowed(a: AttachmentRecord, types: string[]): boolean {
  const ext = /\.([^.]+)$/.exec(a.filename)?.[1]?.toLowerCase();
  return types.some((t) => (t.startsWith('.') ? ext === t.slice(1).toLowerCase() : a.content_type?.startsWith(`${t}/`)));
}
