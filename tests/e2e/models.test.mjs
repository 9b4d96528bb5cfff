// The real app's picker offers only real model ids: the ones in Ponder's model list (LiteLLM's
// data, retired ones left out), the chat models a provider lists live (the mock provider serves
// an OpenAI-style list with embedding, speech and image models in it), and ids the user typed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { repoRoot } from '../support/paths.mjs';
import { textOf } from '../support/flows.mjs';

const LIST = join(repoRoot, 'tests/fixtures/lists/openai-models.json');
const MODELS = JSON.parse(readFileSync(join(repoRoot, 'src-tauri/core/src/catalog/models.json'), 'utf8')).models;

let dataHome;
let keyring;
let driver;
let mock;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-models-'));
  keyring = await startKeyring(dataHome);
  mock = await startMockProvider(LIST);
  const appDir = join(dataHome, 'dev.ponder.desktop');
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { openai: { enabled: true, baseUrl: mock.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

describe('the model picker in the real app', () => {
  it('offers only real ids: the model list, the live list without its non-chat models', async () => {
    const s = await driver.newSession();
    try {
      await s.waitForText('[data-testid="status-version"]');
      // A key for OpenAI, so that its live list is asked for.
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.type(await s.waitFind('[data-testid="key-input-openai"]'), 'FAKE-key-not-real');
      await s.click(await s.waitFind('[data-testid="key-save-openai"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-openai"]')).includes('Key stored'), 'key stored');
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      const offered = async () =>
        s.execute(
          `return [...document.querySelectorAll('[data-testid="picker-model-option"]')].map((e) => [e.dataset.provider, e.dataset.model])`,
        );
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      // The live list comes in the background: the preview id it has appears.
      await waitFor(async () => (await offered()).some(([p, m]) => p === 'openai' && m === 'gpt-5.7-preview'), 'the live list is merged', 20000);
      const rows = await offered();
      const live = JSON.parse(readFileSync(LIST, 'utf8')).data.map((m) => m.id);
      const today = new Date().toISOString().slice(0, 10);
      const listed = new Set(MODELS.filter((m) => !(m.retires && m.retires <= today)).map((m) => `${m.provider}/${m.id}`));
      const chatLive = new Set(['gpt-5.4', 'gpt-5.4-mini', 'o3', 'gpt-5.7-preview'].map((id) => `openai/${id}`));
      assert.ok(rows.length > 100, `${rows.length} models offered`);
      for (const [provider, model] of rows) {
        const key = `${provider}/${model}`;
        assert.ok(listed.has(key) || chatLive.has(key), `${key} is a real id from the model list or the live list`);
      }
      for (const id of live.filter((id) => !chatLive.has(`openai/${id}`))) {
        assert.ok(!rows.some(([p, m]) => p === 'openai' && m === id), `${id} is not a chat model`);
      }
      for (const pattern of ['gemini-3-pro', 'claude-sonnet-4', 'claude-3', 'gemini-2.0']) {
        assert.ok(!rows.some(([, m]) => m === pattern), `${pattern} is a pattern, not an id`);
      }
    } finally {
      await s.end().catch(() => {});
    }
  });
});
