// The real app in WebKitGTK with a server of the user's own and seed 002's overrides: add a
// vLLM-style server in Settings, type a model id it serves, pick a level, send, and check
// what reached the server; map Anthropic's levels and turn its caching off in Settings, give
// the conversation a system prompt, and check what Anthropic got (the mock providers on
// loopback record every request).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { Keys } from '../support/webdriver.mjs';

const STREAM = 'qwen/vercel-qwen3-max-reasoning-content-stream.jsonl';
const ANTHROPIC = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const FAKE_KEY = 'FAKE-key-not-real';

let dataHome;
let keyring;
let driver;
let mock;
let anthropic;
let record;
let anthropicRecord;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-providers-'));
  keyring = await startKeyring(dataHome);
  record = join(dataHome, 'requests.jsonl');
  anthropicRecord = join(dataHome, 'anthropic-requests.jsonl');
  mock = await startMockProvider(STREAM, { record });
  anthropic = await startMockProvider(ANTHROPIC, { record: anthropicRecord });
  const appDir = join(dataHome, 'dev.ponder.desktop');
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: anthropic.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  anthropic?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

/** Picks `value` in the select at `css`, as a person choosing from the list does. */
async function choose(s, css, value) {
  await s.execute(
    `const el = document.querySelector(arguments[0]); el.value = arguments[1]; el.dispatchEvent(new Event('change', { bubbles: true })); return null;`,
    [css, value],
  );
}

/** The chat requests a mock got (the live model list asks too). */
function chatRequests(file = record) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.method === 'POST')
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body));
}

describe('a server of your own in the real app', () => {
  it('is added in Settings, takes a typed model id, and gets the chat-template switch', async () => {
    const session = await driver.newSession();
    const s = session;
    try {
      await s.waitForText('[data-testid="status-version"]');
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      // Settings refresh their lists as they open; a click that lands during it may be lost.
      await waitFor(async () => {
        if ((await s.findAll('[data-testid="custom-name"]')).length > 0) return true;
        await s.click(await s.find('[data-testid="custom-provider-open"]'));
        return (await s.findAll('[data-testid="custom-name"]')).length > 0;
      }, 'the form for a server of your own opens');
      const name = await s.waitFind('[data-testid="custom-name"]');
      await s.type(name, 'Box');
      const url = await s.waitFind('[data-testid="custom-url"]');
      await s.clear(url);
      await s.type(url, `${mock.url}/v1`);
      await s.click(await s.waitFind('[data-testid="custom-add"]'));
      await waitFor(
        async () => (await s.findAll('[data-testid="provider-custom-box"]')).length > 0,
        'the server is listed',
        10000,
      ).catch(async (err) => {
        throw new Error(`${err.message}; the form says: ${await textOf(s, '[data-testid="custom-provider-form"]')}`);
      });
      assert.match(await textOf(s, '[data-testid="key-status-custom-box"]'), /No key needed/);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      // The picker offers the id with the new server; vLLM's rule has a thinking switch.
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'qwen3-32b');
      await s.click(await s.waitFind('[data-testid="picker-typed-option"][data-provider="custom-box"]'));
      await s.click(await s.waitFind('[data-testid="picker-level-option"][data-choice="off"]', 10000));
      const chosen = () => s.execute(`return document.querySelector('[data-testid="model-button"]')?.textContent ?? ''`);
      await waitFor(async () => (await chosen()).includes('qwen3-32b'), 'the typed model is chosen');
      writeFileSync(join(artifactsDir(), 'e2e-custom-provider.png'), await s.screenshot());

      await send(s, 'What is 2+2?');
      await waitFor(async () => (await s.findAll('[data-testid="message-meta"]')).length > 0, 'the answer is complete', 30000);
      const [body] = chatRequests();
      assert.equal(body.model, 'qwen3-32b');
      assert.deepEqual(body.chat_template_kwargs, { enable_thinking: false });
      assert.equal(body.stream, true);
      // The model is not in Ponder's rules: the turn says so, and keeps the note.
      assert.match(await textOf(s, '[data-testid="turn-notes"]'), /thinking support unknown/);
      await s.type(await s.find('[data-testid="composer-input"]'), Keys.escape).catch(() => {});
    } catch (err) {
      // The app's own output, for a crash.
      throw new Error(`${err.message}\n--- the driver and the app said:\n${driver.log().slice(-4000)}`);
    } finally {
      await session.end().catch(() => {});
    }
  });

  it("sends Anthropic the levels mapped in Settings, without caching, and the conversation's system prompt", async () => {
    const s = await driver.newSession();
    try {
      await s.waitForText('[data-testid="status-version"]');
      await storeKey(s, FAKE_KEY);
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.waitFind('[data-testid="override-add-provider"]');
      await choose(s, '[data-testid="override-add-provider"]', 'anthropic');
      await s.click(await s.waitFind('[data-testid="override-add"]'));
      const row = '[data-testid="override-row"][data-provider="anthropic"]';
      await s.waitFind(row);
      for (const [level, value] of [['minimal', '1024'], ['low', '8000'], ['medium', '16000'], ['high', '32000']]) {
        const field = await s.waitFind(`${row} [data-testid="override-${level}"]`);
        await s.clear(field);
        await s.type(field, value);
      }
      await choose(s, `${row} [data-testid="override-caching"]`, 'none');
      await waitFor(async () => (await textOf(s, `${row} [data-testid="override-meanings"]`)).includes('16,000 tokens'), 'the meaning of each level is shown');
      await s.click(await s.waitFind('[data-testid="override-save"]'));
      await waitFor(
        () => JSON.parse(readFileSync(join(dataHome, 'dev.ponder.desktop', 'settings.json'), 'utf8')).reasoningOverrides !== undefined,
        'the overrides are saved',
      );
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await s.click(await s.waitFind('[data-testid="reasoning-toggle"]'));
      const prompt = await s.waitFind('[data-testid="system-prompt"]');
      await s.type(prompt, 'Answer in French.');
      // A textarea saves on change, which WebKit fires when it loses focus.
      await s.execute(`document.querySelector('[data-testid="system-prompt"]').dispatchEvent(new Event('change', { bubbles: true })); return null;`);
      await send(s, 'Why is the sky blue?');
      await waitFor(async () => chatRequests(anthropicRecord).length > 0, 'Anthropic got the request', 20000);
      const [body] = chatRequests(anthropicRecord);
      assert.equal(body.thinking?.budget_tokens, 16000, JSON.stringify(body.thinking));
      assert.ok(!JSON.stringify(body).includes('cache_control'), 'no cache directives');
      assert.match(JSON.stringify(body.system), /Answer in French\./);
    } catch (err) {
      throw new Error(`${err.message}\n--- the driver and the app said:\n${driver.log().slice(-3000)}`);
    } finally {
      await s.end().catch(() => {});
    }
  });
});
