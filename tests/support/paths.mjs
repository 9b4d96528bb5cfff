// Paths shared by the browser and app tests.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const testsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = resolve(testsDir, '..');
export const uiDir = join(repoRoot, 'ui');
export const uiDist = join(uiDir, 'dist');

/** Screenshots and logs land here; the folder is git-ignored. */
export function artifactsDir() {
  const dir = join(testsDir, 'artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}
