import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves dist/index.html on the client's page paths and dist/assets/* under /assets/.
// `npm run dev -w @accord/web` proxies the API to a server on 127.0.0.1:8080 (ACCORD_URL to change it).
const api = process.env.ACCORD_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  base: '/',
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
});
