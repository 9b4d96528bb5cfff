// GitHub Copilot in the real app, against a loopback GitHub and Copilot API: sign in with the
// device flow (GitHub approves after two checks), ask GPT-5 at high and watch its thoughts
// stream, ask Claude and read that Copilot returns none of its thoughts; then look for the
// GitHub and Copilot tokens everywhere but the keyring: the data directory, the settings, the
// exports and the app's own output.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir, repoRoot } from '../support/paths.mjs';
import { send, textOf } from '../support/flows.mjs';
import { Keys } from '../support/webdriver.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
/** What the mock hands out: neither may be found outside the keyring and the app's memory. */
const GITHUB_TOKEN = 'gho_FAKE-github-token-not-real';
const COPILOT_TOKEN = 'FAKE-copilot-token';

let dataHome;
let keyring;
let driver;
let mock;
/** Another GitHub address, recording every request it gets. */
let other;
let otherRecord;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-copilot-'));
  keyring = await startKeyring(dataHome);
  mock = await startMockProvider(null, { copilot: { pendingPolls: 2, interval: 1 }, chunkSize: 256, delayMs: 5 });
  otherRecord = join(dataHome, 'other-github.jsonl');
  other = await startMockProvider(null, { copilot: {}, record: otherRecord });
  // GitHub's address is the mock's, as a GitHub Enterprise address would be set.
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { copilot: { enabled: true, baseUrl: mock.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  other?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());

/** Picks a Copilot model and a level in the two-step picker. */
async function pick(s, model, level) {
  const option = `[data-testid="picker-model-option"][data-provider="copilot"][data-model="${model}"]`;
  const choice = `[data-testid="picker-level-option"][data-choice="${level}"]`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), model);
      await waitFor(async () => (await textOf(s, option)) !== '' && !(await textOf(s, option)).includes('needs sign-in'), `${model} is offered`, 15000);
      await s.click(await s.waitFind(option));
      await s.click(await s.waitFind(choice, 4000));
      await waitFor(async () => (await textOf(s, '[data-testid="model-button-level"]')).includes(level), `${level} chosen`, 4000);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await s.execute(`window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })); return true;`).catch(() => {});
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function answered(s, n) {
  await waitFor(async () => (await s.findAll('[data-testid="message-assistant"]')).length === n, `answer ${n}`, 20000);
  await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, `answer ${n} is complete`, 30000);
}

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir, needle) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) found.push(...filesHolding(path, needle));
    else if (readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

describe('GitHub Copilot in the real app', () => {
  it('signs in with a code, streams GPT-5 thoughts at high, and says Claude returns none', async () => {
    const session = await driver.newSession();
    const s = session;
    try {
      await s.waitForText('[data-testid="status-version"]');
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-copilot"]')).includes('Not signed in'), 'not signed in yet', 15000);
      await s.click(await s.waitFind('[data-testid="copilot-sign-in-start"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="copilot-user-code"]')) === 'WDJB-MJHT', 'the code is shown', 10000);
      await shot(s, 'copilot-code');
      await waitFor(async () => (await s.findAll('[data-testid="copilot-signed-in"]')).length === 1, 'signed in after two checks', 20000);
      assert.match(await textOf(s, '[data-testid="key-status-copilot"]'), /Signed in/);
      const page = await s.execute('return document.documentElement.outerHTML');
      assert.ok(!page.includes(GITHUB_TOKEN) && !page.includes(COPILOT_TOKEN), 'no token reaches the page');
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      await pick(s, 'gpt-5.4', 'high');
      await send(s, 'What is 17 × 23?');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 0, 'GPT-5 thoughts stream live', 20000);
      await answered(s, 1);
      assert.match(await textOf(s, '[data-testid="thought-header"]'), /Thought/);
      await shot(s, 'copilot-gpt5');

      await pick(s, 'claude-sonnet-4.6', 'high');
      await send(s, 'And 19 × 21?');
      await answered(s, 2);
      const last = `[data-testid="message-assistant"]:last-of-type`;
      await waitFor(async () => /does not return Claude's thoughts/.test(await textOf(s, '[data-testid="no-thoughts"]')), 'the note instead of a pane', 10000);
      const panes = await s.execute(`const all = document.querySelectorAll('[data-testid="message-assistant"]'); return all[all.length - 1].querySelectorAll('[data-testid="thought-pane"]').length`);
      assert.equal(panes, 0, 'no empty thought pane for Claude');
      assert.ok((await textOf(s, last)).length > 0);
      await shot(s, 'copilot-claude');
    } finally {
      await session.end().catch(() => {});
    }

    // The tokens: nowhere on disk, in the settings, the exports or the app's output.
    const appDir = join(dataHome, IDENTIFIER);
    const cli = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
    const env = { ...process.env, XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: dataHome };
    const list = JSON.parse(execFileSync(cli, ['conversations', '--json'], { env, encoding: 'utf8' }));
    assert.ok(list.length >= 1, 'the conversation was kept');
    const exports = join(dataHome, 'exports');
    mkdirSync(exports, { recursive: true });
    for (const format of ['json', 'md', 'html']) {
      execFileSync(cli, ['export', list[0].id, '--format', format, '-o', join(exports, `copilot.${format}`)], { env });
    }
    execFileSync(cli, ['export', '--all', '-o', join(exports, 'backup.json')], { env });
    for (const needle of [GITHUB_TOKEN, COPILOT_TOKEN, 'tid=']) {
      assert.deepEqual(filesHolding(dataHome, needle).filter((f) => !f.includes('keyrings')), [], `${needle} outside the keyring`);
      assert.ok(!driver.log().includes(needle), `${needle} in the app's output`);
    }
    const settings = readFileSync(join(appDir, 'settings.json'), 'utf8');
    assert.ok(!settings.includes('gho_'), 'the settings hold no GitHub token');
  });

  it('changing the GitHub address sends the sign-in nowhere: the new address is not signed in', async () => {
    const session = await driver.newSession();
    const s = session;
    const address = async (url) => {
      const field = await s.waitFind('#url-copilot');
      await s.clear(field);
      await s.type(field, url + Keys.enter);
    };
    try {
      await s.waitForText('[data-testid="status-version"]');
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-copilot"]')).includes('Signed in'), 'signed in at the first address', 15000);
      await address(other.url);
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-copilot"]')).includes('Not signed in'), 'not signed in at the other address', 15000);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      // The picker's lists are asked for again with the new address: a sign-in is needed.
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'gpt-5.4');
      const option = '[data-testid="picker-model-option"][data-provider="copilot"][data-model="gpt-5.4"]';
      await waitFor(async () => (await textOf(s, option)).includes('needs sign-in'), 'Copilot needs a sign-in there', 15000);
      await s.type(await s.find('[data-testid="picker-filter"]'), Keys.escape).catch(() => {});
      const seen = readFileSync(otherRecord, 'utf8');
      assert.ok(!seen.includes(GITHUB_TOKEN), `the other address was sent the token:\n${seen}`);

      // Back at the first address, its sign-in is there again.
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await address(mock.url);
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-copilot"]')).includes('Signed in'), 'signed in again at the first address', 15000);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
    } finally {
      await session.end().catch(() => {});
    }
  });

  it('signs in from the command line, the token in the keyring only, and out again', async () => {
    const cli = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
    const env = { ...process.env, XDG_DATA_HOME: dataHome, XDG_CONFIG_HOME: dataHome };
    delete env.PONDER_COPILOT_API_KEY;
    const stored = () => {
      try {
        return execFileSync('secret-tool', ['search', '--all', 'service', IDENTIFIER, 'username', `copilot@${mock.url}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10000 });
      } catch (err) {
        return String(err.stdout ?? '');
      }
    };
    execFileSync(cli, ['login', 'copilot', '--logout', '--github-url', mock.url], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.doesNotMatch(stored(), /secret = /, 'signed out first');
    const login = spawnSync(cli, ['login', 'copilot', '--github-url', mock.url], { env, encoding: 'utf8', timeout: 60000 });
    assert.equal(login.status, 0, login.stderr);
    assert.match(login.stderr, /Open http:\/\/127\.0\.0\.1:\d+\/login\/device and enter the code:\s+WDJB-MJHT/);
    assert.match(login.stderr, /Signed in to GitHub Copilot/);
    assert.ok(!`${login.stdout}${login.stderr}`.includes(GITHUB_TOKEN), 'the token is never printed');
    assert.match(stored(), new RegExp(`secret = ${GITHUB_TOKEN}`), 'kept in the keyring');
    const chat = spawnSync(cli, ['chat', '--provider', 'copilot', '--model', 'gpt-5.4/low', '--base-url', mock.url, '--json', 'Hi'], { env, encoding: 'utf8', timeout: 60000 });
    assert.equal(chat.status, 0, chat.stderr);
    assert.equal(JSON.parse(chat.stdout).parts[0].type, 'thinking', 'the keyring sign-in is used');
    const logout = spawnSync(cli, ['login', 'copilot', '--logout', '--github-url', mock.url], { env, encoding: 'utf8' });
    assert.equal(logout.status, 0, logout.stderr);
    assert.doesNotMatch(stored(), /secret = /, 'signed out');
    const after = spawnSync(cli, ['chat', '--provider', 'copilot', '--model', 'gpt-5.4/low', '--base-url', mock.url, 'Hi'], { env, encoding: 'utf8', timeout: 60000 });
    assert.equal(after.status, 2);
    assert.match(after.stderr, /not signed in to GitHub Copilot/);
  });
});
