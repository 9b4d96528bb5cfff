// The real app when things go wrong: a regenerate that cannot start loses nothing, quitting
// mid-answer stores it as stopped, a second launch hands over to the first, and a history or
// settings file Ponder cannot read is reported in the window with its path — never replaced.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { appBinary, appEnv, freePort, runningApps, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { Keys } from '../support/webdriver.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const FAKE_KEY = 'FAKE-key-not-real';

const homes = [];
const cleanups = [];

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});


/** A fresh data home with the given files in Ponder's data directory, and a driver for it. */
async function appWith(files = {}) {
  const home = mkdtempSync(join(tmpdir(), 'ponder-e2e-reliability-'));
  homes.push(home);
  const dir = join(home, IDENTIFIER);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const driver = await startDriver({ env: { XDG_DATA_HOME: home, NO_AT_BRIDGE: '1' } });
  cleanups.push(() => driver.stop());
  return { home, dir, driver };
}

async function session(driver, body, ready = '[data-testid="status-version"]') {
  const s = await driver.newSession();
  try {
    await s.waitForText(ready);
    return await body(s);
  } finally {
    await s.end().catch(() => {});
  }
}

const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());

async function openFirstConversation(s) {
  await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
  await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
}

function processGone(pid) {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state === 'Z';
  } catch {
    return true;
  }
}

describe('the real app when things go wrong', () => {
  let keyring;
  let mock;
  let port;
  let app;

  before(async () => {
    port = await freePort();
    mock = await startMockProvider(STREAM, { port });
    app = await appWith({
      'settings.json': JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }),
    });
    keyring = await startKeyring(app.home);
    cleanups.push(() => keyring.stop(), () => mock.stop());
  });

  async function serve(options) {
    mock.stop();
    await new Promise((r) => setTimeout(r, 150));
    mock = await startMockProvider(STREAM, { port, ...options });
  }

  it('a regenerate that cannot start (no key) keeps the question and its answer', async () => {
    await session(app.driver, async (s) => {
      await storeKey(s, FAKE_KEY);
      await pickBudgetModelMedium(s);
      await send(s, 'How do I cross the street safely?');
      await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0 && (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'the answer', 30000);
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.click(await s.waitFind('[data-testid="key-clear-anthropic"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-anthropic"]')).includes('No key'), 'key cleared');
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      await s.click(await s.waitFind('[data-testid="regenerate"]'));
      await waitFor(async () => /key/i.test(await s.execute('return document.body.innerText')), 'the missing key is reported');
    });
    await session(app.driver, async (s) => {
      await openFirstConversation(s);
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'the answer is still there');
      assert.match(await textOf(s, '[data-testid="message-user"]'), /cross the street/);
    });
  });

  it('quitting mid-answer stops it and stores it as stopped, with its thoughts', async () => {
    await serve({ chunkSize: 32, delayMs: 60 });
    await session(app.driver, async (s) => {
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await storeKey(s, FAKE_KEY);
      await pickBudgetModelMedium(s);
      await send(s, 'Take your time.');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 20, 'thinking started', 15000);
      const [pid] = runningApps();
      assert.ok(pid, 'the app is running');
      process.kill(pid, 'SIGTERM');
      await waitFor(() => processGone(pid), 'the app quits after storing the answer', 10000);
    });
    await session(app.driver, async (s) => {
      await openFirstConversation(s);
      await waitFor(async () => (await s.findAll('[data-testid="stopped"]')).length > 0, 'marked as stopped', 10000);
      assert.equal((await s.findAll('[data-testid="interrupted"]')).length, 0, 'not as interrupted');
      assert.ok((await textOf(s, '[data-testid="thought-pane"]')).length > 0, 'the partial thoughts stay');
    });
  });

  it('a provider that goes silent mid-answer ends it after the set time, with Retry and what arrived', async () => {
    await serve({ chunkSize: 64, delayMs: 20, stallAfter: 6000 });
    await session(app.driver, async (s) => {
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      const field = await s.waitFind('[data-testid="stall-secs"]');
      await s.clear(field);
      await s.type(field, '5' + Keys.tab);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await storeKey(s, FAKE_KEY);
      await pickBudgetModelMedium(s);
      const started = Date.now();
      await send(s, 'Are you still there?');
      await waitFor(async () => (await textOf(s, '[data-testid="error-message"]')).includes('went silent'), 'the stall is reported', 30000);
      const waited = (Date.now() - started) / 1000;
      assert.ok(waited >= 4 && waited < 25, `gave up after ${waited} s`);
      assert.ok((await s.findAll('[data-testid="fix-retry"]')).length > 0, 'Retry is offered');
      assert.ok((await textOf(s, '[data-testid="thought-pane"]')).length > 0, 'the thoughts so far stay');
      await shot(s, 'stalled');
    });
  });

  it('a second launch hands over to the running app and exits', async () => {
    await session(app.driver, async (s) => {
      const [first] = runningApps();
      const second = spawn(appBinary(), [], {
        env: { ...process.env, ...appEnv({ XDG_DATA_HOME: app.home, NO_AT_BRIDGE: '1' }) },
        stdio: 'ignore',
      });
      const code = await Promise.race([
        new Promise((resolve) => second.on('exit', (c) => resolve(c))),
        new Promise((resolve) => setTimeout(() => resolve('still running'), 15000)),
      ]);
      if (code === 'still running') second.kill('SIGKILL');
      assert.equal(code, 0, 'the second launch exits at once');
      assert.deepEqual(runningApps(), [first], 'the first one keeps running');
      assert.match(await textOf(s, '[data-testid="status-version"]'), /Ponder/, 'and keeps answering');
    });
  });
});

describe('files Ponder cannot read', () => {
  it('a corrupt history is shown with its path, and kept aside when starting afresh', async () => {
    const garbage = 'this is not a SQLite database, but it is the user\'s file\n'.repeat(200);
    const { dir, driver } = await appWith({ 'ponder.sqlite3': garbage });
    await session(
      driver,
      async (s) => {
        assert.match(await textOf(s, '[data-testid="problem-history"]'), /cannot open your history/);
        assert.equal(await textOf(s, '[data-testid="problem-path"]'), join(dir, 'ponder.sqlite3'));
        await shot(s, 'corrupt-history');
        await s.click(await s.waitFind('[data-testid="problem-move-aside"]'));
        await s.waitForText('[data-testid="status-version"]');
        assert.match(await s.waitForText('[data-testid="thread-empty"]'), /pondering/);
      },
      '[data-testid="problem-history"]',
    );
    const kept = readdirSync(dir).filter((f) => f.startsWith('ponder.sqlite3.unreadable-'));
    assert.equal(kept.length, 1, `kept aside: ${readdirSync(dir)}`);
    assert.equal(readFileSync(join(dir, kept[0]), 'utf8'), garbage, 'byte for byte');
  });

  it('a malformed settings file left unresolved is still there, byte for byte, after quitting', async () => {
    const broken = '{"theme": "dark", "mcpServers": [{"name": "notes"\n';
    const { dir, driver } = await appWith({ 'settings.json': broken });
    await session(
      driver,
      async (s) => {
        assert.match(await textOf(s, '[data-testid="problem-settings"]'), /not valid JSON/);
        // Quit as the desktop session does (SIGTERM), without choosing what to do with it.
        const [pid] = runningApps(appBinary());
        process.kill(pid, 'SIGTERM');
        await waitFor(() => processGone(pid), 'the app quits', 15000);
      },
      '[data-testid="problem-settings"]',
    );
    assert.equal(readFileSync(join(dir, 'settings.json'), 'utf8'), broken, 'untouched after quitting');
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('settings.json')), ['settings.json'], 'nothing written beside it');
  });

  it('a malformed settings file is shown and never written over', async () => {
    const broken = '{"theme": "dark", "providers": {"anthropic": {"baseUrl": "https://proxy.example"}}\n';
    const { dir, driver } = await appWith({ 'settings.json': broken });
    await session(
      driver,
      async (s) => {
        assert.match(await textOf(s, '[data-testid="problem-settings"]'), /not valid JSON/);
        assert.equal(await textOf(s, '[data-testid="problem-path"]'), join(dir, 'settings.json'));
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(readFileSync(join(dir, 'settings.json'), 'utf8'), broken, 'untouched while shown');
        await s.click(await s.waitFind('[data-testid="problem-move-aside"]'));
        await s.waitForText('[data-testid="status-version"]');
        await s.click(await s.waitFind('[data-testid="theme-dark"]'));
        await waitFor(() => {
          try {
            return JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).theme === 'dark';
          } catch {
            return false;
          }
        }, 'a new settings file is written');
      },
      '[data-testid="problem-settings"]',
    );
    const kept = readdirSync(dir).filter((f) => f.startsWith('settings.json.unreadable-'));
    assert.equal(kept.length, 1);
    assert.equal(readFileSync(join(dir, kept[0]), 'utf8'), broken, 'byte for byte');
  });
});
