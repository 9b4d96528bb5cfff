// The real app in WebKitGTK against the mock provider on loopback, with a fake key in a real
// Secret Service: add a key, pick a model and level, send, watch the thoughts stream and fold
// and the answer arrive, restart and find the conversation with its thoughts, cancel
// mid-stream and keep the partial answer, and see a 401 become an error card.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { freePort, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir, repoRoot } from '../support/paths.mjs';
import { pickBudgetModelMedium, send, textOf } from '../support/flows.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const FAKE_KEY = 'FAKE-key-not-real';

let dataHome;
let keyring;
let driver;
let mock;
let port;


/** (Re)starts the mock provider on the same port, so the app's base URL stays valid. */
async function serve(fixture, options = {}) {
  mock?.stop();
  await new Promise((r) => setTimeout(r, 150));
  mock = await startMockProvider(fixture, { port, ...options });
}

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-chat-'));
  keyring = await startKeyring(dataHome);
  port = await freePort();
  await serve(STREAM);
  // Point Anthropic at the mock before the app starts; everything else goes through the UI.
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(
    join(appDir, 'settings.json'),
    JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }),
  );
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

async function withApp(body) {
  const session = await driver.newSession();
  try {
    await session.waitForText('[data-testid="status-version"]');
    return await body(session);
  } finally {
    await session.end().catch(() => {});
  }
}

const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());

describe('chatting in the real app', () => {
  it('adds a key, picks a level, streams thoughts that fold, and keeps it all across a restart', async () => {
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.type(await s.waitFind('[data-testid="key-input-anthropic"]'), FAKE_KEY);
      await s.click(await s.waitFind('[data-testid="key-save-anthropic"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="key-status-anthropic"]')).includes('Key stored'), 'key stored');
      const page = await s.execute('return document.body.innerText');
      assert.ok(!page.includes(FAKE_KEY), 'the key is never shown back');
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      await pickBudgetModelMedium(s);
      await send(s, 'How do I cross the street safely?');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 0, 'thoughts stream live', 15000);
      assert.match(await textOf(s, '[data-testid="thought-pane"]'), /Thinking…/);
      await shot(s, 'thinking');
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'the answer arrives', 20000);
      await waitFor(async () => (await textOf(s, '[data-testid="thought-header"]')).includes('Thought for'), 'the thought folds', 20000);
      await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the answer is complete', 30000);
      const meta = () =>
        s.execute(`return [...document.querySelectorAll('[data-testid="message-assistant"] [data-testid="message-meta"]')].map((e) => e.textContent).join(' | ')`);
      await waitFor(async () => /\bout\b/.test(await meta()), 'token counts are shown');
      await shot(s, 'answered');
    });
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'the answer is kept');
      await shot(s, 'restarted');
      assert.match(await textOf(s, '[data-testid="thought-header"]'), /Thought for/, 'its thoughts are kept');
      assert.match(await textOf(s, '[data-testid="message-assistant"]'), /crossing/);
    });
  });

  it('edits a question sent a moment ago, in the same window', async () => {
    await serve(STREAM);
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      const settled = async (n) => {
        await waitFor(async () => (await s.findAll('[data-testid="message-assistant"]')).length === n, `answer ${n}`, 20000);
        await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, `answer ${n} is complete`, 30000);
      };
      await send(s, 'First question.');
      await settled(1);
      await send(s, 'Second question.');
      await settled(2);
      const ids = await s.execute(`return [...document.querySelectorAll('[data-testid="message-user"]')].map((e) => e.dataset.messageId ?? '')`);
      assert.equal(new Set(ids).size, ids.length, `every question has its own id: ${ids}`);
      const edits = await s.findAll('[data-testid="edit-message"]');
      await s.click(edits[edits.length - 1]);
      const field = await s.waitFind('[data-testid="edit-input"]');
      await s.clear(field);
      await s.type(field, 'The second question, edited.');
      await s.click(await s.waitFind('[data-testid="edit-send"]'));
      await waitFor(
        async () => (await s.execute(`return [...document.querySelectorAll('[data-testid="message-user"]')].map((e) => e.innerText).join(' | ')`)).includes('edited'),
        'the edited question is shown',
      );
      await settled(2);
      // The original is kept as the other version, and comes back with its answer.
      const questions = () => s.execute(`return [...document.querySelectorAll('[data-testid="message-user"]')].map((e) => e.innerText).join(' | ')`);
      await waitFor(async () => (await textOf(s, '[data-testid="message-user"] [data-testid="version-count"]')) === '2 / 2', 'the switcher shows two versions');
      await s.click(await s.waitFind('[data-testid="message-user"] [data-testid="version-previous"]'));
      await waitFor(async () => (await questions()).includes('Second question.') && !(await questions()).includes('edited'), 'the original is shown again');
      assert.equal((await s.findAll('[data-testid="message-assistant"]')).length, 2, 'with its answer');
      await s.click(await s.waitFind('[data-testid="message-user"] [data-testid="version-next"]'));
      await waitFor(async () => (await questions()).includes('edited'), 'the edit is shown again');
    });
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await waitFor(
        async () => (await s.execute(`return [...document.querySelectorAll('[data-testid="message-user"]')].map((e) => e.innerText).join(' | ')`)).includes('The second question, edited.'),
        'the edit was stored',
      );
    });
    // The history holds every version: both second questions, each after the first answer;
    // a transcript is the path shown, the edited one.
    const cli = (...args) =>
      spawnSync(join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli'), ['--db', join(dataHome, IDENTIFIER, 'ponder.sqlite3'), ...args], {
        encoding: 'utf8',
      });
    const [latest] = JSON.parse(cli('conversations', '--json').stdout);
    const { messages } = JSON.parse(cli('export', latest.id, '--format', 'json').stdout);
    const asked = messages.filter((m) => m.message.role === 'user');
    assert.deepEqual(
      asked.map((m) => m.message.parts[0].text),
      ['First question.', 'Second question.', 'The second question, edited.'],
    );
    assert.equal(asked[2].parentId, asked[1].parentId, 'the edit is a version beside the original');
    const transcript = cli('export', latest.id, '--format', 'md').stdout;
    assert.ok(transcript.includes('The second question, edited.') && !transcript.includes('Second question.'), transcript);
  });

  it('stops mid-stream and keeps the partial answer', async () => {
    await serve(STREAM, { chunkSize: 32, delayMs: 60 });
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await send(s, 'Take your time.');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 20, 'thinking started', 15000);
      await s.click(await s.waitFind('[data-testid="stop"]'));
      await waitFor(async () => (await s.findAll('[data-testid="stopped"]')).length > 0, 'marked as stopped', 10000);
      const kept = await textOf(s, '[data-testid="thought-pane"]');
      assert.ok(kept.length > 0, 'the partial thoughts stay');
    });
  });

  it('shows a 401 as an error card with the provider message and keeps the question', async () => {
    const body = join(dataHome, 'unauthorized.json');
    writeFileSync(body, JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    await serve(body, { status: 401 });
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await send(s, 'Are you there?');
      await waitFor(async () => (await textOf(s, '[data-testid="error-message"]')).includes('invalid x-api-key'), 'the error card', 15000);
      assert.match(await textOf(s, '[data-testid="message-user"]'), /Are you there\?/);
      await shot(s, 'error');
    });
  });
});
