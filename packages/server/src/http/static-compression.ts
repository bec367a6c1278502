import fs from 'node:fs';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

/**
 * The web client's hashed assets compressed once, in the encoding the browser asks for (br, then gzip), and kept:
 * they never change under a name. Images and fonts are sent as they are (already compressed).
 */
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.map', '.html']);
/** Assets are a few files of the build; a bound keeps a misbehaving client from filling memory with misses. */
const MAX_ENTRIES = 256;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export type Encoding = 'br' | 'gzip';

/** The encoding to answer with, from Accept-Encoding (a q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (e: string) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

export function isCompressible(ext: string): boolean {
  return COMPRESSIBLE.has(ext);
}

const cache = new Map<string, Promise<Buffer>>();

/**
 * The file's bytes in that encoding: the build's own compressed copy beside it (`.br`, `.gz`, written by the web
 * client's build), or else compressed on first use (brotli at a quality that is quick on one request).
 */
export function compressed(file: string, mtimeMs: number, encoding: Encoding, read: () => Promise<Buffer>): Promise<Buffer> {
  const key = `${encoding}:${mtimeMs}:${file}`;
  let hit = cache.get(key);
  if (!hit) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    hit = prebuilt(`${file}.${encoding === 'br' ? 'br' : 'gz'}`, mtimeMs).then(
      (ready) =>
        ready ?? read().then((raw) => (encoding === 'br' ? brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzip(raw, { level: 9 }))),
    );
    hit.catch(() => cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

/** A compressed copy written with or after its file (an older one is of other bytes), or null. */
async function prebuilt(file: string, sourceMtimeMs: number): Promise<Buffer | null> {
  const stat = await fs.promises.stat(file).catch(() => null);
  return stat?.isFile() && stat.mtimeMs >= sourceMtimeMs ? fs.promises.readFile(file) : null;
}
