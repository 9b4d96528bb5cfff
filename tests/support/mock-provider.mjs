// Starts the mock provider binary on a free loopback port for end-to-end tests.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './paths.mjs';

/** $PONDER_MOCK_PROVIDER, else the debug build in the cargo target dir. */
export function mockProviderBinary() {
  if (process.env.PONDER_MOCK_PROVIDER) return process.env.PONDER_MOCK_PROVIDER;
  const target = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
  return join(target, 'debug', 'ponder-mock-provider');
}

/**
 * Serves `fixture` (a path under tests/fixtures/real) with the given options; `first` lists
 * replies for the first POST requests, in order. With `copilot` (`{ pendingPolls, signIn,
 * interval }`, or `{}`) it plays GitHub's sign-in and the Copilot API instead, and `fixture`
 * may be null. `burstBytes` sends that many bytes of the body as its first piece. Resolves to
 * { url, stop }.
 */
export function startMockProvider(fixture, { chunkSize = 64, delayMs = 15, burstBytes, status, record, stallAfter, port = 0, first = [], copilot } = {}) {
  const bin = mockProviderBinary();
  if (!existsSync(bin)) throw new Error(`no mock provider at ${bin}; build it (cargo build -p ponder-mock-provider)`);
  const args = ['--port', String(port), '--chunk-size', String(chunkSize), '--delay-ms', String(delayMs)];
  if (fixture) args.push('--fixture', fixture);
  if (copilot) {
    args.push('--copilot', '--copilot-pending-polls', String(copilot.pendingPolls ?? 2));
    args.push('--copilot-sign-in', copilot.signIn ?? 'approve', '--copilot-interval', String(copilot.interval ?? 1));
  }
  if (status) args.push('--status', String(status));
  if (record) args.push('--record', record);
  if (stallAfter !== undefined) args.push('--stall-after', String(stallAfter));
  // The body's first bytes at once, then the rest in chunks (a long answer caught up on).
  if (burstBytes !== undefined) args.push('--burst-bytes', String(burstBytes));
  // Replies for the first POSTs (a tool loop's first step), before `fixture` answers the rest.
  for (const path of first) args.push('--first', path);
  // The fixtures of this checkout, whichever checkout built the binary.
  const env = { ...process.env, PONDER_FIXTURES_DIR: join(repoRoot, 'tests', 'fixtures', 'real') };
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mock provider did not start: ${out}`)), 10000);
    child.stdout.on('data', (d) => {
      out += d;
      const match = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          stop: () => {
            child.kill('SIGKILL');
            child.stdout.destroy();
            child.stderr.destroy();
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`mock provider exited (${code}): ${out}`)));
  });
}
