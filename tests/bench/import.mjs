// How fast a whole history comes in: `ponder-cli import --json` of a synthetic ChatGPT data
// export of 1 GB (tests/bench/chatgpt-export.mjs, kept in ~/.cache/ponder/bench) into a new
// database, timed with its peak memory under GNU time; then the same file again into the same
// database, where every conversation is already there unchanged. Prints `bench: NAME VALUE
// UNIT` lines; an import that fails or reports the wrong count fails the run (its time would
// mean nothing).
//
//   node bench/import.mjs [--short]      (20 MB instead of 1 GB; PONDER_CLI picks the binary)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { binary } from './binaries.mjs';
import { chatgptExport } from './chatgpt-export.mjs';

const SHORT = process.argv.includes('--short');
const BYTES = SHORT ? 20e6 : 1e9;
const SEED = 1;
const TIME = '/usr/bin/time';

const figure = (name, value, unit) => console.log(`bench: ${name} ${Math.round(value * 1000) / 1000}${unit ? ` ${unit}` : ''}`);

/** Runs one import under GNU time: the CLI's JSON summary, wall seconds and peak RSS in MB. */
function timedImport(cli, db, file, dir) {
  const timeFile = join(dir, 'time.txt');
  // -o keeps time's line apart from the CLI's own stderr.
  const out = spawnSync(TIME, ['-f', '%e %M', '-o', timeFile, cli, '--db', db, 'import', file, '--json'], {
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (out.error) throw new Error(`cannot run ${TIME} (the Debian package "time"): ${out.error.message}`);
  if (out.status !== 0) throw new Error(`ponder-cli import exited with ${out.status}: ${out.stderr.slice(-2000)}`);
  // When the command fails, time writes "Command exited with non-zero status N" first: the
  // figures are on the last line.
  const line = readFileSync(timeFile, 'utf8').trim().split('\n').pop();
  const [seconds, maxKb] = line.split(/\s+/).map(Number);
  if (!Number.isFinite(seconds) || !Number.isFinite(maxKb)) throw new Error(`cannot read time's output: ${line}`);
  let report;
  try {
    report = JSON.parse(out.stdout);
  } catch {
    throw new Error(`ponder-cli import printed no JSON: ${out.stdout.slice(0, 500)}`);
  }
  // %M is in kilobytes of 1024 bytes; the memory figures are MiB (kB / 1024), as the app
  // benchmark's are, though the unit is written MB.
  return { report, seconds, rssMb: maxKb / 1024 };
}

function main() {
  const cli = binary('ponder-cli', 'PONDER_CLI');
  const t0 = performance.now();
  const exp = chatgptExport(BYTES, { seed: SEED });
  const made = (performance.now() - t0) / 1000;
  console.error(`bench: the export is ${exp.path} (${made.toFixed(1)} s to make or find)`);
  // The file's sizes are in decimal MB (1e6 bytes), as its name is.
  figure('import_export_mb', exp.bytes / 1e6, 'MB');
  figure('import_export_conversations', exp.conversations);

  const dir = mkdtempSync(join(tmpdir(), 'ponder-bench-import-'));
  try {
    const db = join(dir, 'ponder.sqlite3');
    const first = timedImport(cli, db, exp.path, dir);
    if (first.report.conversations !== exp.conversations) {
      throw new Error(`imported ${first.report.conversations} conversations of ${exp.conversations}: ${JSON.stringify(first.report)}`);
    }
    figure('import_s', first.seconds, 's');
    figure('import_mb_per_s', exp.bytes / 1e6 / first.seconds, 'MB/s');
    figure('import_peak_rss_mb', first.rssMb, 'MB');

    const again = timedImport(cli, db, exp.path, dir);
    if (again.report.conversations !== 0 || again.report.unchanged !== exp.conversations) {
      throw new Error(`the second import should find all ${exp.conversations} conversations unchanged: ${JSON.stringify(again.report)}`);
    }
    figure('reimport_s', again.seconds, 's');
    figure('reimport_peak_rss_mb', again.rssMb, 'MB');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`bench: failed: ${err.stack ?? err}`);
  process.exit(1);
}
