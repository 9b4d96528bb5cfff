// Importing a whole history in Chromium, with the Tauri IPC mocked: the progress bar shows
// how far the import has come (bytes and conversations) from its first report, Cancel stops
// it and the summary says what stayed, the finished import is summed up and listed, and the
// button waits while one runs; imported projects filter the sidebar.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { screenshot, startBrowser } from '../support/ui-page.mjs';

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

async function openHistory(page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('import-file').scrollIntoViewIfNeeded();
}

describe('importing a history in Chromium', () => {
  for (const theme of ['light', 'dark']) {
    it(`shows the progress and stops on Cancel, keeping what was read (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { importHold: true } });
      await openHistory(page);
      await page.getByTestId('import-file').click();
      const progress = page.getByTestId('import-progress');
      await progress.waitFor();
      assert.equal(await page.getByTestId('import-figures').textContent().then((t) => t.replace(/\s+/g, ' ').trim()), '250 conversations · 3.8 MB of 38 MB');
      assert.equal(await page.getByTestId('import-bar').evaluate((el) => /** @type {HTMLProgressElement} */ (el).value), 0.1);
      assert.ok(await page.getByTestId('import-file').isDisabled(), 'one import at a time');
      await page.evaluate(() => window.__fake.importStep());
      await page.getByTestId('import-figures').filter({ hasText: '500 conversations' }).waitFor();
      await screenshot(page, `ui-import-progress-${theme}`);
      await page.getByTestId('import-cancel').click();
      await progress.waitFor({ state: 'detached' });
      const said = await page.getByTestId('status-flash').textContent();
      assert.match(said, /^Import cancelled\. Imported 2 conversations/);
      assert.ok(await page.getByTestId('import-file').isEnabled());
      const calls = await page.evaluate(() => window.__calls.map((c) => c.cmd));
      assert.ok(calls.includes('cancel_import'));
      // What was read before the cancel is listed.
      await page.keyboard.press('Escape');
      assert.equal(await page.getByText(/^Imported from ChatGPT \d$/).count(), 2);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('sums up a finished import and floats its progress over the window once Settings closes', async () => {
    const { page, problems } = await browser.open({ theme: 'light', backend: { importStepMs: 120 } });
    await openHistory(page);
    await page.getByTestId('import-file').click();
    await page.getByTestId('import-progress').waitFor();
    await page.keyboard.press('Escape');
    const floating = page.getByTestId('import-progress');
    await floating.waitFor();
    assert.equal(await floating.evaluate((el) => getComputedStyle(el).position), 'fixed');
    await floating.waitFor({ state: 'detached', timeout: 10_000 });
    assert.match(await page.getByTestId('status-flash').textContent(), /^Imported 10 conversations \(10 messages added\)/);
    assert.equal(await page.getByText(/^Imported from ChatGPT \d+$/).count(), 10);
    // Their project: the sidebar shows its conversations alone, and all again.
    const filter = page.getByTestId('project-filter');
    assert.deepEqual(await filter.locator('option').allTextContents(), ['All conversations', 'Chemistry']);
    await filter.selectOption('Chemistry');
    assert.equal(await page.getByText(/^Imported from ChatGPT \d+$/).count(), 5);
    await screenshot(page, 'ui-import-project-filter');
    await filter.selectOption('');
    assert.equal(await page.getByText(/^Imported from ChatGPT \d+$/).count(), 10);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
