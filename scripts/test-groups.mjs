// Runs several test files in one process (scripts/test.mjs). A test file's own process costs about 0.7 s of CPU before
// its first test (node starts, then loads and compiles the server's bundle and its dependencies), more than many
// files take to run; in groups, that is paid once per group. A group is an entry module that imports its files in
// order, each after a mark that tells scripts/test-shim.mjs a new file begins: each file's tests and hooks become one
// suite, and node:test runs the suites one after the other as it would run the files. The files of a group share the
// modules they import. A group's entry is written beside its files' bundles, and goes with them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** At most this many files per group: a file that crashes its process takes the rest of its group with it. */
const GROUP_SIZE = 12;
const SHIM = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-shim.mjs')).href;

/** The files node --test runs for the bundles `files` (`sources` maps each to its source): consecutive files of one package in groups. */
export function groupFiles(files, sources, root) {
  const out = [];
  let group = [];
  const flush = () => {
    if (group.length > 1) {
      const base = path.join(path.dirname(group[0]), `group-${out.length + 1}`);
      const lines = [`import { beginFile } from ${JSON.stringify(SHIM)};`];
      for (const [i, f] of group.entries()) {
        const mark = `${base}-${i + 1}.mjs`;
        fs.writeFileSync(mark, `import { beginFile } from ${JSON.stringify(SHIM)};\nbeginFile(${JSON.stringify(path.relative(root, sources.get(f)))});\n`);
        lines.push(`import ${JSON.stringify(pathToFileURL(mark).href)};`, `import ${JSON.stringify(pathToFileURL(f).href)};`);
      }
      fs.writeFileSync(`${base}.mjs`, `${[...lines, 'beginFile();'].join('\n')}\n`);
      out.push(`${base}.mjs`);
    } else out.push(...group);
    group = [];
  };
  const pkg = (f) => /(packages|examples)[\\/][^\\/]+/.exec(sources.get(f))?.[0];
  for (const f of files) {
    if (group.length && (group.length >= GROUP_SIZE || pkg(group[0]) !== pkg(f))) flush();
    group.push(f);
  }
  flush();
  return out;
}
