// Every version kept, in the real app (WebKitGTK) against the mock provider: an answer is
// regenerated and rerun at another level, the switcher moves between the three, the compare
// view shows them side by side (screenshots in both themes), "Use this one" goes on from the
// first, and after a restart the same version is shown with the others still there. Then a
// question asked at low and high at once: both answers kept, the low one shown, compared.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir, repoRoot } from '../support/paths.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';

let dataHome;
let keyring;
let driver;
let mock;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-versions-'));
  keyring = await startKeyring(dataHome);
  mock = await startMockProvider(STREAM, { record: join(dataHome, 'requests.jsonl') });
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

async function withApp(body) {
  const s = await driver.newSession();
  try {
    await s.waitForText('[data-testid="status-version"]');
    return await body(s);
  } finally {
    await s.end().catch(() => {});
  }
}

const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());
const count = (s) => textOf(s, '[data-testid="message-assistant"] [data-testid="version-count"]');
const settled = (s) => waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0 && (await s.findAll('[data-testid="message-meta"]')).length > 0, 'the answer is complete', 30000);

/** The history as the command line reads it. */
function exported() {
  const cli = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
  const db = ['--db', join(dataHome, IDENTIFIER, 'ponder.sqlite3')];
  const [latest] = JSON.parse(spawnSync(cli, [...db, 'conversations', '--json'], { encoding: 'utf8' }).stdout);
  return JSON.parse(spawnSync(cli, [...db, 'export', latest.id, '--format', 'json'], { encoding: 'utf8' }).stdout);
}

describe('versions in the real app', () => {
  it('regenerates and reruns an answer, compares the three, goes on from the first, and keeps them all', async () => {
    await withApp(async (s) => {
      await storeKey(s, 'FAKE-key-not-real');
      await pickBudgetModelMedium(s);
      await send(s, 'How many primes are there below 100?');
      await settled(s);

      await s.click(await s.waitFind('[data-testid="regenerate"]'));
      await waitFor(async () => (await count(s)) === '2 / 2', 'the second version is shown', 30000);
      await settled(s);

      // Rerun at high: the picker's two steps, for this answer only.
      await s.click(await s.waitFind('[data-testid="rerun"]'));
      await s.waitFind('[data-testid="picker-rerun"]');
      await s.click(await s.waitFind('[data-testid="picker-model-option"][data-model="claude-opus-4-5"]', 15000));
      await s.click(await s.waitFind('[data-testid="picker-level-option"][data-choice="high"]'));
      await waitFor(async () => (await count(s)) === '3 / 3', 'the third version is shown', 30000);
      await settled(s);
      const meta = await s.execute(`return [...document.querySelectorAll('[data-testid="message-meta"]')].map((e) => e.textContent).join(' | ')`);
      assert.match(meta, /claude-opus-4-5 · high/);
      assert.match(await textOf(s, '[data-testid="model-button-level"]'), /medium/, 'the conversation keeps its level');

      await s.click(await s.waitFind('[data-testid="version-previous"]'));
      await waitFor(async () => (await count(s)) === '2 / 3', 'back one version');

      // The compare view, in both themes.
      await s.click(await s.waitFind('[data-testid="theme-light"]'));
      await waitFor(async () => (await s.execute('return document.documentElement.dataset.theme')) === 'light', 'the light theme');
      await s.click(await s.waitFind('[data-testid="version-compare"]'));
      await waitFor(async () => (await s.findAll('[data-testid="compare-column"]')).length === 3, 'three columns', 10000);
      const levels = await s.execute(`return [...document.querySelectorAll('[data-testid="compare-level"]')].map((e) => e.innerText)`);
      assert.deepEqual(levels.map((l) => l.split(' — ')[0]), ['medium', 'medium', 'high']);
      assert.ok(levels.every((l) => /tokens/.test(l)), `what each level meant: ${levels}`);
      const answers = await s.execute(`return [...document.querySelectorAll('[data-testid="compare-answer"]')].map((e) => e.innerText.length)`);
      assert.ok(answers.every((n) => n > 0), 'every answer is shown');
      const costs = await s.execute(`return [...document.querySelectorAll('[data-testid="compare-cost"]')].map((e) => e.innerText)`);
      assert.ok(costs.every((c) => /^\$\d/.test(c)), `costs: ${costs}`);
      const firsts = await s.execute(`return [...document.querySelectorAll('[data-testid="compare-first"]')].map((e) => e.innerText)`);
      assert.ok(firsts.every((t) => /^\d+\.\d s$/.test(t)), `first tokens: ${firsts}`);
      await shot(s, 'compare-light');
      // The theme is switched in the status line, behind the view: closed, switched, reopened.
      await s.click(await s.waitFind('[data-testid="compare-close"]'));
      await waitFor(async () => (await s.findAll('[data-testid="compare-view"]')).length === 0, 'the view closes');
      await s.click(await s.waitFind('[data-testid="theme-dark"]'));
      await waitFor(async () => (await s.execute('return document.documentElement.dataset.theme')) === 'dark', 'the dark theme');
      await s.click(await s.waitFind('[data-testid="version-compare"]'));
      await waitFor(async () => (await s.findAll('[data-testid="compare-column"]')).length === 3, 'three columns again', 10000);
      await shot(s, 'compare-dark');

      // Go on from the first answer.
      const uses = await s.findAll('[data-testid="compare-use"]');
      assert.equal(uses.length, 2, 'the shown one is not offered');
      await s.click(uses[0]);
      await waitFor(async () => (await count(s)) === '1 / 3', 'the first version is shown');
    });

    // After a restart: the first version is still shown, the others are there.
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await waitFor(async () => (await count(s)) === '1 / 3', 'the first version, of three', 10000);
    });
    const { messages } = exported();
    const answers = messages.filter((m) => m.message.role === 'assistant');
    assert.equal(answers.length, 3);
    assert.ok(answers.every((m) => m.parentId === messages[0].id), 'three versions of one answer');
    assert.deepEqual(answers.map((m) => m.choice), ['medium', 'medium', 'high']);
  });

  it('asks one question at low and high at once: both answers kept, the first shown, compared', async () => {
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await s.type(await s.waitFind('[data-testid="composer-input"]'), 'Is 1,000,003 prime?');
      await s.click(await s.waitFind('[data-testid="ask-several"]'));
      await s.waitFind('[data-testid="levels-chooser"]');
      const ticked = await s.execute(`return [...document.querySelectorAll('[data-testid="levels-option"]:checked')].map((e) => e.dataset.choice)`);
      assert.deepEqual(ticked, ['low', 'high']);
      await s.click(await s.waitFind('[data-testid="levels-ask"]'));
      const notes = () => s.execute(`return [...document.querySelectorAll('[data-testid="note"]')].map((e) => e.innerText).join(' | ')`);
      await waitFor(async () => /Asked at low and high/.test(await notes()), 'both levels answered', 60000);
      assert.match(await notes(), /high — answered in \d+ s/);
      await waitFor(async () => (await count(s)) === '1 / 2', 'the low answer shown, of two', 10000);
      await s.click(await s.waitFind('[data-testid="note-compare"]'));
      await waitFor(async () => (await s.findAll('[data-testid="compare-column"]')).length === 2, 'two columns', 10000);
      const levels = await s.execute(`return [...document.querySelectorAll('[data-testid="compare-level"]')].map((e) => e.innerText)`);
      assert.deepEqual(levels.map((l) => l.split(' — ')[0]), ['low', 'high']);
      await s.click(await s.waitFind('[data-testid="compare-close"]'));
    });
    // One question; its two answers, at low and at high, each sent its own budget.
    const { messages } = exported();
    assert.equal(messages.filter((m) => m.message.role === 'user').length, 1);
    const answers = messages.filter((m) => m.message.role === 'assistant');
    assert.deepEqual(answers.map((m) => m.choice).sort(), ['high', 'low']);
    assert.ok(answers.every((m) => m.parentId === messages[0].id));
    const budgets = readFileSync(join(dataHome, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((r) => r.method === 'POST')
      .slice(-2)
      .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body).thinking.budget_tokens)
      .sort((a, b) => a - b);
    assert.ok(budgets[0] < budgets[1], `low and high budgets: ${budgets}`);
  });
});
