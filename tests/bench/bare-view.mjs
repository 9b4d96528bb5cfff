// The floor under the app's idle memory: a bare WebKitGTK view (bare-view.c) of the app's
// window size, drawn as the app draws, measured as the app is (PSS of it and its WebKit
// processes, 3 s after its page loaded). What the app holds above it is what the app itself
// can change; the rest is WebKitGTK as this system builds it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repoRoot } from '../support/paths.mjs';
import { family } from './processes.mjs';

const SETTLE_MS = 3000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Builds bare-view.c into a temporary folder; resolves to the program's path. */
function build(dir) {
  const out = join(dir, 'bare-view');
  const flags = spawnSync('pkg-config', ['--cflags', '--libs', 'webkit2gtk-4.1', 'egl'], { encoding: 'utf8' });
  if (flags.status !== 0) throw new Error(`pkg-config found no WebKitGTK 4.1 or EGL to build the bare view with: ${flags.stderr}`);
  const cc = spawnSync('cc', ['-O2', '-Wall', '-Wextra', join(repoRoot, 'tests', 'bench', 'bare-view.c'), '-o', out, ...flags.stdout.trim().split(/\s+/)], {
    encoding: 'utf8',
  });
  if (cc.status !== 0) throw new Error(`the bare view did not build: ${cc.stderr}`);
  return out;
}

/** The app's window size, as tauri.conf.json gives it. */
function appWindowSize() {
  const conf = JSON.parse(readFileSync(join(repoRoot, 'src-tauri', 'tauri.conf.json'), 'utf8'));
  const { width, height } = conf.app.windows[0];
  return [width, height];
}

/**
 * Runs the bare view alone and resolves to `memory(pid)` of it, `SETTLE_MS` after its page
 * loaded (the app's idle figure is read as long after its list and chat are drawn). Nothing
 * else of WebKit may run meanwhile: PSS shares a library's pages among the processes that
 * map it.
 */
export async function bareViewMemory(memory) {
  const dir = mkdtempSync(join(tmpdir(), 'ponder-bare-view-'));
  try {
    const program = build(dir);
    const child = spawn(program, appWindowSize().map(String), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let exited = null;
    const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
    const loaded = new Promise((resolve) => {
      const read = (chunk) => {
        out += chunk;
        if (out.includes('bare-view: loaded')) resolve(true);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', (chunk) => (out += chunk));
    });
    try {
      const ok = await Promise.race([loaded, exit.then(() => false), sleep(30000).then(() => false)]);
      if (!ok) throw new Error(`the bare view never loaded its page${exited ? ` (it ended: ${JSON.stringify(exited)})` : ''}; it wrote: ${out.slice(-2000)}`);
      await sleep(SETTLE_MS);
      return memory(child.pid, 'bare-view');
    } finally {
      const helpers = family(child.pid).slice(1);
      if (!exited) {
        child.kill('SIGTERM');
        await Promise.race([exit, sleep(10000)]);
        if (!exited) child.kill('SIGKILL');
      }
      // Its web processes end when they lose it; the app's figures must not share pages with them.
      for (let i = 0; i < 100 && helpers.some((pid) => existsSync(`/proc/${pid}`)); i++) await sleep(100);
      for (const pid of helpers.filter((pid) => existsSync(`/proc/${pid}`))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
