// How fast a long reasoning stream is read: `ponder-cli chat --json` against the mock
// provider serving a synthetic Anthropic stream of 50 MB over loopback (whole process, from
// launch to exit, history written), beside the same bytes read raw over the same loopback.
// Prints `bench: NAME VALUE UNIT` lines; asserts nothing.
//
//   node bench/cli.mjs [--short]      (PONDER_CLI and PONDER_MOCK_PROVIDER pick the binaries)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startMockProvider } from '../support/mock-provider.mjs';
import { binary } from './binaries.mjs';
import { anthropicStream, tokensFor } from './stream.mjs';

const SHORT = process.argv.includes('--short');
const MB = SHORT ? 2 : 50;
const RUNS = SHORT ? 1 : 5;

const figure = (name, value, unit) => console.log(`bench: ${name} ${Math.round(value * 1000) / 1000}${unit ? ` ${unit}` : ''}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ponder-bench-cli-'));
  const file = join(dir, 'stream.sse');
  const body = anthropicStream(tokensFor(MB * 1e6));
  writeFileSync(file, body);
  // A release mock serves faster; startMockProvider reads the choice from the environment.
  process.env.PONDER_MOCK_PROVIDER = binary('ponder-mock-provider', 'PONDER_MOCK_PROVIDER');
  const mock = await startMockProvider(file, { chunkSize: 64 * 1024, delayMs: 0 });
  const cli = binary('ponder-cli', 'PONDER_CLI');
  figure('cli_stream_mb', body.length / 1e6, 'MB');
  try {
    const raw = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await fetch(`${mock.url}/v1/messages`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      let bytes = 0;
      for await (const chunk of res.body) bytes += chunk.length;
      raw.push((performance.now() - t0) / 1000);
      if (bytes < body.length) throw new Error(`read ${bytes} of ${body.length} bytes`);
    }
    figure('loopback_raw_s', median(raw), 's');

    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const db = join(dir, `history-${i}.sqlite3`);
      const t0 = performance.now();
      const out = spawnSync(
        cli,
        ['--db', db, 'chat', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5/high', '--base-url', mock.url, '--json', 'Think at length.'],
        { env: { ...process.env, PONDER_ANTHROPIC_API_KEY: 'FAKE-bench-key-not-real', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
      );
      times.push((performance.now() - t0) / 1000);
      if (out.status !== 0) throw new Error(`ponder-cli failed: ${out.stderr}`);
      const answer = JSON.parse(out.stdout);
      if (!answer.message) throw new Error(`no answer: ${out.stdout.slice(0, 200)}`);
    }
    figure('cli_stream_s', median(times), 's');
    figure('cli_stream_mb_per_s', body.length / 1e6 / median(times), 'MB/s');
  } finally {
    mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench: failed: ${err.stack ?? err}`);
  process.exit(1);
});
