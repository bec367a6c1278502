import { z } from 'zod';
import { formError, type ApiError } from './errors.js';
import { isId } from './ids.js';

/** Runs a zod schema and turns its issues into the platform's 50035 tree. Unknown keys are stripped, not refused. */
export function parseBody<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw toFormError(r.error.issues, input);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: any = input;
  for (const k of path) {
    if (v == null || typeof v !== 'object') return undefined;
    v = v[k as any];
  }
  return v;
}

export function toFormError(issues: z.core.$ZodIssue[], input: unknown): ApiError {
  return formError(
    issues.map((i) => {
      const path = i.path.map((p) => (typeof p === 'symbol' ? String(p.description) : p));
      return { path, ...describe(i, valueAt(input, i.path)) };
    }),
  );
}

const NUMERIC = new Set(['number', 'int', 'bigint']);

function describe(i: z.core.$ZodIssue, value: unknown): { code: string; message: string } {
  switch (i.code) {
    case 'invalid_type':
      if (value === undefined) return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      if (i.expected === 'object' || i.expected === 'record') return { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' };
      if (i.expected === 'array') return { code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' };
      if (i.expected === 'number' || i.expected === 'int' || i.expected === 'bigint')
        return { code: 'NUMBER_TYPE_COERCE', message: `Value "${short(value)}" is not int.` };
      if (i.expected === 'boolean') return { code: 'BOOLEAN_TYPE_COERCE', message: `Value "${short(value)}" is not a valid boolean.` };
      return { code: 'BASE_TYPE_STRING', message: `Could not interpret "${short(value)}" as string.` };
    case 'too_big':
      if (NUMERIC.has(String(i.origin))) return { code: 'NUMBER_TYPE_MAX', message: `Value should be less than or equal to ${i.maximum}.` };
      return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${i.maximum} or fewer in length.` };
    case 'too_small':
      if (NUMERIC.has(String(i.origin))) return { code: 'NUMBER_TYPE_MIN', message: `Value should be greater than or equal to ${i.minimum}.` };
      return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${i.minimum} or more in length.` };
    case 'invalid_value':
      return { code: 'BASE_TYPE_CHOICES', message: `Value must be one of (${i.values.map((v) => String(v)).join(', ')}).` };
    case 'invalid_format':
      return { code: i.format === 'regex' ? 'REGEX_VALIDATE' : 'BASE_TYPE_INVALID', message: i.message || 'Invalid value.' };
    case 'custom':
      return { code: (i.params as any)?.code ?? 'BASE_TYPE_INVALID', message: i.message };
    default:
      return { code: 'BASE_TYPE_INVALID', message: i.message };
  }
}

/** The invalid value as the message quotes it: at most 50 characters, and never a walk of the whole value. */
export function short(v: unknown, max = 50): string {
  const s = preview(v, max + 1, 4);
  return s.length > max ? s.slice(0, max) + '…' : s;
}

/** A JSON-like rendering that stops once `budget` characters are written or `depth` levels are entered. */
function preview(v: unknown, budget: number, depth: number): string {
  if (typeof v === 'string') return v.slice(0, budget);
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v));
  if (depth <= 0) return Array.isArray(v) ? '[…]' : '{…}';
  const arr = Array.isArray(v);
  let out = arr ? '[' : '{';
  let n = 0;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    if (out.length >= budget) return out;
    if (n++) out += ',';
    const item = (v as any)[k];
    out += arr ? '' : JSON.stringify(k.slice(0, budget)) + ':';
    out += typeof item === 'string' ? JSON.stringify(item.slice(0, budget)) : preview(item, budget - out.length, depth - 1);
  }
  return out + (arr ? ']' : '}');
}

/** Reusable field schemas. */
export const snowflake = z.preprocess(
  (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v),
  z
    .string()
    .regex(/^\d{1,20}$/, { message: 'Value is not snowflake.' })
    // Ids are signed 64-bit: a larger one would reach the database (PostgreSQL refuses it) instead of the caller.
    .refine(isId, { message: 'snowflake value should be less than or equal to 9223372036854775807.', params: { code: 'NUMBER_TYPE_MAX' } }),
);
export const permissionString = z.preprocess(
  (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v),
  z.string().regex(/^\d{1,20}$/, { message: 'Value is not a valid permission bitfield.' }),
);
export const nullableString = (max: number) => z.string().max(max).nullable();

/** Query strings: booleans accept True/true/1, numbers are coerced. */
export const qBool = z.preprocess((v) => (v === undefined ? undefined : ['true', 'True', '1'].includes(String(v))), z.boolean().optional());
export const qInt = (min: number, max: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(min).max(max).optional());

/**
 * Refuses strings containing U+0000 anywhere in a body or query: PostgreSQL cannot store them, and no platform field
 * accepts them. Runs once per request, before any route logic.
 */
export function assertNoNul(input: unknown, root: (string | number)[] = []): void {
  const leaves: NulLeaf[] = [];
  walkForNul(input, [...root], 0, leaves);
  if (leaves.length) throw formError(leaves);
}

interface NulLeaf {
  path: (string | number)[];
  code: string;
  message: string;
}

// One path array, pushed and popped, copied only for a leaf found: the walk runs on every request's body.
function walkForNul(v: unknown, path: (string | number)[], depth: number, leaves: NulLeaf[]): void {
  if (depth > 32 || leaves.length >= 10) return;
  if (typeof v === 'string') {
    if (v.includes('\u0000')) leaves.push({ path: [...path], code: 'STRING_TYPE_INVALID_CHARACTERS', message: 'String contains invalid characters.' });
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      walkForNul(v[i], path, depth + 1, leaves);
      path.pop();
    }
  } else if (v && typeof v === 'object') {
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (k.includes('\u0000')) {
        leaves.push({ path: [...path], code: 'STRING_TYPE_INVALID_CHARACTERS', message: 'Key contains invalid characters.' });
        continue;
      }
      path.push(k);
      walkForNul((v as Record<string, unknown>)[k], path, depth + 1, leaves);
      path.pop();
    }
  }
}
