#!/usr/bin/env node
// Checks the import graph of every package: no cycles (type-only imports count: they are still coupling), layers of
// the server that only point down, storage reached only through the repositories (store/repos/), services grouped in a few documented domains, and packages that do not reach into
// each other's sources. `npm test` runs it (packages/server/test/architecture.test.ts); run it by hand with
// `node scripts/check-architecture.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Server layers, lowest first. A file may import its own layer or a lower one. Top-level names not listed here are
 * reported, so a new folder has to be given its place.
 */
export const SERVER_LAYERS = [
  ['core', 'config.ts'],
  ['store', 'bus', 'wire'],
  ['services'],
  ['http', 'gateway', 'voice', 'dev', 'events-out', 'activities', 'rpc'],
  ['server.ts', 'main.ts', 'workers.ts', 'distributed.ts'],
];
export const MAX_SERVICE_DOMAINS = 15;

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Resolves a relative specifier the way TypeScript with NodeNext does (`./x.js` may name `./x.ts`). */
function resolveRelative(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** Edges among the files under `dir`: file -> [{ target, spec }]; specifiers to packages are kept with target null. */
export function importGraph(dir) {
  const graph = new Map();
  for (const file of walk(dir)) {
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const edges = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      edges.push({ spec, target: spec.startsWith('.') ? resolveRelative(file, spec) : null });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), each a cycle to report. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of graph.get(v) ?? []) {
      if (!w || !graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).some((e) => e.target === v)) cycles.push(comp);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** Server folders above the store: they reach storage only through the repositories (`ctx.repos`), never SQL. */
export const ABOVE_STORE = ['services', 'http', 'gateway', 'voice', 'dev', 'events-out', 'activities', 'rpc'];
const STORAGE_USE = [
  [/from\s+['"]kysely['"]/, 'imports kysely'],
  [/from\s+['"][./]*store\/(schema|db|fixed-sql|group-commit|postgres|sqlite)\.js['"]/, 'imports the store internals'],
  [/\.db\b(?!\w)/, 'uses a query handle (.db)'],
  [/\b(selectFrom|insertInto|updateTable|deleteFrom)\(/, 'builds a query'],
];

/** Files above the store that query the database themselves, as readable lines. */
export function storageViolations(srcDir) {
  const out = [];
  for (const top of ABOVE_STORE) {
    for (const file of walk(path.join(srcDir, top))) {
      const text = fs
        .readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const [re, what] of STORAGE_USE)
        if (re.test(text)) out.push(`${path.relative(srcDir, file)} ${what}: storage goes through ctx.repos (store/repos/)`);
    }
  }
  return out;
}

const layerOf = (srcDir, file) => {
  const top = path.relative(srcDir, file).split(path.sep)[0];
  const i = SERVER_LAYERS.findIndex((names) => names.includes(top));
  return { top, layer: i };
};

/** Every problem found under the repository root, as readable lines (empty when the architecture holds). */
export function checkRepository(root) {
  const problems = [];
  const rel = (p) => path.relative(root, p);
  const packages = fs.existsSync(path.join(root, 'packages'))
    ? fs.readdirSync(path.join(root, 'packages')).filter((d) => fs.existsSync(path.join(root, 'packages', d, 'package.json')))
    : [];
  for (const pkg of packages) {
    const pkgDir = path.join(root, 'packages', pkg);
    const srcDir = path.join(pkgDir, 'src');
    const graph = importGraph(srcDir);
    for (const cycle of findCycles(graph)) problems.push(`cycle in packages/${pkg}: ${cycle.map(rel).sort().join(' <-> ')}`);
    for (const [file, edges] of graph) {
      for (const { spec, target } of edges) {
        // Sources never reach into another package's files; shared code is imported by package name.
        if (target && !target.startsWith(pkgDir + path.sep)) problems.push(`${rel(file)} imports another package's file ${spec}`);
        if (pkg === 'protocol' && !target && !spec.startsWith('node:'))
          problems.push(`${rel(file)}: @accord/protocol must stay dependency-free (imports ${spec})`);
      }
    }
    if (pkg !== 'server') continue;
    for (const [file, edges] of graph) {
      const from = layerOf(srcDir, file);
      if (from.layer < 0) {
        problems.push(`${rel(file)}: top-level entry "${from.top}" has no layer (add it to SERVER_LAYERS)`);
        continue;
      }
      for (const { spec, target } of edges) {
        if (!target || !target.startsWith(srcDir + path.sep)) continue;
        const to = layerOf(srcDir, target);
        if (to.layer > from.layer) problems.push(`${rel(file)} (${from.top}) imports ${spec} (${to.top}), a higher layer`);
      }
    }
    // Storage only through the repositories (issue 26): nothing above store/ builds a query or holds a query handle.
    for (const v of storageViolations(srcDir)) problems.push(`packages/${pkg}/src/${v}`);
    const servicesDir = path.join(srcDir, 'services');
    if (fs.existsSync(servicesDir)) {
      const domains = fs.readdirSync(servicesDir, { withFileTypes: true }).filter((e) => e.isDirectory());
      if (domains.length > MAX_SERVICE_DOMAINS) problems.push(`services/ has ${domains.length} domain folders (at most ${MAX_SERVICE_DOMAINS})`);
      const loose = fs.readdirSync(servicesDir).filter((n) => n.endsWith('.ts') && n !== 'context.ts');
      for (const n of loose) problems.push(`services/${n} is not in a domain folder`);
      for (const d of domains) {
        if (!fs.existsSync(path.join(servicesDir, d.name, 'README.md'))) problems.push(`services/${d.name}/ has no README.md saying what it owns`);
      }
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2] === '--storage') {
  // `node scripts/check-architecture.mjs --storage [folder under packages/server/src]`: what still queries the database.
  const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/server/src');
  const only = process.argv[3];
  const found = storageViolations(srcDir).filter((l) => !only || l.startsWith(only));
  for (const l of found) console.log(l);
  console.log(`${found.length} storage violation(s)`);
  process.exit(found.length ? 1 : 0);
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkRepository(root);
  for (const p of problems) console.error(p);
  console.log(problems.length ? `architecture: ${problems.length} problem(s)` : 'architecture: no cycles, layers point down, services grouped by domain');
  process.exit(problems.length ? 1 : 0);
}
