/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  plugins: [svelte()],
  // The app loads its files from its own bundle, never from a server path.
  base: './',
  clearScreen: false,
  // `tauri dev` loads the window from here (tauri.conf.json's devUrl).
  server: { port: 5173, strictPort: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Keep every asset a file: the CSP allows no inline scripts.
    assetsInlineLimit: 0,
  },
  // Component tests need Svelte's browser build, not the server one.
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
  },
});
