// The crash loop, for the real app: Ponder is killed with SIGKILL at a random moment of a
// streaming answer, again and again. After each kill the history passes SQLite's integrity
// check (`ponder-cli check`), the answer is `interrupted` with the thoughts it had saved, and
// the app starts again. (The command line's loop in tests/reliability measures the time lost.)
// `PONDER_CRASH_TRIALS` sets the kills (10 by default; `./.ci/test --long` makes 100).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { freePort, runningApps, startDriver, waitFor } from '../support/app.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { repoRoot } from '../support/paths.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const TRIALS = Number(process.env.PONDER_CRASH_TRIALS ?? 10);

let home;
let keyring;
let driver;
let mock;


before(async () => {
  home = mkdtempSync(join(tmpdir(), 'ponder-e2e-crash-'));
  mock = await startMockProvider(STREAM, { port: await freePort(), chunkSize: 48, delayMs: 15 });
  mkdirSync(join(home, IDENTIFIER), { recursive: true });
  writeFileSync(join(home, IDENTIFIER, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }));
  keyring = await startKeyring(home);
  driver = await startDriver({ env: { XDG_DATA_HOME: home, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

function cli(...args) {
  const bin = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
  return spawnSync(bin, ['--db', join(home, IDENTIFIER, 'ponder.sqlite3'), ...args], { encoding: 'utf8' });
}

function gone(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z';
  } catch {
    return true;
  }
}

describe('the app killed mid-answer', () => {
  it(`keeps a sound history and the interrupted answer, ${TRIALS} times`, async () => {
    const failures = [];
    let interrupted = 0;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const s = await driver.newSession();
      try {
        await s.waitForText('[data-testid="status-version"]');
        if (trial === 0) await storeKey(s, 'FAKE-key-not-real');
        await s.click(await s.waitFind('[data-testid="new-chat"]'));
        await pickBudgetModelMedium(s);
        await send(s, `Trial ${trial}: take your time.`);
        await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 0, 'thinking started', 15000);
        // Somewhere in the rest of the stream (about 5 s of it).
        await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 3000)));
        const pids = runningApps();
        assert.equal(pids.length, 1);
        process.kill(pids[0], 'SIGKILL');
        await waitFor(() => gone(pids[0]), 'the app is gone');
      } finally {
        await s.end().catch(() => {});
      }
      const check = cli('check');
      if (check.status !== 0 || check.stdout.trim() !== 'ok') failures.push(`integrity, trial ${trial}: ${check.stdout}${check.stderr}`);
      const listed = JSON.parse(cli('conversations', '--json').stdout);
      const latest = listed.find((c) => c.title.startsWith(`Trial ${trial}:`));
      const exported = JSON.parse(cli('export', latest.id, '--format', 'json').stdout);
      const answer = exported.messages.at(-1);
      if (answer.status === 'interrupted') interrupted += 1;
      else failures.push(`trial ${trial}: the answer is ${answer.status}`);
    }
    console.log(`app crash loop: ${TRIALS} kills; integrity failures ${failures.filter((f) => f.startsWith('integrity')).length}; interrupted ${interrupted}/${TRIALS}`);
    assert.deepEqual(failures, []);
  });
});
