// The built UI checked by axe-core (a checker no one here wrote) in Chromium, screen by screen
// in both themes: the first run, an empty chat, the model picker at both steps, Settings, an
// answer streaming, a thread with its thoughts folded and open, an error card and the start-up
// problems screen; with less motion asked for, nothing moves. Any serious or critical violation fails; the moderate ones are listed so
// that they can be driven to none.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';

import { EVERYTHING_SERVER, rerunWithHaikuHigh, screenshot, startBrowser } from '../support/ui-page.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

/** axe's violations on the page as it is now: impact, rule, how many nodes, where. */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      impact: v.impact,
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1).join(' ').trim()}`),
    }));
  });
}

/** Fails on a serious or critical violation; lists the moderate and minor ones. */
async function check(page, screen) {
  const found = await violations(page);
  const blocking = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of found.filter((f) => !blocking.includes(f))) {
    console.log(`# ${screen}: ${v.impact} ${v.id} ×${v.nodes.length} (${v.help}): ${v.nodes.slice(0, 3).join('; ')}`);
  }
  assert.deepEqual(
    blocking.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.slice(0, 5).join('\n  ')}`),
    [],
    `${screen}: serious or critical violations`,
  );
}

async function send(page, text) {
  const input = page.getByTestId('composer-input');
  await input.fill(text);
  await input.press('Enter');
}

describe('Settings by keyboard', () => {
  it('lists its sections, goes to one with its heading focused, and filters them', async () => {
    const { page, problems } = await browser.open({ theme: 'light' });
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-close').waitFor();
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    assert.deepEqual(await nav.getByRole('button').allTextContents(), [
      'Providers', 'Copilot', 'Defaults', 'Appearance', 'Tools', 'History', 'Usage', 'Prices', 'Overrides', 'Profiles',
    ]);
    // From the filter, Tab reaches the list; Enter on History goes there.
    await page.getByTestId('settings-filter').focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'History');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 's-history');
    assert.ok(await page.locator('#s-history').isVisible());
    const top = await page.locator('#s-history').evaluate((h) => h.getBoundingClientRect().top - h.closest('.settings-body').getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 40, `the History heading is at the top of the panel (${top} px)`);
    await screenshot(page, 'ui-settings-sections');
    // Copilot is a card of Providers.
    await nav.getByRole('button', { name: 'Copilot' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'provider-copilot');
    // The filter keeps the sections that hold its words.
    await page.getByTestId('settings-filter').fill('thoughts older');
    const visible = () => page.locator('.settings-body section[aria-labelledby]:visible h3').allTextContents();
    assert.deepEqual(await visible(), ['History']);
    await page.getByTestId('settings-filter').fill('no such setting');
    assert.deepEqual(await visible(), []);
    await page.getByTestId('settings-none').waitFor();
    await check(page, 'Settings filtered to nothing');
    await page.getByTestId('settings-filter').fill('');
    assert.equal((await visible()).length, 9);
    // Esc leaves.
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('accessibility of every screen (axe-core)', () => {
  for (const theme of ['light', 'dark']) {
    it(`the first run, the picker at both steps and Settings (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme });
      await page.getByTestId('thread-empty').waitFor();
      await check(page, 'first run');
      await page.getByTestId('composer-input').focus();
      await page.keyboard.press('Control+m');
      await page.getByTestId('model-picker').waitFor();
      await check(page, 'picker, model step');
      await page.keyboard.press('Enter');
      await page.getByTestId('picker-level-option').first().waitFor();
      await check(page, 'picker, level step');
      await page.keyboard.press('Escape');
      await page.getByTestId('open-settings').click();
      await page.getByTestId('settings-close').waitFor();
      await check(page, 'Settings');
      assert.deepEqual(problems, []);
      await page.close();
    });

    it(`a streaming answer, its thoughts folded and open, and an error card (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS } });
      await page.evaluate(() => (window.__fake.hold = true));
      await send(page, 'How many primes are below 100?');
      await page.getByTestId('thought-live').waitFor();
      await check(page, 'streaming');
      await page.evaluate(() => window.__fake.release());
      await page.getByTestId('thought-preview').waitFor({ timeout: 15000 });
      await check(page, 'thoughts folded');
      await page.getByTestId('thought-header').click();
      await page.getByTestId('thought-body').waitFor();
      await check(page, 'thoughts open');
      // The next question waits for this answer's end (a slow machine may still be streaming it).
      await page.getByTestId('message-meta').waitFor({ timeout: 15000 });
      await page.evaluate(() => (window.__fake.next = { error: { code: 'rateLimited', message: 'Anthropic: 429 Too Many Requests (rate_limit_error)', retryAfterMs: 20000 }, at: 'answer' }));
      await send(page, 'And below 1000?');
      await page.getByTestId('error-card').waitFor({ timeout: 15000 });
      // Said at once, one time: by the page's assertive region, not by the card as well.
      await page.waitForFunction(() => document.querySelector('[data-testid="announce-assertive"]')?.textContent === 'The answer failed: Anthropic: 429 Too Many Requests (rate_limit_error)');
      assert.equal(await page.locator('[role="alert"], [aria-live="assertive"]').count(), 1);
      await check(page, 'error card');
      assert.deepEqual(problems, []);
      await page.close();
    });

    it(`the compare view, a tool's approval card and the Copilot sign-in (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: { ...DEFAULTS, mcpServers: [EVERYTHING_SERVER] }, keys: { anthropic: true }, copilotHold: true } });
      await send(page, 'First try');
      await page.getByTestId('message-meta').waitFor();
      await rerunWithHaikuHigh(page);
      const answer = page.getByTestId('message-assistant');
      await answer.getByTestId('versions').waitFor();
      await page.getByTestId('message-meta').last().waitFor();
      await answer.getByTestId('version-compare').click();
      await page.getByTestId('compare-view').waitFor();
      await check(page, 'compare view');
      await page.keyboard.press('Escape');
      await page.getByTestId('compare-view').waitFor({ state: 'detached' });

      await page.getByTestId('tools-button').click();
      await page.getByTestId('tools-panel').locator('[data-server="everything"] [data-testid="tools-server-toggle"]').check();
      await check(page, 'tools panel');
      await page.getByTestId('tools-panel').locator('.close').click();
      await send(page, 'Say hello with a tool.');
      await page.getByTestId('tool-approval').waitFor();
      await check(page, 'tool approval card');
      await page.getByTestId('tool-approval').getByRole('button', { name: /deny/i }).first().click();

      await page.getByTestId('open-settings').click();
      await page.getByTestId('provider-copilot').getByTestId('copilot-sign-in-start').click();
      await page.getByTestId('copilot-user-code').waitFor();
      await check(page, 'Copilot sign-in');
      assert.deepEqual(problems, []);
      await page.close();
    });

    it(`asked for less motion, nothing moves (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS } });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.evaluate(() => (window.__fake.hold = true));
      await send(page, 'How many primes are below 100?');
      await page.getByTestId('thought-live').waitFor();
      const moving = await page.evaluate(() =>
        [...document.querySelectorAll('*')]
          .map((el) => ({ el, cs: getComputedStyle(el) }))
          .filter(({ cs }) => (cs.animationName !== 'none' && parseFloat(cs.animationDuration) > 0.001) || parseFloat(cs.transitionDuration) > 0.001)
          .map(({ el }) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
      );
      assert.deepEqual(moving, []);
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      const movingAgain = await page.evaluate(() => [...document.querySelectorAll('*')].some((el) => getComputedStyle(el).animationName !== 'none'));
      assert.ok(movingAgain, 'without the preference, the thinking indicator moves (the check can fail)');
      await page.evaluate(() => window.__fake.release());
      assert.deepEqual(problems, []);
      await page.close();
    });

    it(`the start-up problems screen (${theme})`, async () => {
      const problem = {
        file: 'history',
        path: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
        message: 'the history database failed: file is not a database',
        remedy: 'moveAside',
      };
      const { page } = await browser.open({ theme, backend: { problems: [problem] }, shown: 'problem-history' });
      await check(page, 'start-up problems');
      await page.close();
    });
  }
});
