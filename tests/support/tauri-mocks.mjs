// Turns @tauri-apps/api/mocks (an ES module) into a classic script that a page can
// run before its own code, exposing window.TauriMocks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { uiDir } from './paths.mjs';

export function tauriMocksScript() {
  const source = readFileSync(join(uiDir, 'node_modules/@tauri-apps/api/mocks.js'), 'utf8');
  const exportLine = /^export\s*\{([^}]*)\};?\s*$/m;
  const match = source.match(exportLine);
  if (!match) throw new Error('@tauri-apps/api/mocks no longer ends in one export list; update this shim');
  const names = match[1].split(',').map((name) => name.trim()).filter(Boolean);
  return `(() => {\n${source.replace(exportLine, '')}\nwindow.TauriMocks = { ${names.join(', ')} };\n})();`;
}
