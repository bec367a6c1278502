/**
 * A small validator for command arguments that reports the first problem in the wording the platform's client uses
 * (its Joi schemas), e.g. `child "activity" fails because [child "type" fails because ["type" must be one of [0, 2, 3, 5]]]`.
 * Values are normalised on the way (numeric strings become numbers, as Joi converts them). Unknown keys pass through.
 */

export type Result<T = unknown> = { ok: true; value: T } | { ok: false; message: string };

export interface Schema {
  check(value: unknown, label: string): Result;
  /** Absent (undefined) is refused with `"x" is required`. */
  required?: boolean;
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const bad = (message: string): Result => ({ ok: false, message });
const q = (label: string) => `"${label}"`;

function isUri(s: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z\d+\-.]*:/.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

export function str(opts: { min?: number; max?: number; uri?: boolean } = {}): Schema {
  return {
    check(v, label) {
      if (typeof v !== 'string') return bad(`${q(label)} must be a string`);
      if (v === '') return bad(`${q(label)} is not allowed to be empty`);
      if (opts.min !== undefined && v.length < opts.min) return bad(`${q(label)} length must be at least ${opts.min} characters long`);
      if (opts.max !== undefined && v.length > opts.max) return bad(`${q(label)} length must be less than or equal to ${opts.max} characters long`);
      if (opts.uri && !isUri(v)) return bad(`${q(label)} must be a valid uri`);
      return ok(v);
    },
  };
}

export function num(opts: { min?: number; max?: number; valid?: number[]; integer?: boolean } = {}): Schema {
  return {
    check(v, label) {
      let n = v;
      if (typeof n === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(n)) n = Number(n);
      if (typeof n !== 'number' || Number.isNaN(n)) return bad(`${q(label)} must be a number`);
      if (!Number.isFinite(n)) return bad(`${q(label)} cannot be infinity`);
      if (opts.valid && !opts.valid.includes(n)) return bad(`${q(label)} must be one of [${opts.valid.join(', ')}]`);
      if (opts.integer && !Number.isInteger(n)) return bad(`${q(label)} must be an integer`);
      if (opts.min !== undefined && n < opts.min) return bad(`${q(label)} must be larger than or equal to ${opts.min}`);
      if (opts.max !== undefined && n > opts.max) return bad(`${q(label)} must be less than or equal to ${opts.max}`);
      return ok(n);
    },
  };
}

export const bool = (): Schema => ({
  check: (v, label) => (typeof v === 'boolean' ? ok(v) : bad(`${q(label)} must be a boolean`)),
});

/** A snowflake-ish id given as a string (the client's schemas say `string()`). */
export const idString = (): Schema => str({ max: 32 });

export function arr(items: Schema, opts: { min?: number; max?: number; length?: number } = {}): Schema {
  return {
    check(v, label) {
      if (!Array.isArray(v)) return bad(`${q(label)} must be an array`);
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) {
        const r = items.check(v[i], String(i));
        if (!r.ok) return bad(`${q(label)} at position ${i} fails because [${r.message}]`);
        out.push(r.value);
      }
      if (opts.length !== undefined && v.length !== opts.length) return bad(`${q(label)} must contain ${opts.length} items`);
      if (opts.min !== undefined && v.length < opts.min) return bad(`${q(label)} must contain at least ${opts.min} items`);
      if (opts.max !== undefined && v.length > opts.max) return bad(`${q(label)} must contain less than or equal to ${opts.max} items`);
      return ok(out);
    },
  };
}

export function obj(keys: Record<string, Schema>, opts: { nullable?: boolean } = {}): Schema {
  return {
    check(v, label) {
      if (v === null && opts.nullable) return ok(null);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return bad(`${q(label)} must be an object`);
      const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      for (const [k, schema] of Object.entries(keys)) {
        const value = (v as Record<string, unknown>)[k];
        if (value === undefined) {
          if (schema.required) return bad(`child ${q(k)} fails because [${q(k)} is required]`);
          continue;
        }
        const r = schema.check(value, k);
        if (!r.ok) return bad(`child ${q(k)} fails because [${r.message}]`);
        out[k] = r.value;
      }
      return ok(out);
    },
  };
}

/** Marks a schema as required (absent is refused). */
export const required = (s: Schema): Schema => ({ ...s, required: true });

/** Accepts null as well. */
export const nullable = (s: Schema): Schema => ({ ...s, check: (v, label) => (v === null ? ok(null) : s.check(v, label)) });

/** Validates command args (absent args count as `{}`), returning the normalised copy. */
export function validateArgs<T = Record<string, unknown>>(schema: Schema, args: unknown): Result<T> {
  return schema.check(args ?? {}, 'value') as Result<T>;
}
