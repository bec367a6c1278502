/**
 * The conformance run: a real server on a temp data dir (or a fresh PostgreSQL schema when DATABASE_URL is set),
 * the seeded world, then every operation of the spec called once and classified:
 *
 * - pass: a declared 2xx status and a body that validates strictly against the official response schema
 *   (204: an empty body);
 * - warn: the same, but the body carries fields the spec does not declare (listed; still counts as passing);
 * - fail: anything else: a non-2xx answer (with the error), a 2xx the spec does not declare for the operation,
 *   a missing required field or a wrong type, or a setup step the operation needs that failed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropSchema } from '../src/store/postgres.js';
import { startServer } from '../src/server.js';
import { loadSpec, type Spec, type SpecOperation } from './spec.js';
import { validate } from './validate.js';
import { DEFAULT_PARAMS, FIXTURES, defaultAuth, type Request } from './fixtures.js';
import { Harness, SetupError, buildWorld, extendWorld, short, type Response } from './world.js';
import { allRoutes } from '../src/http/routes/index.js';
import { reviewUndeclared } from './allowed-fields.js';
import { seedLists } from './world-lists.js';
import { PARTIAL } from './partial.js';

/**
 * pass: conforms strictly; warn: conforms apart from reviewed undeclared fields (allowed-fields.ts); partial: conforms,
 * but the route answers partly from constants (listed in partial.ts), so it is never reported as a pass; fail: the rest.
 */
export type Outcome = 'pass' | 'warn' | 'partial' | 'fail';

export interface OperationResult {
  operationId: string;
  method: string;
  path: string;
  primary: boolean;
  /** HTTP status, or null when the call was not made (setup failed). */
  status: number | null;
  outcome: Outcome;
  /** Why it failed, or what the warnings are. */
  why: string;
  warnings: string[];
  failures: string[];
  /** Paths of the empty lists in the answer (nested ones too): their items' shape was not exercised. */
  emptyLists: string[];
  /** Time taken, setup included. */
  ms?: number;
  /** Where the harness's request body departs from the spec's request schema (should stay empty). */
  requestIssues?: string[];
  /** Group for the report: missing-route, shape, status, error, setup. */
  cause: 'ok' | 'missing-route' | 'shape' | 'status' | 'error' | 'setup';
}

export interface ConformanceReport {
  specVersion: string;
  results: OperationResult[];
  passingPrimary: number;
  totalPrimary: number;
  passingAll: number;
  totalAll: number;
  setupProblems: string[];
  durationMs: number;
}

export interface RunOptions {
  /** Print one line per operation. */
  verbose?: boolean;
}

/** Every route that partial.ts lists as answering partly from constants, as `METHOD /path/{}/…`, with its reason. */
export function partialRoutes(): Map<string, string> {
  return new Map(PARTIAL.flatMap((p) => (p.routes ?? []).map((r) => [routeKey(r.split(' ')[0], r.split(' ')[1]), p.why] as const)));
}

export async function runConformance(opts: RunOptions = {}): Promise<ConformanceReport> {
  const started = Date.now();
  const spec = await loadSpec();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-conformance-'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const databaseSchema = databaseUrl ? `conf_${Date.now()}_${crypto.randomBytes(3).toString('hex')}` : undefined;
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, rateLimits: false, dev: true, logLevel: 'silent', databaseUrl, databaseSchema });
  let h: Harness | null = null;
  try {
    h = await buildWorld(server);
    await extendWorld(h);
    await seedLists(h);
    const results = await runAll(h, spec, opts);
    const primary = results.filter((r) => r.primary);
    const passing = (rs: OperationResult[]) => rs.filter((r) => r.outcome !== 'fail').length;
    return {
      specVersion: spec.version,
      results,
      passingPrimary: passing(primary),
      totalPrimary: primary.length,
      passingAll: passing(results),
      totalAll: results.length,
      setupProblems: h.setupProblems,
      durationMs: Date.now() - started,
    };
  } finally {
    await h?.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl && databaseSchema) {
      await dropSchema(databaseUrl, databaseSchema);
    }
  }
}

/** Fixture order first (ordinary, then late), then any operation the table does not know, in spec order. */
export function runOrder(spec: Spec): SpecOperation[] {
  const byId = new Map(spec.operations.map((o) => [o.operationId, o]));
  const ids = Object.keys(FIXTURES);
  const unknownFixtures = ids.filter((id) => !byId.has(id));
  if (unknownFixtures.length) throw new Error(`fixtures for operations the spec does not have: ${unknownFixtures.join(', ')}`);
  const early = ids.filter((id) => !FIXTURES[id].late);
  const late = ids.filter((id) => FIXTURES[id].late);
  const rest = spec.operations.map((o) => o.operationId).filter((id) => !(id in FIXTURES));
  return [...early, ...rest, ...late].map((id) => byId.get(id)!);
}

/** `METHOD /path/{}/…` of every route the server registers (parameter names erased). */
export function implementedRoutes(): Set<string> {
  return new Set(allRoutes().map((r) => routeKey(r.method, r.path)));
}

export const routeKey = (method: string, p: string) => `${method.toUpperCase()} ${p.replace(/\{\w+\}/g, '{}')}`;

async function runAll(h: Harness, spec: Spec, opts: RunOptions): Promise<OperationResult[]> {
  const results: OperationResult[] = [];
  const implemented = implementedRoutes();
  for (const op of runOrder(spec)) {
    const t0 = Date.now();
    const r = await runOne(h, op, implemented);
    r.ms = Date.now() - t0;
    results.push(r);
    if (opts.verbose)
      console.log(
        `${r.outcome.padEnd(4)} ${String(r.status ?? '---')} ${String(r.ms).padStart(5)}ms ${op.method.toUpperCase().padEnd(6)} ${op.path}  ${op.operationId}${r.why ? `  — ${r.why}` : ''}${r.requestIssues ? `  [request: ${r.requestIssues.join('; ')}]` : ''}`,
      );
  }
  // Report in spec order.
  const index = new Map(spec.operations.map((o, i) => [o.operationId, i]));
  return results.sort((a, b) => index.get(a.operationId)! - index.get(b.operationId)!);
}

export async function runOne(h: Harness, op: SpecOperation, implemented: Set<string>): Promise<OperationResult> {
  const base = { operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, primary: op.primary };
  const fixture = FIXTURES[op.operationId] ?? {};
  // Routes are looked up in the server's own table so a 404 from a missing route is never confused with a 404 from
  // a missing resource. (The call is still made: a route registered outside the table would answer.)
  const registered = implemented.has(routeKey(op.method, op.path));
  const missing = (status: number | null): OperationResult => {
    const why = `route not implemented${status ? ` (${status})` : ''}`;
    return { ...base, status, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'missing-route' };
  };
  let req: Request;
  let url: string;
  try {
    req = (await fixture.build?.(h)) ?? {};
    url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = req.params?.[name] ?? (DEFAULT_PARAMS[name] ? h.need(DEFAULT_PARAMS[name]) : undefined);
      if (v === undefined) throw new SetupError(`no value for path parameter {${name}}`);
      return encodeURIComponent(v);
    });
  } catch (e) {
    if (!registered) return missing(null);
    const why = e instanceof SetupError ? e.message : `harness error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    return { ...base, status: null, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'setup' };
  }
  // The harness's own request must be valid for the spec (checked strictly, like the answers).
  let requestIssues: string[] | undefined;
  if (op.requestSchema && req.body !== undefined && !(req.body instanceof FormData)) {
    const v = validate(op.requestSchema, req.body);
    if (v.failures.length || v.warnings.length) requestIssues = [...v.failures, ...v.warnings.map((w) => `${w}: not in the request schema`)];
  }
  const res = await h.call(op.method, url, { auth: req.auth ?? defaultAuth(op.security), query: req.query, body: req.body, headers: req.headers });
  const result = !registered && (res.status === 404 || res.status === 405) ? missing(res.status) : judge(base, op, res);
  const partial = partialRoutes().get(routeKey(op.method, op.path));
  if (partial && result.outcome !== 'fail') Object.assign(result, { outcome: 'partial', why: [`partial: ${partial}`, result.why].filter(Boolean).join('; ') });
  // A 2xx created the resource even when its shape is wrong: later operations still get to use it.
  if (res.status >= 200 && res.status < 300) fixture.after?.(h, res);
  if (requestIssues) result.requestIssues = requestIssues;
  return result;
}

type Base = Pick<OperationResult, 'operationId' | 'method' | 'path' | 'primary'>;

/**
 * The verdict on one answer: status, then the body against the operation's schema. Undeclared fields pass only when
 * the reviewed allow-list covers them (else the operation fails); empty lists anywhere in the body are recorded.
 */
export function judge(base: Base, op: SpecOperation, res: Response): OperationResult {
  const r = classify(base, op, res);
  if (r.outcome === 'fail' || !r.warnings.length) return r;
  const { unreviewed } = reviewUndeclared(res.isJson ? res.json : undefined, r.warnings);
  if (!unreviewed.length) return r;
  const why = `undeclared fields not in the reviewed allow-list: ${unreviewed.join(', ')}`;
  return { ...r, outcome: 'fail', why, failures: [why], cause: 'shape' };
}

/** Paths of every empty list in a body (`(body)` for an empty top-level list), indices collapsed. */
export function emptyLists(v: unknown, at = ''): string[] {
  if (Array.isArray(v)) {
    if (!v.length) return [at || '(body)'];
    return [...new Set(v.flatMap((x) => emptyLists(x, `${at}[]`)))];
  }
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => emptyLists(x, at ? `${at}.${k}` : k));
  return [];
}

function classify(base: Pick<OperationResult, 'operationId' | 'method' | 'path' | 'primary'>, op: SpecOperation, res: Response): OperationResult {
  const status = res.status;
  if (status < 200 || status > 299) {
    const body = res.isJson ? (res.json as any) : null;
    const code = body && typeof body === 'object' ? body.code : undefined;
    const message = body && typeof body === 'object' ? body.message : short(res.text, 80);
    const detail = body?.errors ? ` ${short(JSON.stringify(body.errors), 200)}` : '';
    const why = `${status}${code !== undefined ? ` ${code}` : ''} ${message ?? ''}${detail}`.trim();
    return { ...base, status, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'error' };
  }
  if (!op.success.has(status)) {
    const declared = [...op.success.keys()].join('/');
    const why = `status ${status}, the spec declares ${declared}`;
    return { ...base, status, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'status' };
  }
  const schema = op.success.get(status)!;
  if (schema === null) {
    if (res.text.length === 0) return { ...base, status, outcome: 'pass', why: '', warnings: [], failures: [], emptyLists: [], cause: 'ok' };
    const why = `status ${status} must have an empty body, got ${short(res.text, 80)}`;
    return { ...base, status, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'shape' };
  }
  let body: unknown;
  if (res.isJson) body = res.json;
  else if (op.successTypes.get(status) === 'string' || op.successTypes.get(status) === 'string | null') body = res.text;
  else {
    const why = `expected a JSON body (${op.successTypes.get(status)}), got ${res.contentType || 'no content type'}: ${short(res.text, 80)}`;
    return { ...base, status, outcome: 'fail', why, warnings: [], failures: [why], emptyLists: [], cause: 'shape' };
  }
  const v = validate(schema, body);
  const empty = emptyLists(body);
  if (v.failures.length) {
    return {
      ...base,
      status,
      outcome: 'fail',
      why: v.failures.slice(0, 6).join('; ') + (v.failures.length > 6 ? `; … (${v.failures.length} in all)` : ''),
      warnings: v.warnings,
      failures: v.failures,
      emptyLists: empty,
      cause: 'shape',
    };
  }
  // Empty lists validate trivially: say so, since their items' shape was not exercised.
  const emptyWhy = empty.length ? `empty lists (items not exercised): ${empty.join(', ')}` : '';
  if (v.warnings.length)
    return {
      ...base,
      status,
      outcome: 'warn',
      why: [`undeclared fields: ${v.warnings.join(', ')}`, emptyWhy].filter(Boolean).join('; '),
      warnings: v.warnings,
      failures: [],
      emptyLists: empty,
      cause: 'ok',
    };
  return { ...base, status, outcome: 'pass', why: emptyWhy, warnings: [], failures: [], emptyLists: empty, cause: 'ok' };
}
