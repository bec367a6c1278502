import { formError } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { short } from '../../../core/validation.js';

/** A path into the request body, as the 50035 tree spells it. */
export type Path = (string | number)[];
export type Obj = Record<string, unknown>;

export interface Leaf {
  path: Path;
  code: string;
  message: string;
}

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Collects every broken rule of one request body, then throws them at once as a 50035 tree. Each reader treats
 * `null` as absent, records a leaf at the offending field and returns `undefined` when the value is unusable.
 */
export class Checker {
  readonly leaves: Leaf[] = [];

  add(path: Path, code: string, message: string): void {
    this.leaves.push({ path: [...path], code, message });
  }

  required(path: Path): void {
    this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
  }

  /** Records a length error in the platform's wording: a range when the minimum is above 0. */
  length(path: Path, min: number, max: number): void {
    if (min > 0) this.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    else this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  }

  choices(path: Path, values: readonly (number | string)[]): void {
    this.add(path, 'BASE_TYPE_CHOICES', `Value must be one of (${values.join(', ')}).`);
  }

  /** The component `type` does not fit where it stands. */
  unionType(path: Path, allowed: readonly number[]): void {
    this.add(path, 'UNION_TYPE_CHOICES', `Value of field "type" must be one of (${allowed.join(', ')}).`);
  }

  get failed(): boolean {
    return this.leaves.length > 0;
  }

  throwIfAny(): void {
    if (this.leaves.length) throw formError(this.leaves);
  }

  obj(v: unknown, path: Path): Obj | undefined {
    if (isObj(v)) return v;
    if (v == null) this.required(path);
    else this.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return undefined;
  }

  /** An array whose length is within min..max; too long or short still returns it so items get checked. */
  arr(v: unknown, path: Path, min: number, max: number, required = true): unknown[] | undefined {
    if (v == null) {
      if (required) this.required(path);
      return undefined;
    }
    if (!Array.isArray(v)) {
      this.add(path, 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType');
      return undefined;
    }
    if (v.length < min || v.length > max) this.length(path, min, max);
    return v;
  }

  str(o: Obj, key: string, path: Path, min: number, max: number, required = false): string | undefined {
    const v = o[key];
    const p = [...path, key];
    if (v == null) {
      if (required) this.required(p);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.add(p, 'BASE_TYPE_STRING', `Could not interpret "${short(v)}" as string.`);
      return undefined;
    }
    if ([...v].length < min || [...v].length > max) {
      this.length(p, min, max);
      return undefined;
    }
    return v;
  }

  int(o: Obj, key: string, path: Path, min: number, max: number, required = false): number | undefined {
    return this.num(o, key, path, min, max, required, true);
  }

  num(o: Obj, key: string, path: Path, min: number, max: number, required = false, integer = false): number | undefined {
    const v = o[key];
    const p = [...path, key];
    if (v == null) {
      if (required) this.required(p);
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
      this.add(p, 'NUMBER_TYPE_COERCE', `Value "${short(v)}" is not ${integer ? 'int' : 'a valid number'}.`);
      return undefined;
    }
    if (v < min) {
      this.add(p, 'NUMBER_TYPE_MIN', `Value should be greater than or equal to ${min}.`);
      return undefined;
    }
    if (v > max) {
      this.add(p, 'NUMBER_TYPE_MAX', `Value should be less than or equal to ${max}.`);
      return undefined;
    }
    return v;
  }

  bool(o: Obj, key: string, path: Path): boolean | undefined {
    const v = o[key];
    if (v == null) return undefined;
    if (typeof v !== 'boolean') {
      this.add([...path, key], 'BOOLEAN_TYPE_COERCE', `Value "${short(v)}" is not a valid boolean.`);
      return undefined;
    }
    return v;
  }

  /** One of a fixed set of integers. */
  oneOf<T extends number | string>(o: Obj, key: string, path: Path, values: readonly T[], required = false): T | undefined {
    const v = o[key];
    const p = [...path, key];
    if (v == null) {
      if (required) this.required(p);
      return undefined;
    }
    if (!values.includes(v as T)) {
      this.choices(p, values);
      return undefined;
    }
    return v as T;
  }

  snowflakeValue(v: unknown, path: Path): string | undefined {
    const s = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v;
    if (typeof s === 'string' && isId(s)) return s;
    this.add(path, 'NUMBER_TYPE_COERCE', `Value "${short(v)}" is not snowflake.`);
    return undefined;
  }

  snowflake(o: Obj, key: string, path: Path, required = false): string | undefined {
    const v = o[key];
    if (v == null) {
      if (required) this.required([...path, key]);
      return undefined;
    }
    return this.snowflakeValue(v, [...path, key]);
  }
}

/** Copies the keys whose values are defined, so normalized objects carry no `undefined`. */
export function compact<T extends Obj>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
