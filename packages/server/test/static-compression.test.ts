// engine-independent: compression of the web client's files, no store involved.
/**
 * The web client's assets in the encoding asked for: the build's compressed copy beside a file when it is at least as
 * new as the file, else the file compressed on first use.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { compressed, pickEncoding } from '../src/http/static-compression.js';

test('Accept-Encoding picks br, then gzip; q=0 refuses one', () => {
  assert.equal(pickEncoding('gzip, deflate, br'), 'br');
  assert.equal(pickEncoding('br;q=0, gzip'), 'gzip');
  assert.equal(pickEncoding('identity'), null);
  assert.equal(pickEncoding(undefined), null);
});

test("the build's .br and .gz are sent as they are; without them (or older than the file) the file is compressed", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-static-'));
  const file = path.join(dir, 'app.js');
  const raw = Buffer.from('console.log("hello");\n'.repeat(200));
  fs.writeFileSync(file, raw);
  const read = () => fs.promises.readFile(file);
  const mtime = () => fs.statSync(file).mtimeMs;

  // No copies: compressed here, and it decodes to the file.
  assert.deepEqual(zlib.brotliDecompressSync(await compressed(file, mtime(), 'br', read)), raw);

  // Copies written after the file: those bytes, whatever they are.
  fs.writeFileSync(`${file}.br`, 'prebuilt br');
  fs.writeFileSync(`${file}.gz`, 'prebuilt gz');
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(`${file}.br`, later, later);
  fs.utimesSync(`${file}.gz`, later, later);
  fs.utimesSync(file, new Date(Date.now() + 1000), new Date(Date.now() + 1000)); // a new version of the file
  assert.equal(String(await compressed(file, mtime(), 'br', read)), 'prebuilt br');
  assert.equal(String(await compressed(file, mtime(), 'gzip', read)), 'prebuilt gz');

  // The file changed after its copies: they are of other bytes and are not sent.
  const newer = new Date(Date.now() + 10_000);
  fs.utimesSync(file, newer, newer);
  assert.deepEqual(zlib.gunzipSync(await compressed(file, mtime(), 'gzip', read)), raw);
  fs.rmSync(dir, { recursive: true, force: true });
});
