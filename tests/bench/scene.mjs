// What the app's figures run against, shared by the benchmark and by the script that lays out
// the app's start-up code: the bench history in a fresh data folder (imported through
// `ponder-cli import`), a mock Anthropic that streams `tokens` deltas at `rate` a second,
// and settings that point the app at it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startMockProvider } from '../support/mock-provider.mjs';
import { binary } from './binaries.mjs';
import { benchHistory } from './history.mjs';
import { anthropicStream, deltaBytes } from './stream.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
/** The benchmark's history: a thread of 5,000 turns (10,000 messages) with ~14 KB of thoughts
 * each, one 200 KB thought, a thread of 100 questions with a 1600 × 1000 PNG each and its twin
 * without them, and 20 other conversations. */
export const FULL_SIZE = { turns: 5000, thoughtBytes: 14_000, longThoughtBytes: 200_000, others: 20, imageTurns: 100 };

/**
 * Resolves to { dataHome, history, mock, env }: `env` is what the app needs on top of the
 * caller's (its data folder, the provider's fake key). The caller stops `mock` and removes
 * `dataHome`.
 */
export async function benchScene({ size, rate, tokens }) {
  const dataHome = mkdtempSync(join(tmpdir(), 'ponder-bench-'));
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  const history = benchHistory(size);
  const backup = join(dataHome, 'history.json');
  writeFileSync(backup, history.json);
  execFileSync(binary('ponder-cli', 'PONDER_CLI'), ['--db', join(appDir, 'ponder.sqlite3'), 'import', backup], { stdio: 'ignore' });
  const streamFile = join(dataHome, 'stream.sse');
  writeFileSync(streamFile, anthropicStream({ thinking: Math.round(tokens * 0.6), text: tokens - Math.round(tokens * 0.6) }));
  const mock = await startMockProvider(streamFile, { chunkSize: deltaBytes(), delayMs: Math.round(1000 / rate) });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }));
  const env = { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1', PONDER_ANTHROPIC_API_KEY: 'FAKE-bench-key-not-real' };
  return { dataHome, history, mock, env };
}
