/**
 * Top self-time functions of a V8 .cpuprofile (as written by `node --cpu-prof`).
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [count] [fromUs toUs]
 * Self time of a node = sum of the sample intervals whose leaf is that node; nodes are grouped by function + location.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TopEntry {
  fn: string;
  where: string;
  selfMs: number;
  selfPct: number;
}

/**
 * `window` (µs, the profile's monotonic clock = process.hrtime) keeps only the samples taken inside it, so a
 * profile of a whole process can be cut down to the measuring window.
 */
export function topSelf(
  file: string,
  count = 20,
  window?: { fromUs: number; toUs: number },
): { totalMs: number; top: TopEntry[]; byArea: { area: string; selfMs: number; selfPct: number }[] } {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const selfUs = new Map<number, number>();
  // timeDeltas[i] is the gap before sample i; attribute it to that sample's leaf node.
  let t = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] ?? 0;
    t += dt;
    if (window && (t < window.fromUs || t > window.toUs)) continue;
    selfUs.set(prof.samples[i], (selfUs.get(prof.samples[i]) ?? 0) + Math.max(0, dt));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;
  const namedAncestor = (id: number): string => {
    for (let p = parentOf.get(id); p !== undefined; p = parentOf.get(p)) {
      const name = byId.get(p)?.callFrame.functionName;
      if (name) return name;
    }
    return '?';
  };
  const grouped = new Map<string, TopEntry>();
  const areas = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    const f = n.callFrame;
    const fn = f.functionName || (f.url ? `(anonymous in ${namedAncestor(id)})` : '(native)');
    // tsx emits each module on one line: then the column is what tells functions apart.
    const where = f.url ? `${shorten(f.url)}:${f.lineNumber + 1}${f.lineNumber === 0 ? `:${f.columnNumber + 1}` : ''}` : '';
    const key = `${fn}@${where}`;
    const e = grouped.get(key) ?? { fn, where, selfMs: 0, selfPct: 0 };
    e.selfMs += us / 1000;
    grouped.set(key, e);
    const area = areaOf(f.url, fn);
    areas.set(area, (areas.get(area) ?? 0) + us / 1000);
  }
  const top = [...grouped.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, count)
    .map((e) => ({ ...e, selfMs: Number(e.selfMs.toFixed(1)), selfPct: Number(((e.selfMs * 1000 * 100) / total).toFixed(1)) }));
  const byArea = [...areas.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([area, ms]) => ({ area, selfMs: Number(ms.toFixed(1)), selfPct: Number(((ms * 1000 * 100) / total).toFixed(1)) }));
  return { totalMs: Number((total / 1000).toFixed(1)), top, byArea };
}

function shorten(url: string): string {
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) return p.slice(nm + '/node_modules/'.length);
  const src = p.indexOf('/packages/');
  if (src >= 0) return p.slice(src + 1);
  return p.startsWith('node:') ? p : path.basename(p);
}

/** A coarse bucket per self-time entry: our code, a dependency, Node internals, or V8 (GC, idle, native). */
function areaOf(url: string, fn: string): string {
  if (!url) {
    if (fn === '(garbage collector)') return 'gc';
    if (fn === '(idle)') return 'idle';
    if (fn === '(program)') return 'program (native/unattributed)';
    return `native: ${fn}`;
  }
  const p = url.replace(/^file:\/\//, '');
  const nm = p.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = p.slice(nm + '/node_modules/'.length).split('/');
    return `dep: ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (p.startsWith('node:')) return 'node internals';
  const src = p.indexOf('/packages/server/src/');
  if (src >= 0) return `accord: ${p.slice(src + '/packages/server/src/'.length).split('/')[0]}`;
  return 'other';
}

export function formatTop(res: ReturnType<typeof topSelf>, areas = 12): string {
  const lines = [`total sampled: ${res.totalMs} ms`, '', 'self %   self ms   function  (location)'];
  for (const e of res.top) lines.push(`${e.selfPct.toFixed(1).padStart(6)}  ${e.selfMs.toFixed(1).padStart(8)}   ${e.fn}  ${e.where ? `(${e.where})` : ''}`);
  lines.push('', 'self %   area');
  for (const a of res.byArea.slice(0, areas)) lines.push(`${a.selfPct.toFixed(1).padStart(6)}   ${a.area}`);
  return lines.join('\n');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [file, n, from, to] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx bench/profile-top.ts <file.cpuprofile> [count] [fromUs toUs]');
    process.exit(2);
  }
  console.log(formatTop(topSelf(file, n ? Number(n) : 20, from && to ? { fromUs: Number(from), toUs: Number(to) } : undefined)));
}
