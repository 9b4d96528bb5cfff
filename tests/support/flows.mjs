// What a person does in the real app, for the WebDriver suites: read an element's text, store
// a key in Settings, pick Claude Opus 4.5 at medium, send a message.
import { waitFor } from './app.mjs';
import { Keys } from './webdriver.mjs';

/** The text of the first element matching `css`, or '' when there is none. */
export async function textOf(s, css) {
  try {
    return await s.text(await s.find(css));
  } catch {
    return '';
  }
}

/**
 * Stores `key` for Anthropic through Settings, and closes them. The test script's keyring
 * daemon has been seen to abort and be started again; Settings read the keyring's state each
 * time they open, so a keyring that was not answering a moment ago is given two more tries.
 */
export async function storeKey(s, key) {
  for (let attempt = 1; ; attempt += 1) {
    await s.click(await s.waitFind('[data-testid="open-settings"]'));
    try {
      await s.waitFind('[data-testid="key-input-anthropic"]', 8000);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  await s.type(await s.waitFind('[data-testid="key-input-anthropic"]'), key);
  await s.click(await s.waitFind('[data-testid="key-save-anthropic"]'));
  await waitFor(async () => (await textOf(s, '[data-testid="key-status-anthropic"]')).includes('Key stored'), 'key stored');
  await s.click(await s.waitFind('[data-testid="settings-close"]'));
}

/** Claude Opus 4.5 (a budget model that is not due to retire) at medium, through the
 * two-step picker. */
export async function pickBudgetModelMedium(s) {
  const model = '[data-testid="picker-model-option"][data-model="claude-opus-4-5"]';
  const medium = '[data-testid="picker-level-option"][data-choice="medium"]';
  // The model list refreshes in the background (once a key is stored, and from the providers'
  // live lists); a click that lands while it re-renders may miss, so the pick is tried again.
  for (let attempt = 1; ; attempt += 1) {
    if ((await s.findAll(model)).length === 0 && (await s.findAll(medium)).length === 0) {
      await s.click(await s.waitFind('[data-testid="model-button"]'));
      await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'opus 4.5');
    }
    try {
      if ((await s.findAll(medium)).length === 0) {
        await waitFor(async () => !(await textOf(s, model)).includes('needs a key') && (await textOf(s, model)) !== '', 'the model is ready', 15000);
        await s.click(await s.waitFind(model));
      }
      await s.click(await s.waitFind(medium, 4000));
      await waitFor(async () => (await textOf(s, '[data-testid="model-button-level"]')).includes('medium'), 'medium chosen', 4000);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      // Close whatever is open and start the pick again.
      await s.execute(`window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })); return true;`).catch(() => {});
      await s.type(await s.find('[data-testid="composer-input"]'), Keys.escape).catch(() => {});
    }
  }
}

export async function send(s, text) {
  await s.type(await s.waitFind('[data-testid="composer-input"]'), text + Keys.enter);
}
