// Bundles test files for `npm test` (scripts/test.mjs): each package's test files, with the sources they import, become
// a few ES modules under packages/<pkg>/.tmp/test-build/ that plain node runs. Going through the TypeScript loader
// instead costs about a second of CPU per test file (every module of the server and its dependencies passes through
// the loader's hooks), which is most of what a small test file costs. The code is the same: tsx transpiles with
// esbuild too. Dependencies stay external, loaded by node as they are from the sources, and `import.meta.url` keeps
// naming each source file, so paths computed from it (fixtures, child processes, workers) do not change.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Under each package; one directory per run (`npm test` runs side by side in CI), removed by `removeBuild`. */
const OUT = path.join('.tmp', 'test-build');

/** Whether a process is alive (its run's directory is still in use). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The directory of the package a bare specifier names, as node looks it up from `dir` (the nearest node_modules). */
function packageDir(spec, dir) {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  for (let d = dir; ; d = path.dirname(d)) {
    const p = path.join(d, 'node_modules', name);
    if (fs.existsSync(p)) return fs.realpathSync(p);
    if (path.dirname(d) === d) return null;
  }
}

/** `import.meta.url` (and dirname, filename) of a source file as literals: its meaning must not move to the bundle. */
const keepImportMeta = {
  name: 'keep-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const src = await fs.promises.readFile(args.path, 'utf8');
      if (!src.includes('import.meta.')) return undefined;
      const contents = src
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(path.dirname(args.path)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
      const loader = args.path.endsWith('.tsx') ? 'tsx' : /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      return { contents, loader, resolveDir: path.dirname(args.path) };
    });
  },
};

/** `node:test` is scripts/test-shim.mjs, one module for every bundle of a process (it groups each file's tests). */
const testShim = {
  name: 'test-shim',
  setup(b) {
    const shim = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-shim.mjs');
    b.onResolve({ filter: /^node:test$/ }, () => ({ path: shim, external: true }));
  },
};

/** Marks the resolution `externalDeps` asks esbuild for, so that it does not come back to the plugin. */
const PINNED = Symbol('pinned');

/**
 * Dependencies stay external (the workspace's own packages are bundled). A dependency that node would find in another
 * node_modules from the bundle than from the importing source (a package with node_modules of its own, whose tests
 * import another package's sources: the web client's tests start the server, whose zod is not the web client's) is
 * imported by the absolute path of the file the source would get, resolved as node resolves an import.
 */
function externalDeps(outDir) {
  return {
    name: 'external-deps',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@accord/') || args.path.startsWith('node:') || !args.importer || args.pluginData === PINNED) return undefined;
        if (packageDir(args.path, path.dirname(args.importer)) === packageDir(args.path, outDir)) return { path: args.path, external: true };
        const r = await b.resolve(args.path, { kind: args.kind, resolveDir: path.dirname(args.importer), pluginData: PINNED });
        if (r.errors.length) return { errors: r.errors };
        return { path: r.path, external: true };
      });
    },
  };
}

/** Builds the given test files (absolute paths). Returns the bundle `node --test` runs for each. */
export async function buildTests(files, root) {
  const byPackage = new Map();
  for (const f of files) {
    const pkg = path.relative(root, f).split(path.sep).slice(0, 2).join(path.sep); // packages/<name>
    if (!byPackage.has(pkg)) byPackage.set(pkg, []);
    byPackage.get(pkg).push(f);
  }
  const built = new Map();
  for (const [pkg, list] of byPackage) {
    const pkgDir = path.join(root, pkg);
    const base = path.join(pkgDir, OUT);
    if (fs.existsSync(base)) {
      // runs that ended without cleaning up (killed)
      for (const d of fs.readdirSync(base)) if (/^\d+$/.test(d) && !alive(Number(d))) fs.rmSync(path.join(base, d), { recursive: true, force: true });
    }
    const outDir = path.join(base, String(process.pid));
    await build({
      absWorkingDir: pkgDir,
      entryPoints: list.map((f) => ({ in: f, out: path.relative(pkgDir, f).replace(/\.ts$/, '') })),
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      chunkNames: '_chunks/[name]-[hash]',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'linked',
      plugins: [testShim, keepImportMeta, externalDeps(outDir)],
      logLevel: 'warning',
    });
    for (const f of list) built.set(f, path.join(outDir, path.relative(pkgDir, f).replace(/\.ts$/, '.mjs')));
  }
  return built;
}

/** Removes this run's bundles (`buildTests` of this process). */
export function removeBuild(root) {
  for (const pkg of fs.readdirSync(path.join(root, 'packages'))) {
    fs.rmSync(path.join(root, 'packages', pkg, OUT, String(process.pid)), { recursive: true, force: true });
  }
}
