// The sidebar with a long history: read a screenful first and the rest after, drawn a window
// of rows at a time, and still a list a keyboard and a screen reader can walk.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { startBrowser } from '../support/ui-page.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };
const COUNT = 5000;
const T0 = 1_767_225_600_000;

/** `COUNT` conversations, the newest last-numbered, the first three pinned. */
function history() {
  return Array.from({ length: COUNT }, (_, i) => ({
    id: `c-${i}`,
    title: `Conversation ${i}`,
    createdAt: T0 + i * 60_000,
    updatedAt: T0 + i * 60_000,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    pinned: i < 3,
    archived: false,
    cost: null,
    settings: { enabled: true, includeInContext: false, includeInResponse: true, format: 'field', stripFromContext: 'none', longContextCut: true, choice: 'high' },
    messages: [],
  }));
}

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

const listCalls = (page) => page.evaluate(() => window.__calls.filter((c) => c.cmd === 'list_conversations').map((c) => c.args.first ?? null));
const drawnTitles = (page) => page.getByTestId('conversation-list').locator('[data-testid="conversation"] .title').allInnerTexts();

describe('a sidebar of thousands of conversations', () => {
  it('reads a screenful first, the rest after, and draws only the rows near the view', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, conversations: history() } });
    await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === 'list_conversations').length === 2);
    assert.deepEqual(await listCalls(page), [200, null], 'the start of the list, then all of it');

    const list = page.getByTestId('conversation-list');
    const drawn = await drawnTitles(page);
    assert.equal(drawn[0], `Conversation ${COUNT - 1}`, 'the newest first');
    assert.ok(drawn.length > 10 && drawn.length < 80, `a window of rows is drawn, not ${drawn.length}`);
    assert.equal(await page.getByTestId('pinned-list').getByTestId('conversation').count(), 3);
    // Each drawn row says where it is in the whole list.
    const first = list.getByTestId('conversation').first();
    assert.equal(await first.getAttribute('aria-setsize'), String(COUNT - 3));
    assert.equal(await first.getAttribute('aria-posinset'), '1');

    // The scroll bar is the whole list's: scrolled to the end, the oldest is drawn.
    const scroller = page.locator('aside .scroll');
    const { height, rows } = await list.evaluate((el) => ({ height: el.getBoundingClientRect().height, rows: el.querySelector('li').getBoundingClientRect().height }));
    assert.ok(Math.abs(height - rows * (COUNT - 3)) < 2, `the list is ${height} px for ${COUNT - 3} rows of ${rows} px`);
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForFunction((last) => [...document.querySelectorAll('[data-testid="conversation-list"] .title')].some((t) => t.textContent === last), 'Conversation 3');
    const end = await drawnTitles(page);
    assert.ok(end.length > 10 && end.length < 80, `a window of rows at the end, not ${end.length}`);
    assert.equal(await list.getByTestId('conversation').last().getAttribute('aria-posinset'), String(COUNT - 3));

    // Opened from there, it is the one shown.
    await list.locator('.title').filter({ hasText: /^Conversation 3$/ }).click();
    await page.getByTestId('chat-title').filter({ hasText: /^Conversation 3$/ }).waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('walks row by row with the arrow keys past the rows first drawn', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, conversations: history() } });
    await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === 'list_conversations').length === 2);
    await page.getByTestId('search-input').focus();
    await page.keyboard.press('ArrowDown');
    // Three pinned, then 120 of the others: far past the window drawn at first.
    for (let i = 0; i < 123; i++) await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.querySelector('.title')?.textContent);
    assert.equal(focused, `Conversation ${COUNT - 1 - 120}`);
    assert.ok((await drawnTitles(page)).length < 80, 'still a window of rows');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('after an answer reads only the start of the list again, with its conversation on top', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, conversations: history() } });
    await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === 'list_conversations').length === 2);
    const list = page.getByTestId('conversation-list');
    await page.locator('aside .scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await list.locator('.title').filter({ hasText: /^Conversation 3$/ }).click();
    await page.getByTestId('chat-title').filter({ hasText: /^Conversation 3$/ }).waitFor();
    const input = page.getByTestId('composer-input');
    await input.fill('Anything new?');
    await input.press('Enter');
    await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === 'list_conversations').length === 3, null, { timeout: 20_000 });
    assert.deepEqual(await listCalls(page), [200, null, 200]);
    await page.locator('aside .scroll').evaluate((el) => (el.scrollTop = 0));
    // It had no messages: the fake backend names it from its first question, as the app does.
    await page.waitForFunction(() => document.querySelector('[data-testid="conversation-list"] .title')?.textContent === 'Anything new?');
    const drawn = await drawnTitles(page);
    assert.equal(drawn[1], `Conversation ${COUNT - 1}`);
    await page.locator('aside .scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="conversation-list"] .title')].some((t) => t.textContent === 'Conversation 4'));
    const end = await drawnTitles(page);
    assert.equal(end.at(-1), 'Conversation 4', 'no longer listed at its old place');
    assert.equal(await list.getByTestId('conversation').first().getAttribute('aria-setsize'), String(COUNT - 3));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
