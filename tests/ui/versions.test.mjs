// Every version kept, in the built UI against the fake backend: regenerate adds an answer
// beside the first and the ‹ 1 / 2 › switcher moves between them; an edited question is a
// version of the original, whose answers come back with it; a deleted version comes back
// with Undo; "Rerun with…" answers again with another model and level; the compare view shows
// the answers side by side and goes on from the one picked.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { rerunWithHaikuHigh, screenshot, startBrowser } from '../support/ui-page.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

async function send(page, text) {
  const input = page.getByTestId('composer-input');
  await input.fill(text);
  await input.press('Enter');
}

/** The id of the answer shown, as the backend knows it. */
const answerShown = (page) =>
  page.evaluate(() => {
    const [c] = [...window.__fake.conversations.values()];
    return c.messages.filter((m) => m.role === 'assistant').at(-1)?.id ?? null;
  });

const countOf = async (locator) => (await locator.getByTestId('version-count').textContent()).trim();

describe('versions of a message', () => {
  for (const theme of ['light', 'dark']) {
    it(`regenerate keeps both answers and the switcher moves between them (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS } });
      await send(page, 'First try');
      await page.getByTestId('message-meta').waitFor();
      const first = await answerShown(page);
      assert.equal(await page.getByTestId('versions').count(), 0, 'one answer, no switcher');

      await page.getByTestId('regenerate').click();
      const answer = page.getByTestId('message-assistant');
      await answer.getByTestId('versions').waitFor();
      assert.equal(await countOf(answer), '2 / 2');
      const second = await answerShown(page);
      assert.notEqual(second, first);
      assert.equal(await answer.count(), 1, 'one answer shown at a time');
      // Each answer's cost under it; the conversation's, every version included, in the header.
      assert.match(await answer.getByTestId('message-meta').textContent(), /\$0\.03/);
      assert.equal(await page.getByTestId('chat-cost').textContent(), '$0.06');
      // Beside it, what both versions took: their output tokens summed.
      assert.match(await page.getByTestId('chat-totals').textContent(), /3,780 output tokens/);
      await screenshot(page, `ui-versions-${theme}`);

      await answer.getByTestId('version-previous').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="version-count"]')?.textContent.trim() === '1 / 2');
      assert.equal(await answerShown(page), first);
      assert.equal(await answer.getByTestId('version-previous').isDisabled(), true);
      await answer.getByTestId('version-next').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="version-count"]')?.textContent.trim() === '2 / 2');
      assert.equal(await answerShown(page), second);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('an edited question is a version; the original comes back with its answer', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS } });
    await send(page, 'First try');
    await page.getByTestId('message-meta').waitFor();
    const firstAnswer = await answerShown(page);
    await page.getByTestId('message-user').hover();
    await page.getByTestId('edit-message').click();
    await page.getByTestId('edit-input').fill('Second try');
    await page.getByTestId('edit-send').click();
    const user = page.getByTestId('message-user');
    await user.getByTestId('versions').waitFor();
    assert.equal((await user.locator('.bubble').textContent()).trim(), 'Second try');
    assert.equal(await countOf(user), '2 / 2');

    await user.getByTestId('version-previous').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="message-user"] .bubble')?.textContent.trim() === 'First try');
    assert.equal(await answerShown(page), firstAnswer, 'the original question keeps its answer');
    assert.equal(await page.getByTestId('message-assistant').count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('deletes the version shown, shows the one beside it, and Undo brings it back', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS } });
    await send(page, 'First try');
    await page.getByTestId('message-meta').waitFor();
    const first = await answerShown(page);
    await page.getByTestId('regenerate').click();
    const answer = page.getByTestId('message-assistant');
    await answer.getByTestId('versions').waitFor();
    const second = await answerShown(page);

    await answer.getByTestId('version-delete').click();
    await page.getByTestId('note').filter({ hasText: 'Deleted that version' }).waitFor();
    assert.equal(await answerShown(page), first, 'the version beside it is shown');
    assert.equal(await page.getByTestId('versions').count(), 0, 'one version left');

    await page.getByTestId('note-undo').click();
    await answer.getByTestId('versions').waitFor();
    assert.equal(await answerShown(page), second, 'the deleted version is back, and shown');
    assert.equal(await countOf(answer), '2 / 2');
    assert.equal(await page.getByTestId('note').filter({ hasText: 'Deleted that version' }).count(), 0, 'the note goes with the undo');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('reruns an answer with another model and level, beside the first, and keeps the conversation’s own', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, keys: { anthropic: true } } });
    await send(page, 'First try');
    await page.getByTestId('message-meta').waitFor();
    const before = (await page.getByTestId('model-button').textContent()).trim();
    await rerunWithHaikuHigh(page);
    const answer = page.getByTestId('message-assistant');
    await answer.getByTestId('versions').waitFor();
    assert.equal(await countOf(answer), '2 / 2');
    assert.match(await answer.getByTestId('message-meta').textContent(), /claude-haiku-4-5 · high/);
    const call = await page.evaluate(() => window.__calls.find((c) => c.cmd === 'rerun')?.args.request);
    assert.deepEqual({ provider: call.provider, model: call.model, choice: call.choice, shows: call.shows }, { provider: 'anthropic', model: 'claude-haiku-4-5', choice: 'high', shows: 'new' });
    assert.equal((await page.getByTestId('model-button').textContent()).trim(), before, 'the conversation keeps its model and level');
    await answer.getByTestId('version-previous').click();
    await page.waitForFunction(() => /claude-sonnet-4-5 · medium/.test(document.querySelector('[data-testid="message-meta"]')?.textContent ?? ''));
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const theme of ['light', 'dark']) {
    it(`compares the answers side by side and goes on from the one picked (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS, keys: { anthropic: true } } });
      await send(page, 'First try');
      await page.getByTestId('message-meta').waitFor();
      const first = await answerShown(page);
      await rerunWithHaikuHigh(page);
      const answer = page.getByTestId('message-assistant');
      await answer.getByTestId('versions').waitFor();
      const second = await answerShown(page);

      await answer.getByTestId('version-compare').click();
      const view = page.getByTestId('compare-view');
      const columns = view.getByTestId('compare-column');
      await columns.nth(1).waitFor();
      assert.equal(await columns.count(), 2);
      // Oldest first: the medium answer, then the rerun at high, each with what its level meant.
      assert.equal(await columns.nth(0).getByTestId('compare-level').textContent(), 'medium — 43,008 tokens');
      assert.equal(await columns.nth(1).getByTestId('compare-level').textContent(), 'high — 32,000 tokens');
      assert.match(await columns.nth(0).locator('.model').textContent(), /Claude Sonnet 4\.5/);
      assert.match(await columns.nth(1).locator('.model').textContent(), /Claude Haiku 4\.5/);
      for (const i of [0, 1]) {
        assert.match(await columns.nth(i).getByTestId('compare-thinking').textContent(), /^\d+\.\d s$/);
        assert.match(await columns.nth(i).getByTestId('compare-output').textContent(), /^[\d,]+$/);
        assert.equal(await columns.nth(i).getByTestId('compare-first').textContent(), '0.4 s');
        assert.equal(await columns.nth(i).getByTestId('compare-cost').textContent(), '$0.03');
        assert.match(await columns.nth(i).getByTestId('compare-answer').textContent(), /25 primes/);
        assert.ok((await columns.nth(i).getByTestId('compare-thoughts').textContent()).length > 20, 'the thoughts are shown');
      }
      // The shown one is marked; the other can be picked.
      assert.equal(await columns.nth(1).getByTestId('compare-use').count(), 0);
      await screenshot(page, `ui-compare-${theme}`);

      // Scrolling one column's thoughts scrolls the other's (both made short enough to scroll).
      await view.evaluate((el) => el.querySelectorAll('[data-testid="compare-thoughts"]').forEach((t) => (t.style.maxHeight = '60px')));
      await columns.nth(0).getByTestId('compare-thoughts').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
        el.dispatchEvent(new Event('scroll'));
      });
      const other = await columns.nth(1).getByTestId('compare-thoughts').evaluate((el) => ({ top: el.scrollTop, room: el.scrollHeight - el.clientHeight }));
      assert.ok(other.room > 0 && other.top >= other.room - 1, `the other column followed: ${JSON.stringify(other)}`);

      await columns.nth(0).getByTestId('compare-use').click();
      await view.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.querySelector('[data-testid="version-count"]')?.textContent.trim() === '1 / 2');
      assert.equal(await answerShown(page), first);
      assert.notEqual(first, second);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});

describe('export', () => {
  it('offers every version for Markdown and HTML once there are versions', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS } });
    await send(page, 'First try');
    await page.getByTestId('message-meta').waitFor();
    await page.getByTestId('export-button').click();
    assert.equal(await page.getByTestId('export-every-version').count(), 0, 'one version: nothing to choose');
    await page.keyboard.press('Escape');
    await page.getByTestId('regenerate').click();
    await page.getByTestId('message-assistant').getByTestId('versions').waitFor();
    await page.getByTestId('export-button').click();
    await page.getByTestId('export-every-version').check();
    await page.getByRole('button', { name: 'Save as…' }).click();
    const args = await page.evaluate(() => window.__calls.filter((c) => c.cmd === 'export_conversation').at(-1).args);
    assert.equal(args.format, 'md');
    assert.equal(args.everyVersion, true);
    // JSON always keeps them; the menu says so instead.
    await page.getByTestId('export-button').click();
    await page.getByLabel('JSON (re-importable)').check();
    assert.equal(await page.getByTestId('export-every-version').count(), 0);
    assert.match(await page.getByRole('dialog', { name: 'Export this conversation' }).textContent(), /JSON keeps every version/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('ask at several levels', () => {
  for (const theme of ['light', 'dark']) {
    it(`asks one question at low and high at once, keeps both, and compares them (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: DEFAULTS } });
      await page.getByTestId('composer-input').fill('Is 1,000,003 prime?');
      await page.getByTestId('ask-several').click();
      const chooser = page.getByTestId('levels-chooser');
      await chooser.waitFor();
      const ticked = await chooser.locator('[data-testid="levels-option"]:checked').evaluateAll((els) => els.map((e) => e.dataset.choice));
      assert.deepEqual(ticked, ['low', 'high'], 'low and high to start with');
      // Each level says what it means for this model.
      assert.match(await chooser.textContent(), /high — 64,000 tokens/);
      await screenshot(page, `ui-ask-several-${theme}`);
      await chooser.getByTestId('levels-ask').click();
      await chooser.waitFor({ state: 'detached' });

      // One question stored; the first level is the answer shown, the other its version.
      const note = page.getByTestId('note').filter({ hasText: /Ask(ing|ed) at low and high/ });
      await note.waitFor();
      await page.waitForFunction(() => /Asked at low and high/.test(document.querySelector('[data-testid="note-headline"]')?.textContent ?? ''), null, { timeout: 20_000 });
      assert.match(await note.textContent(), /low — the answer shown/);
      assert.match(await note.textContent(), /high — answered in \d+ s/);
      const calls = await page.evaluate(() => window.__calls.filter((c) => ['send_message', 'rerun'].includes(c.cmd)).map((c) => ({ cmd: c.cmd, args: c.args })));
      assert.deepEqual(
        calls.map((c) => c.cmd),
        ['send_message', 'rerun'],
      );
      assert.equal(calls[0].args.request.once, 'low');
      assert.equal(calls[1].args.request.choice, 'high');
      assert.equal(calls[1].args.request.shows, 'current', 'the answer shown stays shown');
      const question = await page.evaluate(() => [...window.__fake.conversations.values()][0].messages.find((m) => m.role === 'user').id);
      assert.equal(calls[1].args.request.messageId, question, 'the stored question is answered again');
      assert.equal(await page.getByTestId('message-user').count(), 1, 'asked once');
      const answer = page.getByTestId('message-assistant');
      await answer.getByTestId('versions').waitFor();
      assert.equal(await countOf(answer), '1 / 2');

      await note.getByTestId('note-compare').click();
      const view = page.getByTestId('compare-view');
      await view.waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="compare-column"]').length === 2);
      const levels = (await view.getByTestId('compare-level').allTextContents()).map((t) => t.trim());
      assert.deepEqual(levels, ['low — 22,016 tokens', 'high — 64,000 tokens']);
      await view.getByTestId('compare-close').click();
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('stops every level with Esc, and keeps what came', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS } });
    await page.evaluate(() => (window.__fake.hold = true));
    await page.getByTestId('composer-input').fill('Think hard, twice');
    await page.getByTestId('ask-several').click();
    await page.getByTestId('levels-chooser').getByTestId('levels-ask').click();
    const note = page.getByTestId('note').filter({ hasText: /Ask(ing|ed) at low and high/ });
    await note.waitFor();
    await page.waitForFunction(() => /high — thinking/.test(document.body.textContent ?? ''));
    await page.getByTestId('stop').waitFor();
    await page.getByTestId('composer-input').press('Escape');
    await page.waitForFunction(() => /Asked at low and high/.test(document.body.textContent ?? ''));
    assert.match(await note.textContent(), /high — stopped; what came is kept/);
    const cancelled = await page.evaluate(() => window.__calls.filter((c) => c.cmd === 'cancel_run').length);
    assert.equal(cancelled, 2, 'both runs stopped');
    await page.evaluate(() => window.__fake.release());
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('usage', () => {
  it('draws tokens per day with the thinking share, and tokens and cost per model', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, seed: true } });
    await send(page, 'First try');
    await page.getByTestId('message-meta').waitFor();
    await page.getByTestId('regenerate').click();
    await page.getByTestId('message-assistant').getByTestId('versions').waitFor();
    await page.keyboard.press('Control+,');
    const usage = page.getByTestId('usage-section');
    await usage.getByTestId('usage-chart').waitFor();
    await usage.scrollIntoViewIfNeeded();
    assert.match((await usage.getByTestId('usage-total').textContent()).replace(/\s+/g, ' '), /answers, [\d,]+ tokens in, [\d,]+ out, \d+% of them thinking · \$\d/);
    const days = usage.getByTestId('usage-day');
    assert.equal(await days.count(), 30);
    const today = new Date().toISOString().slice(0, 10);
    // Both versions of today's answer count: 1,890 tokens out each, and the seeded answers.
    const out = Number(await usage.locator(`[data-testid="usage-day"][data-day="${today}"]`).getAttribute('data-output'));
    assert.ok(out >= 2 * 1890, `${out} tokens out today`);
    const row = usage.getByTestId('usage-models').locator('tr[data-model="claude-sonnet-4-5"]');
    const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
    assert.match(cells[4], /^\d+%$/, 'the thinking share');
    assert.match(cells[5], /^\$\d+\.\d+$/, 'the cost');
    await screenshot(page, 'ui-usage');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('prices', () => {
  it('counts costs at the user’s own prices, figure by figure, and back at the listed ones', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS } });
    await send(page, 'What does this cost?');
    await page.getByTestId('message-meta').waitFor();
    const cost = page.getByTestId('chat-cost');
    const listed = await cost.textContent();
    assert.match(listed, /^\$\d+\.\d+$/);

    await page.keyboard.press('Control+,');
    const section = page.getByTestId('prices-section');
    await section.scrollIntoViewIfNeeded();
    assert.match(await section.textContent(), /model list of 2026-11-01/);
    await section.getByTestId('price-add').selectOption('anthropic/claude-sonnet-4-5');
    const row = section.locator('[data-testid="price-row"][data-model="anthropic/claude-sonnet-4-5"]');
    await row.waitFor();
    // Empty fields keep the listed prices, which they show.
    assert.equal(await row.getByTestId('price-output').getAttribute('placeholder'), '15');
    assert.match(await row.textContent(), /listed \$15\.00/);
    assert.equal(await section.getByTestId('price-add').locator('option[value="anthropic/claude-sonnet-4-5"]').count(), 0, 'a model is listed once');

    // Not a price: said, and nothing saved.
    await row.getByTestId('price-output').fill('-2');
    await row.getByTestId('price-output').press('Tab');
    await section.getByRole('alert').waitFor();
    assert.equal((await page.evaluate(() => window.__fake.settings().prices))[0].output, null);

    await row.getByTestId('price-output').fill('30');
    await row.getByTestId('price-output').press('Tab');
    await page.waitForFunction(() => window.__fake.settings().prices[0]?.output === 30);
    assert.equal(await section.getByRole('alert').count(), 0);
    await screenshot(page, 'ui-prices');
    await page.getByTestId('settings-close').click();
    // The answer's output tokens at $30 instead of $15: the cost on screen is counted again.
    await page.waitForFunction((before) => document.querySelector('[data-testid="chat-cost"]')?.textContent !== before, listed);
    const own = Number((await cost.textContent()).slice(1));
    assert.ok(own > Number(listed.slice(1)) * 1.5, `${own} at the user's price, ${listed} listed`);
    assert.match(await page.getByTestId('message-meta').textContent(), new RegExp(`\\$${own.toFixed(2).replace('.', '\\.')}`));

    // Back to the listed prices.
    await page.keyboard.press('Control+,');
    await section.locator('[data-testid="price-row"]').first().getByTestId('price-remove').click();
    await page.waitForFunction(() => window.__fake.settings().prices.length === 0);
    await page.getByTestId('settings-close').click();
    await page.waitForFunction((want) => document.querySelector('[data-testid="chat-cost"]')?.textContent === want, listed);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
