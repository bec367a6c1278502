/**
 * Strict validation against a spec schema, split into failures and warnings:
 * - a field the spec does not declare (`unrecognized_keys` from a strict object) is a WARNING;
 * - everything else (missing required field, wrong type, value outside an enum, bad format) is a FAILURE.
 * Unions are resolved the way a reader would: the member with the fewest failures wins, so a response that matches
 * one member apart from extra fields passes with warnings, and one that matches none reports its closest member.
 */
import type { Schema } from './spec.js';

export interface Verdict {
  failures: string[];
  warnings: string[];
}

interface Issue {
  code: string;
  path?: PropertyKey[];
  message?: string;
  keys?: string[];
  errors?: Issue[][];
  issues?: Issue[];
  expected?: string;
  input?: unknown;
}

export function validate(schema: Schema, value: unknown): Verdict {
  const r = (schema as unknown as { safeParse(v: unknown, p: { reportInput: boolean }): { success: boolean; error?: { issues: Issue[] } } }).safeParse(value, {
    reportInput: true,
  });
  if (r.success) return { failures: [], warnings: [] };
  const v = classify(r.error!.issues, []);
  return { failures: dedupe(v.failures), warnings: dedupe(v.warnings) };
}

function classify(issues: Issue[], base: PropertyKey[]): Verdict {
  const out: Verdict = { failures: [], warnings: [] };
  for (const iss of issues) {
    const at = [...base, ...(iss.path ?? [])];
    if (iss.code === 'unrecognized_keys') {
      for (const k of iss.keys ?? []) out.warnings.push(fmt([...at, k]));
    } else if (iss.code === 'invalid_union' && iss.errors?.length) {
      // A member whose literal tag (`type: 1` and the like) differs is the wrong member, not a near miss.
      const branches = iss.errors.map((b) => ({ ...classify(b, at), wrongTag: b.some((x) => x.code === 'invalid_value' && (x.path?.length ?? 0) === 1) }));
      branches.sort((a, b) => Number(a.wrongTag) - Number(b.wrongTag) || a.failures.length - b.failures.length || a.warnings.length - b.warnings.length);
      const best = branches[0];
      if (best.failures.length === 0) out.warnings.push(...best.warnings);
      else if (iss.errors.length > 1) out.failures.push(`${fmt(at)}: no member of the union matches; closest: ${best.failures.slice(0, 4).join('; ')}`);
      else out.failures.push(...best.failures);
    } else {
      out.failures.push(`${fmt(at)}: ${describe(iss)}`);
    }
  }
  return out;
}

function describe(iss: Issue): string {
  if (iss.input === undefined && (iss.code === 'invalid_type' || iss.code === 'invalid_value')) {
    return `required field missing (expected ${iss.expected ?? (iss.message ?? '').replace(/^Invalid (input|option): expected /, '')})`;
  }
  if (iss.code === 'invalid_type') {
    return `expected ${iss.expected}, got ${typeOf(iss.input)}${preview(iss.input)}`;
  }
  if (iss.code === 'invalid_value') return `${iss.message ?? 'invalid value'}${preview(iss.input)}`;
  return `${iss.code}: ${iss.message ?? ''}${preview(iss.input)}`;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function preview(v: unknown): string {
  if (v === undefined || (typeof v === 'object' && v !== null)) return '';
  const s = JSON.stringify(v);
  return ` (${s.length > 40 ? `${s.slice(0, 40)}…` : s})`;
}

/** `a.b[0].c` with array indices collapsed to `[]`, so one defect repeated over a list is reported once. */
function fmt(p: PropertyKey[]): string {
  let s = '';
  for (const k of p) s += typeof k === 'number' ? '[]' : s ? `.${String(k)}` : String(k);
  return s || '(body)';
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}
