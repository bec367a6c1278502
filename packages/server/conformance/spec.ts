/**
 * The official spec as an oracle: every operation of the npm package `discord-api-spec` with its success statuses, its
 * response schemas (zod, strict objects, known defects patched) and its security requirements.
 *
 * How operations are mapped to schemas. The package ships three things: `pathsList` (method → path templates, no
 * operation ids, no schemas), `discord-api-spec/zod` (one `<Name>Schema` per component schema, nothing per operation)
 * and the TypeScript declaration `build/discord-api-spec.ts`, whose `interface Paths` is the only place that keeps the
 * per-operation data of openapi.json: for every path and method a `responses` object keyed by status, each member
 * commented `/** <status> response for <operationId> *\/` and typed with the component's TypeScript name, an array or a
 * union of them, or an inline type (`string`, `{ [key: string]: number }`, `unknown` for 204). This module parses that
 * interface with the TypeScript compiler API and turns each response type into a zod schema: a type reference `Foo`
 * becomes the package's `FooSchema`, `T[]` an array, `A | B` a union, `null` nullable, inline object types strict
 * objects. `pathsList` is cross-checked against the parsed interface so the two can never drift apart silently.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import * as z from 'zod/mini';
import { pathsList } from 'discord-api-spec';
import { SPEC_PATCHES, applyPatches } from './patches.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Schema = z.ZodMiniType;

export interface SpecOperation {
  method: Method;
  path: string;
  operationId: string;
  /** Declared 2xx statuses with their schema; null means "no body" (the spec's `unknown` for 204). */
  success: Map<number, Schema | null>;
  /** Source text of the 2xx types, for the report. */
  successTypes: Map<number, string>;
  /** Auth alternatives from `security`: 'none', 'bot', or a bearer token with these scopes. */
  security: ({ kind: 'none' } | { kind: 'bot' } | { kind: 'bearer'; scopes: string[] })[];
  /** Source text of the request body type, when the operation has one. */
  requestType: string | null;
  /** The request body schema (used to check that the harness's own fixtures are valid requests). */
  requestSchema: Schema | null;
  /** True for the 242 operations of openapi.json @74fda0f; false for the four newer invite target-user routes. */
  primary: boolean;
}

/** Operations the npm package (10.0.266135) has on top of openapi.json @74fda0f (see http-routes.md). */
export const NEWER_THAN_PRIMARY = new Set([
  'add_invite_target_user',
  'remove_invite_target_user',
  'bulk_add_invite_target_users',
  'bulk_remove_invite_target_users',
]);

export interface Spec {
  operations: SpecOperation[];
  /** The patched zod module: `<Name>Schema` exports. */
  schemas: Record<string, unknown>;
  schema(name: string): Schema;
  version: string;
}

const METHODS: Method[] = ['get', 'put', 'post', 'delete', 'patch'];

function packageBuildDir(): string {
  return path.dirname(fileURLToPath(import.meta.resolve('discord-api-spec')));
}

let cached: Promise<Spec> | null = null;

/** Loads (once per process) the operations and the patched, strict zod schemas. */
export function loadSpec(): Promise<Spec> {
  cached ??= load();
  return cached;
}

async function load(): Promise<Spec> {
  const buildDir = packageBuildDir();
  const pkg = JSON.parse(fs.readFileSync(path.join(buildDir, '..', 'package.json'), 'utf8')) as { version: string };
  const schemas = await importPatchedZod(buildDir);
  const schema = (name: string): Schema => {
    const s = schemas[`${name}Schema`];
    if (!s) throw new Error(`discord-api-spec/zod has no ${name}Schema`);
    return s as Schema;
  };
  const operations = parsePaths(fs.readFileSync(path.join(buildDir, 'discord-api-spec.ts'), 'utf8'), schema);

  // Cross-check with the runtime pathsList.
  const fromList = new Set(METHODS.flatMap((m) => (pathsList as Record<string, readonly string[]>)[m].map((p) => `${m} ${p}`)));
  const fromTypes = new Set(operations.map((o) => `${o.method} ${o.path}`));
  const missing = [...fromList].filter((k) => !fromTypes.has(k));
  const extra = [...fromTypes].filter((k) => !fromList.has(k));
  if (missing.length || extra.length) throw new Error(`pathsList and Paths disagree: missing ${missing.join(', ')}; extra ${extra.join(', ')}`);
  return { operations, schemas, schema, version: pkg.version };
}

/**
 * Writes the package's zod module, patched (patches.ts), to a temp file and imports it. Patching the source is the
 * only way: every schema is built once, at module evaluation, and refers to the others through module-local bindings.
 * Strictness is one of the patches (the package's `setStrictObject(true)` only affects schemas built after the call,
 * and all of them are built at import).
 */
async function importPatchedZod(buildDir: string): Promise<Record<string, unknown>> {
  const source = fs.readFileSync(path.join(buildDir, 'discord-api-spec.zod.js'), 'utf8');
  const patched = applyPatches(source, SPEC_PATCHES).replace(/from "zod\/mini"/g, `from ${JSON.stringify(import.meta.resolve('zod/mini'))}`);
  const hash = crypto.createHash('sha1').update(patched).digest('hex').slice(0, 12);
  const file = path.join(os.tmpdir(), `accord-conformance-spec-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, patched);
    fs.renameSync(tmp, file);
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

function parsePaths(source: string, schema: (name: string) => Schema): SpecOperation[] {
  const sf = ts.createSourceFile('discord-api-spec.ts', source, ts.ScriptTarget.Latest, true);
  const paths = sf.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Paths');
  if (!paths) throw new Error('discord-api-spec.ts has no interface Paths');
  const ops: SpecOperation[] = [];
  for (const member of paths.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) continue;
    const p = propName(member.name);
    for (const m of member.type.members) {
      if (!ts.isPropertySignature(m) || !m.type || !ts.isTypeLiteralNode(m.type)) continue;
      const method = propName(m.name) as Method;
      if (!METHODS.includes(method)) continue;
      ops.push(parseOperation(sf, p, method, m.type, schema));
    }
  }
  return ops;
}

function propName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  throw new Error(`unexpected property name ${name.getText()}`);
}

function member(lit: ts.TypeLiteralNode, name: string): ts.PropertySignature | undefined {
  return lit.members.find((x): x is ts.PropertySignature => ts.isPropertySignature(x) && propName(x.name) === name);
}

function parseOperation(sf: ts.SourceFile, p: string, method: Method, op: ts.TypeLiteralNode, schema: (name: string) => Schema): SpecOperation {
  const responses = member(op, 'responses')?.type;
  if (!responses || !ts.isTypeLiteralNode(responses)) throw new Error(`${method} ${p}: no responses`);
  const success = new Map<number, Schema | null>();
  const successTypes = new Map<number, string>();
  let operationId: string | null = null;
  for (const r of responses.members) {
    if (!ts.isPropertySignature(r) || !r.type) continue;
    const status = propName(r.name);
    if (!/^2\d\d$/.test(status)) continue;
    const comment =
      ts
        .getLeadingCommentRanges(sf.text, r.getFullStart())
        ?.map((c) => sf.text.slice(c.pos, c.end))
        .join('\n') ?? '';
    const id = /\d{3} response for (\w+)/.exec(comment)?.[1];
    if (!id) throw new Error(`${method} ${p} ${status}: no operation id in the comment`);
    if (operationId && operationId !== id) throw new Error(`${method} ${p}: two operation ids ${operationId} / ${id}`);
    operationId = id;
    const isUnknown = r.type.kind === ts.SyntaxKind.UnknownKeyword;
    success.set(Number(status), isUnknown ? null : toZod(r.type, schema));
    successTypes.set(Number(status), r.type.getText().replace(/\s+/g, ' ').replace(/^\| /, ''));
  }
  if (!operationId) throw new Error(`${method} ${p}: no 2xx response`);

  const sec = member(op, 'security')?.type;
  const security: SpecOperation['security'] = [];
  if (sec && ts.isTupleTypeNode(sec)) {
    for (const alt of sec.elements) {
      if (!ts.isTypeLiteralNode(alt)) continue;
      if (alt.members.length === 0) security.push({ kind: 'none' });
      for (const s of alt.members) {
        if (!ts.isPropertySignature(s)) continue;
        const kind = propName(s.name);
        if (kind === 'BotToken') security.push({ kind: 'bot' });
        else if (kind === 'OAuth2') {
          const scopes =
            s.type && ts.isTupleTypeNode(s.type)
              ? s.type.elements.map((e) => (ts.isLiteralTypeNode(e) && ts.isStringLiteral(e.literal) ? e.literal.text : ''))
              : [];
          security.push({ kind: 'bearer', scopes });
        }
      }
    }
  }

  const req = member(op, 'requestBody')?.type;
  const requestType = req && req.kind !== ts.SyntaxKind.UndefinedKeyword ? req.getText().replace(/\s+/g, ' ') : null;
  const requestSchema = req && requestType ? toZod(req, schema) : null;

  return { method, path: p, operationId, success, successTypes, security, requestType, requestSchema, primary: !NEWER_THAN_PRIMARY.has(operationId) };
}

/** A response type of the Paths interface as a zod schema (strict for inline object types too). */
function toZod(node: ts.TypeNode, schema: (name: string) => Schema): Schema {
  if (ts.isParenthesizedTypeNode(node)) return toZod(node.type, schema);
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && !node.typeArguments) {
    const name = node.typeName.text;
    return z.lazy(() => schema(name)) as unknown as Schema;
  }
  if (ts.isArrayTypeNode(node)) return z.array(toZod(node.elementType, schema)) as unknown as Schema;
  if (ts.isUnionTypeNode(node)) {
    const nullable = node.types.some((t) => ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);
    const rest = node.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)).map((t) => toZod(t, schema));
    const inner = rest.length === 1 ? rest[0] : (z.union(rest as [Schema, Schema, ...Schema[]]) as unknown as Schema);
    return nullable ? (z.nullable(inner) as unknown as Schema) : inner;
  }
  if (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword) return z.null() as unknown as Schema;
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return z.string() as unknown as Schema;
    case ts.SyntaxKind.NumberKeyword:
      return z.number() as unknown as Schema;
    case ts.SyntaxKind.BooleanKeyword:
      return z.boolean() as unknown as Schema;
    case ts.SyntaxKind.UnknownKeyword:
      return z.unknown() as unknown as Schema;
  }
  if (ts.isTypeLiteralNode(node)) {
    const index = node.members.find(ts.isIndexSignatureDeclaration);
    if (index) return z.record(z.string(), toZod(index.type, schema)) as unknown as Schema;
    const shape: Record<string, Schema> = {};
    for (const m of node.members) {
      if (!ts.isPropertySignature(m) || !m.type) throw new Error(`unsupported inline member ${m.getText()}`);
      const t = toZod(m.type, schema);
      shape[propName(m.name)] = m.questionToken ? (z.optional(t) as unknown as Schema) : t;
    }
    return z.strictObject(shape) as unknown as Schema;
  }
  throw new Error(`unsupported response type: ${node.getText()}`);
}
