// Which build of a workspace binary the figures use: the one named by its environment
// variable, else the release build where there is one, else the debug build.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { repoRoot } from '../support/paths.mjs';

export function binary(name, variable) {
  if (process.env[variable]) return process.env[variable];
  const target = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
  const release = join(target, 'release', name);
  return spawnSync(release, ['--help'], { stdio: 'ignore' }).status === 0 ? release : join(target, 'debug', name);
}
