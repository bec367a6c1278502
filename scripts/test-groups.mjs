// Runs several test files in one process (scripts/test.mjs). A test file's own process costs about 0.7 s of CPU before
// its first test (node starts, then loads and compiles the server's bundle and its dependencies), more than many
// files take to run; in groups, that is paid once per group. A group is an entry module that imports its files in
// order, each after a mark that tells scripts/test-shim.mjs a new file begins: each file's tests and hooks become one
// suite, and node:test runs the suites one after the other as it would run the files. The files of a group share the
// modules they import; a file that needs a process of its own says so in a line `// own-process: <why>`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** At most this many files per group: a file that crashes its process takes the rest of its group with it. */
const GROUP_SIZE = 12;
const OWN = /^\/\/ own-process: \S/m;
const SHIM = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-shim.mjs')).href;

/**
 * The files node --test runs for the bundles `files` (`sources` maps each to its source file): consecutive files of one
 * package in a group entry written under `dir`, and those that need their own process as they are.
 */
export function groupFiles(files, sources, root, dir) {
  const out = [];
  let group = [];
  const flush = () => {
    if (group.length > 1) {
      fs.mkdirSync(dir, { recursive: true });
      const entry = path.join(dir, `group-${out.length + 1}.mjs`);
      const lines = [`import { beginFile } from ${JSON.stringify(SHIM)};`];
      for (const [i, f] of group.entries()) {
        const mark = path.join(dir, `group-${out.length + 1}-${i + 1}.mjs`);
        const name = path.relative(root, sources.get(f) ?? f);
        fs.writeFileSync(mark, `import { beginFile } from ${JSON.stringify(SHIM)};\nbeginFile(${JSON.stringify(name)});\n`);
        lines.push(`import ${JSON.stringify(pathToFileURL(mark).href)};`, `import ${JSON.stringify(pathToFileURL(f).href)};`);
      }
      fs.writeFileSync(entry, `${[...lines, 'beginFile();'].join('\n')}\n`);
      out.push(entry);
    } else out.push(...group);
    group = [];
  };
  const pkg = (f) => /(packages|examples)[\\/][^\\/]+/.exec(sources.get(f) ?? f)?.[0];
  for (const f of files) {
    if (OWN.test(fs.readFileSync(sources.get(f) ?? f, 'utf8'))) {
      out.push(f);
      continue;
    }
    if (group.length && (group.length >= GROUP_SIZE || pkg(group[0]) !== pkg(f))) flush();
    group.push(f);
  }
  flush();
  return out;
}
