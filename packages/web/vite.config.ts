import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { isCompressible } from '../server/src/http/static-compression.ts';
// @ts-expect-error a plain .mjs script (also run on its own), without type declarations
import { ensureDaveyWasm, packageDir } from '../social-sdk/scripts/davey-wasm.mjs';

// The server serves dist/index.html on the client's page paths and dist/assets/* under /assets/.
// `npm run dev -w @accord/web` proxies the API to a server on 127.0.0.1:8080 (ACCORD_URL to change it).
const api = process.env.ACCORD_URL ?? 'http://127.0.0.1:8080';

/**
 * The Twemoji SVGs as static files in dist/assets/twemoji/, fetched one by one as emoji appear; bundling them into
 * the JavaScript would add megabytes. The dev server serves them from the package through the same path.
 */
function twemoji(): Plugin {
  const source = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
  return {
    name: 'accord-twemoji',
    configureServer(server) {
      server.middlewares.use('/assets/twemoji/', (req, res, next) => {
        const name = (req.url ?? '').slice(1).split('?')[0];
        if (!/^[\da-f-]+\.svg$/.test(name)) return next();
        res.setHeader('content-type', 'image/svg+xml');
        fs.createReadStream(path.join(source, name))
          .on('error', () => next())
          .pipe(res);
      });
    },
    writeBundle(options) {
      const out = path.join(options.dir ?? 'dist', 'assets', 'twemoji');
      fs.mkdirSync(out, { recursive: true });
      for (const f of fs.readdirSync(source)) if (f.endsWith('.svg')) fs.copyFileSync(path.join(source, f), path.join(out, f));
    },
  };
}

/**
 * Every compressible file of the build also as .br (brotli at its best quality) and .gz beside it, which the server
 * sends as they are: compressing on request cost each new server process seconds of CPU (thousands of emoji SVGs).
 */
function precompress(): Plugin {
  // The same files the server would compress on request.
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : isCompressible(path.extname(e.name)) ? [path.join(dir, e.name)] : []));
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  return {
    name: 'accord-precompress',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options) {
      const all = files(path.join(options.dir ?? 'dist', 'assets'));
      // A few at a time: zlib's async calls run on libuv's threads.
      for (let i = 0; i < all.length; i += 16) {
        await Promise.all(
          all.slice(i, i + 16).map(async (f) => {
            const raw = await fs.promises.readFile(f);
            const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length };
            await fs.promises.writeFile(`${f}.br`, await brotli(raw, { params }));
            await fs.promises.writeFile(`${f}.gz`, await gzip(raw, { level: 9 }));
          }),
        );
      }
    },
  };
}

/**
 * The browser voice core (voice gateway socket, WebRTC peer, DAVE) is the Social SDK's (`@accord/social-sdk/browser-voice`):
 * bundled from the workspace's own source, like the SDK's tests use it, whatever copy node_modules links.
 */
const sdkVoice = fileURLToPath(new URL('../social-sdk/src/voice/browser/', import.meta.url));

export default defineConfig(() => {
  // DAVE's WebAssembly build and its runtime are fetched into the SDK's .cache/davey (its scripts/davey-wasm.mjs).
  // Without them (offline, no npm cache) the build still succeeds, with a stand-in that reports DAVE as unavailable.
  let davey = true;
  try {
    ensureDaveyWasm({ log: (m: string) => console.log(m) });
  } catch (err) {
    davey = false;
    console.warn(`davey-wasm: ${(err as Error).message}\ndavey-wasm: building without DAVE (browser voice only where a channel does not require it)`);
  }
  return {
    plugins: [react(), twemoji(), precompress()],
    base: '/',
    resolve: {
      alias: [
        { find: /^@accord\/social-sdk\/browser-voice$/, replacement: `${sdkVoice}index.ts` },
        { find: /^@accord\/social-sdk\/browser-voice\/davey$/, replacement: `${sdkVoice}davey.ts` },
        ...(davey
          ? [
              { find: /^@napi-rs\/wasm-runtime$/, replacement: `${packageDir('@napi-rs/wasm-runtime')}/runtime.js` },
              { find: /^@snazzah\/davey-wasm32-wasi\//, replacement: `${packageDir('@snazzah/davey-wasm32-wasi')}/` },
            ]
          : [{ find: /^\.\/dave\/davey\.js$/, replacement: `${sdkVoice}davey-missing.ts` }]),
      ],
    },
    build: {
      outDir: 'dist',
      assetsDir: 'assets',
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 600,
    },
    server: {
      proxy: {
        '/api': api,
        '/attachments': api,
        '/emojis': api,
        '/stickers': api,
      },
    },
  };
});
