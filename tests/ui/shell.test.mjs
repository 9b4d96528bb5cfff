// The built UI in Debian's Chromium, with the Tauri IPC mocked: the shell renders in both
// themes, shows what the backend reports, saves the theme, and asks nothing of the network.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ABOUT, background, screenshot, startBrowser } from '../support/ui-page.mjs';

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

describe('the app shell in Chromium', () => {
  for (const theme of ['light', 'dark']) {
    it(`renders the layout in the ${theme} theme and takes a screenshot`, async () => {
      const { page, problems } = await browser.open({ theme });
      assert.equal(await page.getByTestId('status-version').textContent(), 'Ponder 0.1.0');
      assert.equal(await page.getByTestId('status-data-dir').textContent(), ABOUT.dataDir);
      assert.match(await page.getByTestId('sidebar-empty').textContent(), /No conversations yet/);
      assert.match(await page.getByTestId('thread-empty').textContent(), /What are you pondering\?/);
      assert.ok(await page.getByTestId('composer-input').isVisible(), 'the composer is visible');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      assert.equal(await page.getByTestId(`theme-${theme}`).getAttribute('aria-pressed'), 'true');
      const expected = theme === 'light' ? 'rgb(251, 251, 249)' : 'rgb(21, 22, 26)';
      assert.equal(await background(page), expected, `${theme} page background`);
      await screenshot(page, `ui-${theme}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('follows the system colour scheme when the theme is system', async () => {
    const { page, problems } = await browser.open({ theme: 'system', colorScheme: 'dark' });
    assert.equal(await background(page), 'rgb(21, 22, 26)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await background(page), 'rgb(251, 251, 249)');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('saves a new theme through the backend and repaints at once', async () => {
    const { page, problems } = await browser.open({ theme: 'light' });
    await page.getByTestId('theme-dark').click();
    assert.equal(await background(page), 'rgb(21, 22, 26)');
    const calls = await page.evaluate(() => window.__calls.map((c) => c.cmd));
    assert.deepEqual(
      calls.filter((c) => c === 'set_theme' || c === 'app_info' || c === 'get_settings'),
      ['app_info', 'get_settings', 'set_theme'],
    );
    await page.reload();
    await page.getByTestId('status-version').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('lays out a hidden sample of the thread once while a new window idles, and leaves nothing of it', async () => {
    const { page, problems } = await browser.open();
    // Watch from the very start of the page this time.
    await page.addInitScript(() => {
      window.__warmup = { boxes: [], codeBlocks: 0, thoughts: 0, questions: 0 };
      // Each element once, however its subtree was added.
      const seen = new WeakSet();
      const count = (node, css) =>
        [...(node.matches(css) ? [node] : []), ...node.querySelectorAll(css)].filter((el) => !seen.has(el) && seen.add(el)).length;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (!(node instanceof HTMLElement) || !node.closest('.warmup')) continue;
            if (node.classList.contains('warmup')) {
              window.__warmup.boxes.push({
                visibility: getComputedStyle(node).visibility,
                height: node.getBoundingClientRect().height,
                ariaHidden: node.getAttribute('aria-hidden'),
                inert: node.inert,
              });
            }
            window.__warmup.codeBlocks += count(node, '.prose pre code.hljs');
            window.__warmup.thoughts += count(node, '[data-testid="thought-pane"]');
            window.__warmup.questions += count(node, '[data-testid="message-user"]');
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page.getByTestId('status-version').waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('ponder:warmup').length > 0);
    const longest = await page.evaluate(() => performance.getEntriesByName('ponder:warmup:longest-step')[0]?.duration);
    assert.ok(longest > 0, 'its longest step is measured');
    await page.waitForTimeout(400);
    const seen = await page.evaluate(() => window.__warmup);
    assert.deepEqual(seen, {
      boxes: [{ visibility: 'hidden', height: 0, ariaHidden: 'true', inert: true }],
      codeBlocks: 2,
      thoughts: 1,
      questions: 1,
    });
    assert.equal(await page.evaluate(() => performance.getEntriesByName('ponder:warmup').length), 1, 'once');
    assert.equal(await page.locator('.warmup').count(), 0, 'removed after its frame');
    assert.equal(await page.getByTestId('message-assistant').count(), 0);
    assert.ok(await page.getByTestId('thread-empty').isVisible());
    assert.deepEqual(problems, []);
    await page.close();
  });
});
