// A conversation's own choices in the real app: which OpenAI API it uses, and a thought the
// user hid (kept hidden across a restart, and left out of an export). The mock providers on
// loopback record what was sent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { repoRoot } from '../support/paths.mjs';

const IDENTIFIER = 'dev.ponder.desktop';

let dataHome;
let keyring;
let driver;
let openai;
let anthropic;
let openaiRecord;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-conversation-'));
  keyring = await startKeyring(dataHome);
  openaiRecord = join(dataHome, 'openai-requests.jsonl');
  openai = await startMockProvider('openai/genai-responses-gpt54-mini-reasoning-summary-stream.sse', { record: openaiRecord });
  // Claude Sonnet 4.5 thinking over 30 lines: Claude 4's thoughts are a summary, and a folded
  // pane previews its first eight lines.
  anthropic = await startMockProvider('anthropic/vercel-sonnet45-thinking-long-stream.jsonl');
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(
    join(appDir, 'settings.json'),
    JSON.stringify({ providers: { openai: { enabled: true, baseUrl: openai.url }, anthropic: { enabled: true, baseUrl: anthropic.url } } }),
  );
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  openai?.stop();
  anthropic?.stop();
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

/** The paths the OpenAI mock was asked to answer a turn on. */
function turnPaths() {
  if (!existsSync(openaiRecord)) return [];
  return readFileSync(openaiRecord, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.method === 'POST')
    .map((r) => r.path);
}

function cli(...args) {
  const bin = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
  return spawnSync(bin, ['--db', join(dataHome, IDENTIFIER, 'ponder.sqlite3'), ...args], { encoding: 'utf8' });
}

describe("a conversation's own choices in the real app", () => {
  it('uses Responses for OpenAI unless the conversation asks for Chat Completions', async () => {
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.type(await s.waitFind('[data-testid="key-input-openai"]'), 'FAKE-key-not-real');
      await s.click(await s.waitFind('[data-testid="key-save-openai"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-openai"]')).includes('Key stored'), 'key stored');
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'gpt-5.4-mini');
      await s.click(await s.waitFind('[data-testid="picker-model-option"][data-model="gpt-5.4-mini"]'));
      await s.click(await s.waitFind('[data-testid="picker-level-option"][data-choice="default"]'));
      await send(s, 'First, the way Ponder chooses.');
      await waitFor(() => turnPaths().length === 1, 'the first turn is sent', 20000);
      await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the first turn ends', 30000);
      assert.match(turnPaths()[0], /\/responses$/);

      await s.click(await s.waitFind('[data-testid="reasoning-toggle"]'));
      await s.waitFind('[data-testid="api-select"]');
      await s.execute(
        `const el = document.querySelector('[data-testid="api-select"]'); el.value = 'chat'; el.dispatchEvent(new Event('change', { bubbles: true })); return null;`,
      );
      await send(s, 'Now through Chat Completions.');
      await waitFor(() => turnPaths().length === 2, 'the second turn is sent', 20000);
      assert.match(turnPaths()[1], /\/chat\/completions$/);
    });
  });

  it('previews a folded summary, and keeps a hidden thought hidden across a restart and out of an export', async () => {
    await withApp(async (s) => {
      await storeKey(s, 'FAKE-key-not-real');
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await send(s, 'How do I cross the street safely?');
      await waitFor(async () => (await s.findAll('[data-testid="message-meta"]')).length > 0, 'the answer is complete', 30000);
      // Folded, the thoughts preview their first eight non-empty lines, under a Summary label.
      let lines = [];
      await waitFor(async () => {
        lines = await s.execute(
          `return [...document.querySelectorAll('[data-testid="thought-preview"] .p-line')].map((e) => e.textContent);`,
        );
        return lines.length > 0;
      }, 'the folded preview');
      assert.deepEqual(lines, [
        'I need to calculate 25 * 37 step by step.',
        'Let me break this down using the distribution method:',
        '25 * 37 = 25 * (30 + 7)',
        '= (25 * 30) + (25 * 7)',
        'First, let me calculate 25 * 30:',
        '25 * 30 = 25 * 3 * 10',
        '= 75 * 10',
        '= 750',
      ]);
      assert.equal(await textOf(s, '[data-testid="thought-summary-badge"]'), 'Summary');
      await s.click(await s.waitFind('[data-testid="thought-header"]'));
      await s.click(await s.waitFind('[data-testid="thought-hide"]'));
      await s.waitFind('[data-testid="thoughts-hidden"]', 10000);
    });
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await s.waitFind('[data-testid="thoughts-hidden"]', 10000);
      assert.equal((await s.findAll('[data-testid="thought-pane"]')).length, 0, 'the thought stays hidden');
    });
    const [latest] = JSON.parse(cli('conversations', '--json').stdout);
    const { messages } = JSON.parse(cli('export', latest.id, '--format', 'json').stdout);
    const thought = messages.flatMap((m) => m.message.parts).find((p) => p.type === 'thinking');
    assert.equal(thought.hidden, true, 'stored as hidden, with its text');
    assert.ok(thought.text.length > 0);
    const markdown = cli('export', latest.id, '--format', 'md').stdout;
    assert.ok(!markdown.includes(thought.text.slice(0, 40)), 'the export leaves it out');
  });
});
