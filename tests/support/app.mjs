// Launching the real Ponder binary through tauri-driver for end-to-end tests.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { repoRoot } from './paths.mjs';
import { Session, waitForDriver } from './webdriver.mjs';

/** The binary under test: $APP_BIN, else the debug build in the cargo target dir. */
export function appBinary() {
  if (process.env.APP_BIN) return process.env.APP_BIN;
  const target = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
  return join(target, 'debug', 'ponder');
}

/** The workspace version, which the app reports. */
export function workspaceVersion() {
  const manifest = readFileSync(join(repoRoot, 'Cargo.toml'), 'utf8');
  const match = manifest.match(/\[workspace\.package\][^[]*?\nversion\s*=\s*"([^"]+)"/);
  if (!match) throw new Error('no version in [workspace.package] of Cargo.toml');
  return match[1];
}

/** A port on 127.0.0.1 that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts tauri-driver (which starts WebKitWebDriver) with the given environment.
 * Returns { base, newSession(), stop() }; each session launches the app afresh.
 */
/**
 * The app's environment for a test: its settings (`XDG_CONFIG_HOME`) and its log
 * (`XDG_STATE_HOME`) go to the same private folder as its history (`XDG_DATA_HOME`) unless the
 * test names others, so that no test reads or writes the settings or log of the user running it.
 */
export function appEnv(env) {
  if (!env.XDG_DATA_HOME) return env;
  return { XDG_CONFIG_HOME: env.XDG_DATA_HOME, XDG_STATE_HOME: env.XDG_DATA_HOME, ...env };
}

export async function startDriver({ env }) {
  const app = appBinary();
  if (!existsSync(app)) throw new Error(`no app binary at ${app}; build it first (cargo build -p ponder)`);
  if (!process.env.DISPLAY) throw new Error('no DISPLAY: run under xvfb-run (the test script does)');
  const [port, nativePort] = [await freePort(), await freePort()];
  // Its own process group, so that stopping it also stops WebKitWebDriver and any app
  // instance they leave behind (which would otherwise hold our pipes open and keep node alive).
  const driver = spawn(
    process.env.TAURI_DRIVER ?? 'tauri-driver',
    ['--port', String(port), '--native-port', String(nativePort)],
    { env: { ...process.env, ...appEnv(env) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let log = '';
  driver.stdout.on('data', (d) => (log += d));
  driver.stderr.on('data', (d) => (log += d));
  const exited = new Promise((resolve) => driver.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForDriver(base);
  } catch (err) {
    driver.kill();
    throw new Error(`${err.message}\ntauri-driver said:\n${log}`);
  }
  return {
    base,
    log: () => log,
    newSession: async () => {
      // Ponder runs once per desktop session: a launch while the last one is still closing
      // would hand over to it and exit. Wait until it is gone.
      await waitFor(() => runningApps(app).length === 0, 'the previous app instance to exit', 15000);
      // Its single-instance name goes a moment after the process: a launch in between would
      // find the name taken, fail to hand over to an instance that is gone, and never open.
      await waitFor(() => !singleInstanceNameTaken(), 'the previous instance to give up its D-Bus name', 10000);
      return Session.start(base, { 'tauri:options': { application: app } });
    },
    stop: async () => {
      const group = (signal) => {
        try {
          process.kill(-driver.pid, signal);
        } catch {
          // already gone
        }
      };
      group('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      group('SIGKILL');
      driver.stdout.destroy();
      driver.stderr.destroy();
    },
  };
}

/**
 * Polls `check` (sync or async) until it holds, or fails naming `what`. A check that throws
 * counts as "not yet": WebKit's driver reports a node that the page re-rendered meanwhile as a
 * stale element.
 */
export async function waitFor(check, what, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms: ${what}${last ? ` (last error: ${last.message})` : ''}`);
}

/** Whether a Ponder instance holds its single-instance name on this session bus. */
function singleInstanceNameTaken() {
  try {
    const out = execFileSync(
      'dbus-send',
      ['--session', '--print-reply=literal', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:dev.ponder.desktop.SingleInstance'],
      { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return out.includes('true');
  } catch {
    return false;
  }
}

/** The pids of running processes started from the binary `app`. */
export function runningApps(app = appBinary()) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv0 = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0];
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (argv0 === app && state !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The X windows whose title is exactly `title` (the app's native dialogs are found by it). */
export function windowsTitled(title, { visible = false } = {}) {
  const pattern = `^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  try {
    // GTK keeps a dialog's window once it is closed, unmapped: a dialog opened again is the
    // visible one of the same title.
    const only = visible ? ['--onlyvisible'] : [];
    return execFileSync('xdotool', ['search', ...only, '--name', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    // xdotool exits 1 when it finds nothing.
    return [];
  }
}

/**
 * Chooses `path` in the system's file dialog titled `title` as a person would: the dialog
 * takes the focus, the path is typed into its location field (Ctrl+L) and Enter chooses it.
 * GTK keeps the dialog's window once it is closed, unmapped: what is chosen shows in the page.
 */
export async function chooseInFileDialog(title, path) {
  await focusNativeWindow(title);
  execFileSync('xdotool', ['key', '--clearmodifiers', 'ctrl+l']);
  execFileSync('xdotool', ['type', '--delay', '20', path]);
  await new Promise((r) => setTimeout(r, 300));
  execFileSync('xdotool', ['key', '--clearmodifiers', 'Return']);
}

/**
 * Answers the native dialog titled `title` as a person at the keyboard would: the dialog gets
 * the focus and `allow` presses Alt+A (its "_Allow" button), `cancel` Esc. The keys go
 * through XTEST, as a real keyboard's would, not as events sent to the window.
 */
export async function answerNativeDialog(title, answer, timeoutMs = 20000) {
  await focusNativeWindow(title, timeoutMs);
  execFileSync('xdotool', ['key', '--clearmodifiers', answer === 'allow' ? 'alt+a' : 'Escape']);
  await waitFor(() => windowsTitled(title).length === 0, `the dialog "${title}" closes`, 10000);
}

/** Waits for the native window titled `title` and gives it the focus, as a click on it would. */
export async function focusNativeWindow(title, timeoutMs = 20000) {
  let id = null;
  await waitFor(
    () => {
      [id] = windowsTitled(title, { visible: true });
      return Boolean(id);
    },
    `the native dialog "${title}"`,
    timeoutMs,
  );
  // Drawn and mapped before it can take the focus.
  await waitFor(
    () => {
      try {
        execFileSync('xdotool', ['windowfocus', '--sync', id], { stdio: 'ignore', timeout: 5000 });
        return true;
      } catch {
        return false;
      }
    },
    `the dialog "${title}" takes the focus`,
    10000,
  );
}
