// What a person does in the real app, for the WebDriver suites: read an element's text, store
// a key in Settings, pick Claude Sonnet 4.5 at medium, send a message.
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

/** Stores `key` for Anthropic through Settings, and closes them. */
export async function storeKey(s, key) {
  await s.click(await s.waitFind('[data-testid="open-settings"]'));
  await s.type(await s.waitFind('[data-testid="key-input-anthropic"]'), key);
  await s.click(await s.waitFind('[data-testid="key-save-anthropic"]'));
  await waitFor(async () => (await textOf(s, '[data-testid="key-status-anthropic"]')).includes('Key stored'), 'key stored');
  await s.click(await s.waitFind('[data-testid="settings-close"]'));
}

/** Claude Sonnet 4.5 at medium, through the two-step picker. */
export async function pickSonnetMedium(s) {
  await s.click(await s.waitFind('[data-testid="model-button"]'));
  await s.type(await s.waitFind('[data-testid="picker-filter"]'), 'sonnet 4.5');
  const sonnet = '[data-testid="picker-model-option"][data-model="claude-sonnet-4-5"]';
  // The list refreshes once a key is stored; pick the model when it no longer asks for one.
  await waitFor(async () => !(await textOf(s, sonnet)).includes('needs a key') && (await textOf(s, sonnet)) !== '', 'the model is ready');
  await s.click(await s.waitFind(sonnet));
  await s.click(await s.waitFind('[data-testid="picker-level-option"][data-choice="medium"]'));
  await waitFor(async () => (await textOf(s, '[data-testid="model-button-level"]')).includes('medium'), 'medium chosen');
}

export async function send(s, text) {
  await s.type(await s.waitFind('[data-testid="composer-input"]'), text + Keys.enter);
}
