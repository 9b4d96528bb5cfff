// What the real app's web view (WebKitGTK) tells assistive technology: the roles and names
// its accessibility tree gives the main controls, read through WebDriver's computed role and
// label, as a screen reader would find them: the sidebar, the composer, the picker at both
// steps, an answer's thoughts as a disclosure, Settings as a dialog with its sections, and
// the page's live regions. Every control shown on each of those screens has a name.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { freePort, startDriver, waitFor } from '../support/app.mjs';
import { pickBudgetModelMedium, send, storeKey } from '../support/flows.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { Keys } from '../support/webdriver.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';

let dataHome;
let keyring;
let driver;
let mock;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-a11y-'));
  keyring = await startKeyring(dataHome);
  mock = await startMockProvider(STREAM, { port: await freePort() });
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

/** Role and name of the element at `css`, as the accessibility tree has them. */
async function read(s, css) {
  const el = await s.waitFind(css);
  return { role: await s.role(el), name: (await s.label(el)).trim() };
}

/**
 * Every control shown now (outside what a modal dialog makes inert, unless `within` names
 * the dialog), each with its role and name; those without a name are what a screen reader
 * would call "button" and nothing more.
 */
async function unnamedControls(s, within = 'body') {
  const marked = await s.execute(
    `const scope = document.querySelector(arguments[0]);
     const controls = [...scope.querySelectorAll('button, input:not([type="hidden"]), textarea, select, a[href], [role="button"], [role="option"], [role="tab"], [tabindex="0"]')]
       .filter((el) => el.getClientRects().length > 0 && !el.closest('[inert], [aria-hidden="true"]') && getComputedStyle(el).visibility !== 'hidden');
     controls.forEach((el, i) => el.setAttribute('data-a11y-probe', String(i)));
     return controls.length;`,
    [within],
  );
  const unnamed = [];
  for (let i = 0; i < marked; i++) {
    const el = await s.find(`[data-a11y-probe="${i}"]`);
    const name = (await s.label(el)).trim();
    if (!name) unnamed.push(`${await s.role(el)}: ${await s.execute('return arguments[0].outerHTML.slice(0, 160)', [{ 'element-6066-11e4-a52e-4f735466cecf': el }])}`);
  }
  await s.execute(`document.querySelectorAll('[data-a11y-probe]').forEach((el) => el.removeAttribute('data-a11y-probe')); return true;`);
  assert.ok(marked > 5, `controls were found (${marked})`);
  return unnamed;
}

describe('the accessibility tree of the real app', () => {
  it('names the main controls with their roles, on every main screen', async () => {
    const s = await driver.newSession();
    try {
      await s.waitForText('[data-testid="status-version"]');

      // The shell.
      assert.deepEqual(await read(s, '[data-testid="new-chat"]'), { role: 'button', name: 'New chat' });
      assert.deepEqual(await read(s, '[data-testid="open-settings"]'), { role: 'button', name: 'Settings' });
      const search = await read(s, '[data-testid="search-input"]');
      assert.ok(['searchbox', 'textbox'].includes(search.role), `the search field is a search box (${search.role})`);
      assert.equal(search.name, 'Search conversations');
      assert.deepEqual(await read(s, '[data-testid="composer-input"]'), { role: 'textbox', name: 'Message' });
      assert.deepEqual(await read(s, 'main'), { role: 'main', name: 'Chat' });
      assert.equal((await read(s, '[data-testid="announce-polite"]')).role, 'status');
      assert.equal((await read(s, '[data-testid="announce-assertive"]')).role, 'alert');
      assert.deepEqual(await unnamedControls(s), [], 'the first screen');

      // Settings: a dialog named Settings, its sections a list of buttons.
      await storeKey(s, 'FAKE-key-not-real');
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      assert.deepEqual(await read(s, '[data-testid="settings-panel"]'), { role: 'dialog', name: 'Settings' });
      assert.deepEqual(await read(s, '[data-testid="settings-nav-history"]'), { role: 'button', name: 'History' });
      assert.equal((await read(s, '[data-testid="settings-filter"]')).name.length > 0, true);
      assert.deepEqual(await unnamedControls(s, '[data-testid="settings-panel"]'), [], 'Settings');
      await s.type(await s.find('[data-testid="settings-filter"]'), Keys.escape);
      await waitFor(async () => (await s.findAll('[data-testid="settings-panel"]')).length === 0, 'Settings to close');

      // The picker: a combobox over a listbox of options, at both steps.
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      assert.equal((await read(s, '[data-testid="picker-filter"]')).role, 'combobox');
      assert.equal((await read(s, '#picker-list')).role, 'listbox');
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'opus 4.5');
      const model = await read(s, '[data-testid="picker-model-option"][data-model="claude-opus-4-5"]');
      assert.equal(model.role, 'option');
      assert.match(model.name, /^Claude Opus 4\.5/);
      await s.click(await s.waitFind('[data-testid="picker-model-option"][data-model="claude-opus-4-5"]'));
      const medium = '[data-testid="picker-level-option"][data-choice="medium"]';
      assert.deepEqual(await read(s, medium), { role: 'option', name: 'medium' });
      const meaning = await s.execute(
        `const option = document.querySelector(arguments[0]);
         return document.getElementById(option.getAttribute('aria-describedby') ?? '')?.textContent ?? null;`,
        [medium],
      );
      assert.match(meaning ?? '', /^[\d,]+ tokens$/, `medium is described by what it means (${meaning})`);
      assert.deepEqual(await unnamedControls(s, '[data-testid="model-picker"]'), [], 'the picker');
      await pickBudgetModelMedium(s);

      // An answer: what the polite region says as it streams is listened to.
      await s.execute(
        `window.__said = [];
         const region = document.querySelector('[data-testid="announce-polite"]');
         new MutationObserver(() => region.textContent && window.__said.push(region.textContent)).observe(region, { childList: true, characterData: true, subtree: true });
         return true;`,
      );
      await send(s, 'How many primes are below 100?');
      await waitFor(async () => (await s.findAll('[data-testid="message-meta"]')).length > 0, 'the answer to end', 30000);
      // Its thoughts are a disclosure: a button that says whether it is open.
      const header = await s.waitFind('[data-testid="thought-header"]');
      assert.equal(await s.role(header), 'button');
      assert.match((await s.label(header)).trim(), /^Thought/);
      assert.equal(await s.attribute(header, 'aria-expanded'), 'false');
      await s.click(header);
      await waitFor(async () => (await s.attribute(await s.find('[data-testid="thought-header"]'), 'aria-expanded')) === 'true', 'the thoughts to open');
      assert.equal((await read(s, '[data-testid="thought-pane"]')).name, "The model's thoughts");
      await waitFor(async () => (await s.execute('return window.__said.at(-1)')) === 'Answer done', 'the answer to be announced as done');
      const said = await s.execute('return window.__said');
      assert.equal(said[0], 'Thinking', JSON.stringify(said));
      assert.ok(said.length <= 3, `said sparingly, not per token: ${JSON.stringify(said)}`);
      assert.deepEqual(await unnamedControls(s), [], 'a thread with its thoughts open');
    } finally {
      await s.end().catch(() => {});
    }
  });
});
