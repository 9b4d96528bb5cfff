// Serves a built UI over loopback with Vite's own preview server (its module scripts do not
// load from file://). Vite comes from the UI's dependencies.
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { repoRoot } from './paths.mjs';

/** Starts a server for the built UI in `root` (a `dist` folder) on 127.0.0.1 and a free port; resolves to { url, close }. */
export async function serveStatic(root) {
  const { preview } = await import(pathToFileURL(join(repoRoot, 'ui', 'node_modules', 'vite', 'dist', 'node', 'index.js')).href);
  const server = await preview({
    root: dirname(root),
    configFile: false,
    // A missing file is a 404, not the page again.
    appType: 'mpa',
    logLevel: 'silent',
    build: { outDir: root },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const url = server.resolvedUrls?.local?.[0];
  if (!url) throw new Error('the preview server did not say where it listens');
  return { url, close: () => server.close() };
}
