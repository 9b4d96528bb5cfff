// The main flows done from the keyboard alone, in Chromium on the built UI: a new
// conversation, a model and level picked, a message sent and stopped, thoughts opened and
// folded, an answer rerun at another model and level, its versions switched and compared,
// the conversation exported, searched for and found, every Settings section visited, a
// tool's call allowed and another denied. No pointer is used. Everything the focus lands
// on shows a focus ring that stands out from what is behind it (3:1), every dialog is left
// with Esc, and the focus goes back to where it came from. What a screen reader is told as
// the answer streams is read from the page's live regions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { EVERYTHING_SERVER, screenshot, startBrowser } from '../support/ui-page.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

/**
 * What has the focus, and its ring: the outline (or, for a field that shows its focus on
 * its box, the box's ring), its colour's contrast with what is behind it, and a name to
 * report it by.
 */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: '(the page)', testid: null, ring: null };
    const channels = (color) => {
      const m = color.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }) => {
      const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const behind = (node) => {
      for (let n = node.parentElement; n; n = n.parentElement) {
        const c = channels(getComputedStyle(n).backgroundColor);
        if (c && c.a > 0.5) return c;
      }
      return channels(getComputedStyle(document.documentElement).backgroundColor) ?? { r: 255, g: 255, b: 255 };
    };
    const contrast = (a, b) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    // The ring is the element's own outline, or that of the box a field sits in.
    let ring = null;
    for (let n = el, depth = 0; n && depth < 3 && !ring; n = n.parentElement, depth++) {
      const cs = getComputedStyle(n);
      if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) {
        const color = channels(cs.outlineColor);
        ring = { on: n === el ? 'itself' : n.className, width: parseFloat(cs.outlineWidth), contrast: color ? contrast(color, behind(n)) : 0 };
      }
    }
    const rect = el.getBoundingClientRect();
    return {
      name: `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`,
      testid: el.dataset.testid ?? null,
      visible: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.top < innerHeight,
      ring,
    };
  });
}

/** Fails unless the focused element shows a ring of 2 px or more at 3:1 against its background. */
async function assertRing(page) {
  const f = await focused(page);
  assert.ok(f.ring, `${f.name} shows no focus ring`);
  assert.ok(f.ring.contrast >= 3, `${f.name}'s focus ring has a contrast of ${f.ring.contrast.toFixed(2)}:1 (3:1 needed)`);
  assert.ok(f.visible, `${f.name} has the focus but is out of sight`);
  return f;
}

/** Tab (or Shift+Tab) until the focus is on `selector`; every stop on the way shows its ring. */
async function tabTo(page, selector, { back = false, max = 80 } = {}) {
  const seen = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    // Past the last control the focus leaves the page (in the app's window, it comes round
    // to the first): nothing to show a ring on.
    if ((await focused(page)).testid === null && (await page.evaluate(() => document.activeElement === document.body))) continue;
    const f = await assertRing(page);
    seen.push(f.name);
    if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
  }
  assert.fail(`${selector} was not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; the focus went ${seen.join(' → ')}`);
}

const isFocused = (page, testid) => page.waitForFunction((t) => document.activeElement?.dataset.testid === t, testid, { timeout: 5000 });

/** The role, name and description Chromium's accessibility tree gives the element at `css`. */
async function accessible(page, css) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: css });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const [node] = nodes;
    return { role: node.role?.value, name: node.name?.value, description: node.description?.value ?? '' };
  } finally {
    await cdp.detach();
  }
}

/** Waits until the polite (or assertive) live region says `text`. */
function heard(page, text, assertive = false) {
  return page.waitForFunction(
    ([t, a]) => document.querySelector(`[data-testid="announce-${a ? 'assertive' : 'polite'}"]`)?.textContent === t,
    [text, assertive],
    { timeout: 10000 },
  );
}

/** Everything the polite region said while `action` ran, in order. */
async function spokenDuring(page, action) {
  await page.evaluate(() => {
    window.__said = [];
    const region = document.querySelector('[data-testid="announce-polite"]');
    window.__sayer = new MutationObserver(() => region.textContent && window.__said.push(region.textContent));
    window.__sayer.observe(region, { childList: true, characterData: true, subtree: true });
  });
  await action();
  return page.evaluate(() => {
    window.__sayer.disconnect();
    return window.__said;
  });
}

describe('everything from the keyboard', () => {
  for (const theme of ['light', 'dark']) {
    it(`a conversation from first question to export, with search and every Settings section (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS, keys: { anthropic: true } } });
      await page.getByTestId('thread-empty').waitFor();

      // A new conversation: the composer has the focus.
      await page.keyboard.press('Control+n');
      await isFocused(page, 'composer-input');
      await assertRing(page);

      // Model and level: Ctrl+M, type, Enter, type, Enter; the focus is back in the composer.
      await page.keyboard.press('Control+m');
      await isFocused(page, 'picker-filter');
      await page.keyboard.type('haiku 4.5');
      await page.keyboard.press('Enter');
      await page.getByTestId('picker-level-option').first().waitFor();
      const described = await accessible(page, '[data-testid="picker-level-option"][data-choice="high"]');
      assert.equal(described.role, 'option');
      assert.equal(described.name, 'high');
      assert.match(described.description, /^[\d,]+ tokens|^adaptive/, `the level's meaning is its description: ${JSON.stringify(described)}`);
      await page.keyboard.type('high');
      await page.keyboard.press('Enter');
      await page.getByTestId('model-picker').waitFor({ state: 'detached' });
      await isFocused(page, 'composer-input');
      assert.match(await page.getByTestId('model-button').textContent(), /Haiku 4\.5/);

      // Send, then stop with Esc; a reader hears it start and stop.
      await page.evaluate(() => (window.__fake.hold = true));
      const stopping = await spokenDuring(page, async () => {
        await page.keyboard.type('How many primes are below 100?');
        await page.keyboard.press('Enter');
        await page.getByTestId('thought-live').waitFor();
        await heard(page, 'Thinking');
        await page.keyboard.press('Escape');
        await heard(page, 'Answer stopped');
      });
      assert.deepEqual(stopping, ['Thinking', 'Answer stopped'], 'said once each, never per token');
      await page.evaluate(() => window.__fake.release());

      // Send again and let it finish.
      await isFocused(page, 'composer-input');
      const answering = await spokenDuring(page, async () => {
        await page.keyboard.type('And below 1000?');
        await page.keyboard.press('Enter');
        await heard(page, 'Answer done');
      });
      assert.equal(answering.at(0), 'Thinking');
      assert.match(answering.at(1), /^Thought for \d+ seconds?; answering$/);
      assert.equal(answering.at(-1), 'Answer done');
      assert.equal(answering.length, 3, `three things said: ${JSON.stringify(answering)}`);
      const last = page.getByTestId('message-assistant').last();
      await last.getByTestId('message-meta').waitFor();

      // Thoughts: Ctrl+O opens them all, again folds them; the pane's header is a disclosure.
      const header = last.getByTestId('thought-header');
      assert.equal(await header.getAttribute('aria-expanded'), 'false');
      await page.keyboard.press('Control+o');
      await last.getByTestId('thought-body').waitFor();
      assert.equal(await header.getAttribute('aria-expanded'), 'true');
      await page.keyboard.press('Control+o');
      await last.getByTestId('thought-body').waitFor({ state: 'detached' });
      await tabTo(page, '[data-testid="thought-header"]', { back: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-expanded') === 'true');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-expanded') === 'false');

      // Rerun with another model and level, from the answer's own button.
      await tabTo(page, '[data-testid="rerun"]');
      await page.keyboard.press('Enter');
      await isFocused(page, 'picker-filter');
      await page.keyboard.type('sonnet 4.5');
      await page.keyboard.press('Enter');
      await page.getByTestId('picker-level-option').first().waitFor();
      await page.keyboard.type('low');
      await page.keyboard.press('Enter');
      await last.getByTestId('versions').waitFor();
      await last.getByTestId('message-meta').waitFor({ timeout: 15000 });
      assert.equal(await last.getByTestId('version-count').textContent(), '2 / 2');

      // Switch to the first version and back; compare; Esc returns to the compare button.
      await tabTo(page, '[data-testid="version-previous"]');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid="version-count"]')?.textContent === '1 / 2');
      await tabTo(page, '[data-testid="version-compare"]');
      await page.keyboard.press('Enter');
      await page.getByTestId('compare-view').waitFor();
      assert.ok(await page.evaluate(() => document.querySelector('[data-testid="compare-view"]').contains(document.activeElement)), 'the compare view has the focus');
      await screenshot(page, `ui-keyboard-compare-${theme}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('compare-view').waitFor({ state: 'detached' });
      await isFocused(page, 'version-compare');

      // Export: the menu takes the focus on the chosen format; arrows choose, Enter saves.
      await tabTo(page, '[data-testid="export-button"]', { back: true });
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.matches('input[name="export-format"][value="md"]'));
      await assertRing(page);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => document.activeElement?.matches('input[name="export-format"][value="html"]:checked'));
      await page.keyboard.press('Escape');
      await isFocused(page, 'export-button');
      await page.keyboard.press('Enter');
      await tabTo(page, '[data-testid="export-save"]');
      await page.keyboard.press('Enter');
      await page.getByTestId('status-flash').filter({ hasText: /\.html/ }).waitFor();
      await isFocused(page, 'export-button');

      // Search: Ctrl+K, type, Down to the hit, Enter opens it.
      await page.keyboard.press('Control+n');
      await isFocused(page, 'composer-input');
      await page.keyboard.press('Control+k');
      await isFocused(page, 'search-input');
      await page.keyboard.type('primes');
      await page.getByTestId('search-hits').waitFor();
      await page.keyboard.press('ArrowDown');
      await assertRing(page);
      await page.keyboard.press('Enter');
      await page.getByTestId('message-assistant').first().waitFor();
      assert.match(await page.getByTestId('chat-title').textContent(), /primes/i);

      // Settings: Ctrl+, from the composer; each section from its list; Esc goes back there.
      await page.keyboard.press('Control+n');
      await isFocused(page, 'composer-input');
      await page.keyboard.press('Control+Comma');
      await page.getByTestId('settings-panel').waitFor();
      const sections = await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button').allTextContents();
      assert.equal(sections.length, 10);
      for (const section of sections) {
        await tabTo(page, `[data-testid="settings-nav-${section.toLowerCase()}"]`, { max: 200 });
        await page.keyboard.press('Enter');
        // The section's heading (or, for Copilot, its card) has the focus.
        const target = await page.waitForFunction(() => {
          const el = document.activeElement;
          return el?.closest('.settings-body') && el.tabIndex === -1 ? (el.textContent ?? '').trim().slice(0, 60) : null;
        });
        assert.ok((await target.jsonValue()).length > 0, `${section}: its heading has the focus`);
        await assertRing(page);
      }
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
      await isFocused(page, 'composer-input');

      // Opened from its button, Settings give the focus back to the button.
      await tabTo(page, '[data-testid="open-settings"]');
      await page.keyboard.press('Enter');
      await page.getByTestId('settings-panel').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
      await isFocused(page, 'open-settings');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('a tool turned on, one call allowed and one denied, from the keyboard', async () => {
    const { page, problems } = await browser.open({ theme: 'light', backend: { settings: { ...DEFAULTS, mcpServers: [EVERYTHING_SERVER] }, keys: { anthropic: true } } });
    await page.getByTestId('thread-empty').waitFor();
    await page.keyboard.press('Control+n');
    await isFocused(page, 'composer-input');
    await tabTo(page, '[data-testid="tools-button"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '[data-server="everything"] [data-testid="tools-server-toggle"]');
    await page.keyboard.press('Space');
    assert.equal(await page.locator('[data-server="everything"] [data-testid="tools-server-toggle"]').isChecked(), true);
    await page.keyboard.press('Escape');
    await page.getByTestId('tools-panel').waitFor({ state: 'detached' });
    await isFocused(page, 'tools-button');

    await tabTo(page, '[data-testid="composer-input"]', { back: true });
    await page.keyboard.type('Say hello with a tool.');
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-approval').waitFor();
    await page.waitForFunction(() => /^The tool .+ of everything asks to run: allow or deny it$/.test(document.querySelector('[data-testid="announce-polite"]')?.textContent ?? ''));
    // The card sits above the composer: Shift+Tab reaches its buttons.
    await tabTo(page, '[data-testid="tool-approval"] [data-testid="allow-once"]', { back: true });
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-result').first().waitFor({ state: 'attached', timeout: 20000 });
    await page.getByTestId('message-meta').last().waitFor({ timeout: 20000 });

    // Answered, the card is gone, and the focus is back in the composer.
    await isFocused(page, 'composer-input');
    await page.keyboard.type('Once more with the tool.');
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-approval').waitFor();
    await tabTo(page, '[data-testid="tool-approval"] [data-testid="deny"]', { back: true });
    await page.keyboard.press('Enter');
    await page.getByTestId('tool-approval').waitFor({ state: 'detached' });
    await page.getByTestId('message-meta').last().waitFor({ timeout: 20000 });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
