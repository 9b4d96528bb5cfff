// The real app in WebKitGTK with a server of the user's own and seed 002's overrides: add a
// vLLM-style server in Settings, type a model id it serves, pick a level, send, and check
// what reached the server (the mock provider on loopback records every request).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir } from '../support/paths.mjs';
import { send, textOf } from '../support/flows.mjs';
import { Keys } from '../support/webdriver.mjs';

const STREAM = 'qwen/vercel-qwen3-max-reasoning-content-stream.jsonl';

let dataHome;
let keyring;
let driver;
let mock;
let record;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-providers-'));
  keyring = await startKeyring(dataHome);
  record = join(dataHome, 'requests.jsonl');
  mock = await startMockProvider(STREAM, { record });
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

/** The chat requests the server got (the live model list asks too). */
function chatRequests() {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
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
      await s.click(await s.waitFind('[data-testid="custom-provider-open"]'));
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
});
