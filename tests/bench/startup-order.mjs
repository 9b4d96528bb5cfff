// Writes the list of the app's functions that start-up and the seconds after it run, for the
// linker to lay them out together (src-tauri/build.rs passes it as lld's
// --symbol-ordering-file).
//
// Why: the kernel maps an executable's code 64 KB at a time around each first use, so code
// that start-up touches here and there keeps ~10 MB of the app's code resident; laid out
// together, the same functions fit in ~4 MB.
//
//   node bench/startup-order.mjs OUT
//
// The app (APP_BIN, a release build) runs under Valgrind's callgrind, which records every
// function that runs, on the benchmark's history with its keyring and mock provider, from
// launch until its conversation list is shown and IDLE_SECONDS after. Run under a display and
// a D-Bus session with a Secret Service (./.ci/startup-order does all of it).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { appBinary, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { benchScene, FULL_SIZE } from './scene.mjs';

const OUT = process.argv[2];
if (!OUT) throw new Error('usage: node bench/startup-order.mjs OUT');
const IDLE_SECONDS = 10;
/** Under Valgrind the app's own process runs tens of times slower (its web process is not
 * traced): its list has taken ~10 s to show here. */
const START_LIMIT_MS = 10 * 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The functions of `binary` that ran, from callgrind's output files: each function that
 * spent instructions has an `fn=` line under the `ob=` line of the file its code is in
 * (names kept mangled, as the linker knows them).
 */
function functionsThatRan(files, binary) {
  const names = new Set();
  for (const file of files) {
    let inBinary = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('ob=')) inBinary = line.slice(3) === binary;
      // Code without a symbol shows as its address, `(below main)` is Valgrind's own name, and
      // `'2` marks a function's calls from within itself.
      else if (inBinary && line.startsWith('fn=') && !/^fn=(0x|\()/.test(line)) names.add(line.slice(3).replace(/'\d+$/, ''));
    }
  }
  return [...names].sort();
}

async function main() {
  const app = appBinary();
  const { dataHome, mock, env } = await benchScene({ size: FULL_SIZE, rate: 200, tokens: 200 });
  const profiles = mkdtempSync(join(tmpdir(), 'ponder-callgrind-'));
  const keyring = await startKeyring(dataHome);
  let child = null;
  try {
    child = spawn(
      'valgrind',
      ['--tool=callgrind', '--demangle=no', '--compress-strings=no', '--compress-pos=no', `--callgrind-out-file=${join(profiles, 'out')}`, app],
      { env: { ...process.env, ...env, XDG_CONFIG_HOME: dataHome, PONDER_WEBVIEW_CONSOLE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let exited = null;
    child.on('exit', (code, signal) => (exited = { code, signal }));
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    await waitFor(() => /ponder:list-shown at/.test(out) || exited !== null, 'the list shown under Valgrind', START_LIMIT_MS);
    if (exited) throw new Error(`the app ended under Valgrind (${JSON.stringify(exited)}): ${out.slice(-2000)}`);
    console.log(`startup-order: the list is shown; ${IDLE_SECONDS} s idle`);
    await sleep(IDLE_SECONDS * 1000);
    // Dumped before quitting: what quitting runs is not start-up's.
    const dumped = spawnSync('callgrind_control', ['--dump', String(child.pid)], { encoding: 'utf8' });
    if (dumped.status !== 0) throw new Error(`callgrind_control failed: ${dumped.stderr}`);
    await waitFor(() => readdirSync(profiles).some((f) => /^out\.\d+$/.test(f)), 'the profile written', 60_000);
    const files = readdirSync(profiles).filter((f) => /^out\.\d+$/.test(f)).map((f) => join(profiles, f));
    const names = functionsThatRan(files, app);
    if (names.length < 500) throw new Error(`only ${names.length} functions of ${app} ran: is it the binary Valgrind ran?`);
    const header = [
      '# The functions of the app that start-up and the idle seconds after it run (sorted by name):',
      '# the linker lays them out first and together (src-tauri/build.rs). Written by',
      '# ./.ci/startup-order from a release build; names of functions that no longer exist are',
      '# skipped, and the benchmark prints how many are still found (startup_order_found_pct).',
    ];
    writeFileSync(OUT, `${[...header, ...names].join('\n')}\n`);
    console.log(`startup-order: ${names.length} functions written to ${OUT}`);
  } finally {
    // Also when it failed: an app left under Valgrind would keep running.
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await keyring.stop();
    mock.stop();
    rmSync(dataHome, { recursive: true, force: true });
    rmSync(profiles, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`startup-order: failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
