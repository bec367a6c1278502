import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The JavaScript and CSS a first visit downloads: what index.html loads (entry script, modulepreloads, styles). */
export function initialSize(dist: string) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const files = [...new Set(refs)].map((ref) => {
    const data = fs.readFileSync(path.join(dist, ref));
    return { file: ref, kind: ref.endsWith('.js') ? 'js' : 'css', bytes: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
  });
  const lazy = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') && !refs.includes(`/assets/${f}`))
    .map((f) => ({ file: `/assets/${f}`, gzip: zlib.gzipSync(fs.readFileSync(path.join(dist, 'assets', f)), { level: 9 }).length }));
  const sum = (k: 'js' | 'css', f: 'bytes' | 'gzip') => files.filter((x) => x.kind === k).reduce((n, x) => n + x[f], 0);
  return { files, jsBytes: sum('js', 'bytes'), jsGzip: sum('js', 'gzip'), cssGzip: sum('css', 'gzip'), lazyChunks: lazy };
}
