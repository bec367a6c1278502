import { Checker, compact, isObj, type Obj, type Path } from './check.js';
import { Walk, head, readType, select, choiceOptions, componentObj } from './parts.js';
import { C, LIMITS, SELECT_TYPES } from './types.js';

/** A modal as validated: what INTERACTION_MODAL_CREATE carries and what a submit is checked against. */
export interface Modal {
  custom_id: string;
  title: string;
  components: Obj[];
}

const TOP: readonly number[] = [C.LABEL, C.TEXT_DISPLAY, C.ACTION_ROW];
const IN_LABEL: readonly number[] = [C.TEXT_INPUT, ...SELECT_TYPES, C.FILE_UPLOAD, C.RADIO_GROUP, C.CHECKBOX_GROUP, C.CHECKBOX];
const FILE_TYPE = /^(image|video|audio|\.[A-Za-z0-9][A-Za-z0-9_-]{0,15})$/;

/**
 * Validates the `data` of a MODAL callback (type 9): `{custom_id, title, components}` with Labels, Text Displays
 * and (deprecated) Action Rows of Text Inputs at the top level. Returns the modal with numeric ids assigned;
 * throws 50035 with paths under `pathPrefix` (the callback body's `data`).
 */
export function validateModal(data: unknown, pathPrefix: Path = ['data']): Modal {
  const c = new Checker();
  const w = new Walk(c);
  const d = c.obj(data, pathPrefix) ?? {};
  const custom_id = c.str(d, 'custom_id', pathPrefix, 1, LIMITS.customId, true);
  const title = c.str(d, 'title', pathPrefix, 1, LIMITS.modalTitle, true);
  const p = [...pathPrefix, 'components'];
  const list = c.arr(d.components, p, 1, LIMITS.modalComponents) ?? [];
  const components: Obj[] = [];
  list.forEach((v, i) => {
    const n = top(w, v, [...p, i]);
    if (n) components.push(n);
  });
  c.throwIfAny();
  w.assignIds();
  return { custom_id: custom_id!, title: title!, components };
}

function top(w: Walk, v: unknown, path: Path): Obj | undefined {
  const { c } = w;
  const raw = componentObj(c, v, path);
  if (!raw) return undefined;
  const type = readType(c, raw, path);
  if (type === undefined) return undefined;
  if (!TOP.includes(type)) {
    c.unionType(path, TOP);
    return undefined;
  }
  if (type === C.TEXT_DISPLAY) {
    const out = head(w, raw, path, type);
    out.content = c.str(raw, 'content', path, 1, LIMITS.textDisplay, true);
    return compact(out);
  }
  if (type === C.ACTION_ROW) {
    // Deprecated: one Text Input per row, with its own label.
    const out = head(w, raw, path, type);
    const p = [...path, 'components'];
    const items = c.arr(raw.components, p, 1, 1) ?? [];
    if (items.length > 1) c.add(p, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    out.components = items
      .map((x, i) => {
        const ip = [...p, i];
        const child = componentObj(c, x, ip);
        if (!child) return undefined;
        const t = readType(c, child, ip);
        if (t === undefined) return undefined;
        if (t !== C.TEXT_INPUT) {
          c.unionType(ip, [C.TEXT_INPUT]);
          return undefined;
        }
        return textInput(w, child, ip, false);
      })
      .filter(Boolean);
    return out;
  }
  const out = head(w, raw, path, C.LABEL);
  out.label = c.str(raw, 'label', path, 1, LIMITS.labelLabel, true);
  out.description = c.str(raw, 'description', path, 0, LIMITS.labelDescription);
  if (raw.components != null) c.add([...path, 'components'], 'LABEL_COMPONENT_SINGLE_CHILD', 'A Label holds exactly one component, in `component`.');
  const cp = [...path, 'component'];
  if (raw.component == null) {
    c.required(cp);
    return compact(out);
  }
  const child = componentObj(c, raw.component, cp);
  const t = child && readType(c, child, cp);
  if (child && t !== undefined) {
    if (!IN_LABEL.includes(t)) c.unionType(cp, IN_LABEL);
    else out.component = labelChild(w, child, cp, t);
  }
  return compact(out);
}

function labelChild(w: Walk, raw: Obj, path: Path, type: number): Obj {
  const { c } = w;
  switch (type) {
    case C.TEXT_INPUT:
      return textInput(w, raw, path, true);
    case C.FILE_UPLOAD: {
      const out = head(w, raw, path, type);
      out.custom_id = w.customId(raw, path);
      const min = c.int(raw, 'min_values', path, 0, LIMITS.fileUploadValues);
      const max = c.int(raw, 'max_values', path, 1, LIMITS.fileUploadValues);
      if (min !== undefined && min > (max ?? 1)) c.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max ?? 1}.`);
      const required = c.bool(raw, 'required', path);
      if (required !== false && min === 0) c.add([...path, 'min_values'], 'NUMBER_TYPE_MIN', 'Value should be greater than or equal to 1.');
      Object.assign(out, { min_values: min, max_values: max, required });
      if (raw.file_types != null) {
        const fp = [...path, 'file_types'];
        const list = c.arr(raw.file_types, fp, 0, LIMITS.fileTypes) ?? [];
        list.forEach((ft, i) => {
          if (typeof ft !== 'string' || !FILE_TYPE.test(ft))
            c.add([...fp, i], 'FILE_UPLOAD_INVALID_FILE_TYPE', 'File types are image, video, audio or a .extension.');
        });
        out.file_types = list;
      }
      return compact(out);
    }
    case C.RADIO_GROUP: {
      const out = head(w, raw, path, type);
      out.custom_id = w.customId(raw, path);
      const [lo, hi] = LIMITS.radioOptions;
      const list = c.arr(raw.options, [...path, 'options'], lo, hi);
      if (list) {
        out.options = choiceOptions(c, list, [...path, 'options'], { emoji: false });
        if ((out.options as Obj[]).filter((o) => o.default === true).length > 1)
          c.add([...path, 'options'], 'RADIO_GROUP_TOO_MANY_DEFAULTS', 'At most one option may be selected by default.');
      }
      out.required = c.bool(raw, 'required', path);
      return compact(out);
    }
    case C.CHECKBOX_GROUP: {
      const out = head(w, raw, path, type);
      out.custom_id = w.customId(raw, path);
      const [lo, hi] = LIMITS.checkboxOptions;
      const list = c.arr(raw.options, [...path, 'options'], lo, hi);
      if (list) out.options = choiceOptions(c, list, [...path, 'options'], { emoji: false });
      const n = list?.length ?? hi;
      const min = c.int(raw, 'min_values', path, 0, hi);
      const max = c.int(raw, 'max_values', path, 1, hi);
      if (max !== undefined && max > n) c.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${n}.`);
      if (min !== undefined && min > (max ?? n)) c.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max ?? n}.`);
      Object.assign(out, { min_values: min, max_values: max, required: c.bool(raw, 'required', path) });
      return compact(out);
    }
    case C.CHECKBOX: {
      const out = head(w, raw, path, type);
      out.custom_id = w.customId(raw, path);
      out.default = c.bool(raw, 'default', path);
      return compact(out);
    }
    default:
      return select(w, raw, path, type, { modal: true });
  }
}

/** Inside a Label the Label names it, so an own `label` is an error; in a legacy row `label` is required. */
function textInput(w: Walk, raw: Obj, path: Path, inLabel: boolean): Obj {
  const { c } = w;
  const out = head(w, raw, path, C.TEXT_INPUT);
  out.custom_id = w.customId(raw, path);
  out.style = c.oneOf(raw, 'style', path, [1, 2], true);
  if (inLabel) {
    if (raw.label != null) c.add([...path, 'label'], 'TEXT_INPUT_LABEL_NOT_ALLOWED_IN_LABEL', 'A Text Input inside a Label cannot have its own label.');
  } else {
    out.label = c.str(raw, 'label', path, 1, LIMITS.labelLabel, true);
  }
  const max = LIMITS.textInputLength;
  const minLength = c.int(raw, 'min_length', path, 0, max);
  const maxLength = c.int(raw, 'max_length', path, 1, max);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    c.add([...path, 'min_length'], 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${maxLength}.`);
  out.min_length = minLength;
  out.max_length = maxLength;
  out.required = c.bool(raw, 'required', path);
  out.value = c.str(raw, 'value', path, 0, maxLength ?? max);
  out.placeholder = c.str(raw, 'placeholder', path, 0, LIMITS.textInputPlaceholder);
  return compact(out);
}

// ---------------------------------------------------------------------------------------------------------------
// Submissions

/** What a person submitted for one interactive component, by `custom_id`. */
export type SubmittedValue = string | string[] | boolean | null | undefined;
export type SubmittedValues = Record<string, SubmittedValue> | Map<string, SubmittedValue>;

/**
 * Reads a submitted `components` array (the shapes of interactions.md §8, as the official client sends them in
 * `POST /interactions` type 5) into a map custom_id → value (`value` for text inputs, radio groups, checkboxes;
 * `values` for selects, file uploads and checkbox groups). Malformed entries are skipped; `modalSubmitShape`
 * judges what is missing.
 */
export function submittedValues(components: unknown): Map<string, SubmittedValue> {
  const out = new Map<string, SubmittedValue>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isObj(v)) return;
    if (typeof v.custom_id === 'string') {
      if ('values' in v) out.set(v.custom_id, v.values as SubmittedValue);
      else if ('value' in v) out.set(v.custom_id, v.value as SubmittedValue);
    }
    if (v.component !== undefined) visit(v.component);
    if (v.components !== undefined) visit(v.components);
  };
  visit(components);
  return out;
}

/**
 * Builds `data.components` of a MODAL_SUBMIT interaction from a validated modal and what the person entered,
 * checking each value against its component (required, lengths, min/max values, options). Throws 50035 with paths
 * that mirror the modal under `pathPrefix`. Ids of attachments and entities are returned as given; the caller
 * resolves them into `data.resolved`.
 */
export function modalSubmitShape(modal: Modal, userValues: SubmittedValues, pathPrefix: Path = ['data', 'components']): Obj[] {
  const c = new Checker();
  const get = (id: string): SubmittedValue => (userValues instanceof Map ? userValues.get(id) : userValues[id]);
  const out = modal.components.map((comp, i) => {
    const path = [...pathPrefix, i];
    if (comp.type === C.TEXT_DISPLAY) return { type: C.TEXT_DISPLAY, id: comp.id };
    if (comp.type === C.ACTION_ROW) {
      const rows = (comp.components as Obj[]).map((child, j) => submitOne(c, child, get, [...path, 'components', j]));
      return { type: C.ACTION_ROW, id: comp.id, components: rows };
    }
    return { type: C.LABEL, id: comp.id, component: submitOne(c, comp.component as Obj, get, [...path, 'component']) };
  });
  c.throwIfAny();
  return out;
}

function submitOne(c: Checker, comp: Obj, get: (id: string) => SubmittedValue, path: Path): Obj {
  const type = comp.type as number;
  const custom_id = comp.custom_id as string;
  const base = { type, id: comp.id, custom_id };
  const v = get(custom_id);
  const required = comp.required !== false;
  switch (type) {
    case C.TEXT_INPUT: {
      const p = [...path, 'value'];
      if (v != null && typeof v !== 'string') {
        c.add(p, 'BASE_TYPE_STRING', 'Could not interpret the value as string.');
        return { ...base, value: '' };
      }
      const value = v ?? '';
      const len = [...value].length;
      const min = (comp.min_length as number | undefined) ?? 0;
      const max = (comp.max_length as number | undefined) ?? LIMITS.textInputLength;
      if (!len) {
        if (required) c.required(p);
      } else if (len < min || len > max) {
        c.length(p, min, max);
      }
      return { ...base, value };
    }
    case C.RADIO_GROUP: {
      const p = [...path, 'value'];
      if (v != null && typeof v !== 'string') {
        c.add(p, 'BASE_TYPE_STRING', 'Could not interpret the value as string.');
        return { ...base, value: null };
      }
      const allowed = ((comp.options as Obj[] | undefined) ?? []).map((o) => o.value as string);
      if (v == null) {
        if (required) c.required(p);
      } else if (!allowed.includes(v)) {
        c.choices(p, allowed);
      }
      return { ...base, value: v ?? null };
    }
    case C.CHECKBOX: {
      if (v != null && typeof v !== 'boolean') c.add([...path, 'value'], 'BOOLEAN_TYPE_COERCE', 'Value is not a valid boolean.');
      return { ...base, value: typeof v === 'boolean' ? v : false };
    }
    default: {
      // Selects, File Upload and Checkbox Group: `values`.
      const p = [...path, 'values'];
      if (v != null && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) {
        c.add(p, 'LIST_TYPE_CONVERT', 'Only lists of strings may be used here.');
        return { ...base, values: [] };
      }
      const values = (v as string[] | null | undefined) ?? [];
      const [min, max] = valueBounds(comp);
      if (new Set(values).size !== values.length) c.add(p, 'BASE_TYPE_INVALID', 'Values must be unique.');
      if (!values.length) {
        if (required && min > 0) c.required(p);
      } else if (values.length < min || values.length > max) {
        c.add(p, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
      }
      if (type === C.STRING_SELECT || type === C.CHECKBOX_GROUP) {
        const allowed = ((comp.options as Obj[] | undefined) ?? []).map((o) => o.value as string);
        values.forEach((x, i) => {
          if (!allowed.includes(x)) c.choices([...p, i], allowed);
        });
      } else {
        values.forEach((x, i) => c.snowflakeValue(x, [...p, i]));
      }
      return { ...base, values };
    }
  }
}

/** min..max count of values a component accepts, with the platform's defaults. */
function valueBounds(comp: Obj): [number, number] {
  const min = comp.min_values as number | undefined;
  const max = comp.max_values as number | undefined;
  if (comp.type === C.CHECKBOX_GROUP) {
    const n = ((comp.options as unknown[] | undefined) ?? []).length;
    return [min ?? 1, max ?? n];
  }
  return [min ?? 1, max ?? 1];
}
