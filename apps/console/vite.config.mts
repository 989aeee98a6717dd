// The console's production build (`npm run build:console`, called by `npm run build`) and its dev
// server (`npm run console:dev`, proxying the API to a service on :3000).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env['CONSOLE_DEV_API'] ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../../dist/apps/console',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // The CSP allows scripts from our origin only; Vite's preload polyfill would be an inline script.
    modulePreload: { polyfill: false },
    rolldownOptions: { input: { index: 'index.html', frame: 'frame.html' } },
    // The template editor's chunk (CodeMirror, about 540 KB before compression) loads only with that
    // page; what counts is the first download, which `npm run console:budget` holds to 250 KB gzipped.
    chunkSizeWarningLimit: 700,
  },
  server: { proxy: { '^/(?!console/).*': { target: api, changeOrigin: false } } },
});
