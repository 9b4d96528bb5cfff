// Tools in the built UI, in Chromium, against the fake backend: adding a server in Settings
// (its secrets to the keyring, not the settings), a server that fails with what it wrote to
// stderr, the composer's tools control, and a tool call in the thread — its approval card,
// its result card, the answer, the same turn read back from the store, and a conversation's
// tools kept in a profile.
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

describe('tools in the UI', () => {
  it('adds a server with a secret, tests it, and shows one that fails with its stderr', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, keys: { anthropic: true } } });
    await page.getByTestId('open-settings').click();
    const section = page.getByTestId('tools-section');
    await section.getByTestId('mcp-add').click();
    await section.getByTestId('mcp-name').fill('Everything');
    await section.getByTestId('mcp-command').fill('npx');
    await section.getByTestId('mcp-args').fill('-y\n@modelcontextprotocol/server-everything');
    await section.getByTestId('mcp-secret-env').fill('API_TOKEN=fake-token-not-real');
    await section.getByTestId('mcp-save').click();
    const row = section.locator('[data-testid="mcp-server"][data-server="everything"]');
    await row.waitFor();
    const saved = await page.evaluate(() => window.__fake.settings().mcpServers);
    assert.deepEqual(saved[0].transport.args, ['-y', '@modelcontextprotocol/server-everything']);
    assert.deepEqual(saved[0].transport.secretEnv, ['API_TOKEN']);
    assert.equal(saved[0].transport.env.API_TOKEN, '', 'the secret value is not in the settings');
    const calls = await page.evaluate(() => window.__calls.filter((c) => c.cmd === 'set_mcp_secret').map((c) => c.args));
    assert.deepEqual(calls.map((a) => [a.serverId, a.name, a.value]), [['everything', 'API_TOKEN', 'fake-token-not-real']]);

    await row.getByTestId('mcp-test').click();
    await page.getByTestId('mcp-test-result').filter({ hasText: 'echo' }).waitFor();
    assert.match(await row.getByTestId('mcp-state').textContent(), /Connected · 3 tools/);

    // A server whose program fails: the reason and its stderr.
    await section.getByTestId('mcp-add').click();
    await section.getByTestId('mcp-name').fill('Broken');
    await section.getByTestId('mcp-command').fill('fail');
    await section.getByTestId('mcp-save').click();
    const broken = section.locator('[data-testid="mcp-server"][data-server="broken"]');
    await broken.getByTestId('mcp-test').click();
    await broken.getByTestId('mcp-test-result').waitFor();
    assert.match(await broken.getByTestId('mcp-test-result').textContent(), /stopped/);
    assert.match(await broken.getByTestId('mcp-state').textContent(), /Failed/);
    await broken.locator('summary').click();
    assert.match(await broken.getByTestId('mcp-stderr').textContent(), /MCP_TOKEN is not set/);
    await screenshot(page, 'ui-settings-tools');

    assert.deepEqual(problems, []);
    await page.close();
  });

  it('warns about secret headers sent over plain http to another machine', async () => {
    const http = (id, url, secretHeaders) => ({
      id,
      name: id,
      enabled: true,
      transport: { type: 'http', url, headers: Object.fromEntries(secretHeaders.map((h) => [h, ''])), secretHeaders },
    });
    const servers = [
      http('remote', 'http://mcp.example.com/mcp', ['X-Api-Key']),
      http('local', 'http://127.0.0.1:3001/mcp', ['X-Api-Key']),
      http('open', 'http://mcp.example.com/open', []),
      http('tls', 'https://mcp.example.com/mcp', ['X-Api-Key']),
    ];
    const { page, problems } = await browser.open({ backend: { settings: { ...DEFAULTS, mcpServers: servers }, keys: { anthropic: true } } });
    await page.getByTestId('open-settings').click();
    const section = page.getByTestId('tools-section');
    const warned = section.locator('[data-testid="mcp-server"]:has([data-testid="mcp-in-clear"])');
    await warned.first().waitFor();
    assert.deepEqual(await warned.evaluateAll((rows) => rows.map((r) => r.dataset.server)), ['remote']);
    assert.match(await warned.getByTestId('mcp-in-clear').textContent(), /unencrypted/);

    // The form warns as the address is typed, once a header is secret.
    await section.getByTestId('mcp-add').click();
    await section.getByTestId('mcp-kind-http').check();
    await section.getByTestId('mcp-url').fill('http://192.168.1.20:8080/mcp');
    assert.equal(await section.getByTestId('mcp-url-in-clear').count(), 0, 'no secret, no warning');
    await section.getByTestId('mcp-secret-headers').fill('X-Api-Key: fake-key-not-real');
    await section.getByTestId('mcp-url-in-clear').waitFor();
    await section.getByTestId('mcp-url').fill('https://192.168.1.20:8080/mcp');
    await section.getByTestId('mcp-url-in-clear').waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const theme of ['light', 'dark']) {
    it(`asks before a tool runs, shows the call and its result, and reads the turn back (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, backend: { settings: { ...DEFAULTS, mcpServers: [EVERYTHING_SERVER] }, keys: { anthropic: true } } });
      // The tools button: the server on for this conversation, one tool off.
      await page.getByTestId('tools-button').click();
      const panel = page.getByTestId('tools-panel');
      await panel.locator('[data-server="everything"] [data-testid="tools-server-toggle"]').check();
      await panel.locator('[data-tool="get-sum"]').uncheck();
      assert.match(await page.getByTestId('tools-button').textContent(), /Tools · 1/);
      await panel.locator('.close').click();

      await page.getByTestId('composer-input').fill('Say hello with a tool.');
      await page.getByTestId('composer-input').press('Enter');
      const approval = page.getByTestId('tool-approval');
      await approval.waitFor();
      assert.match(await approval.textContent(), /Run echo from everything\?/);
      assert.match(await page.getByTestId('tool-arguments').textContent(), /"message": "Say hello with a tool\."/);
      assert.equal(await page.getByTestId('tool-card').getAttribute('data-state'), 'approval');
      await screenshot(page, `ui-tool-approval-${theme}`);
      await page.getByTestId('allow-once').click();

      await page.getByTestId('answer').filter({ hasText: 'The tool said it back.' }).waitFor();
      await page.getByTestId('stop').waitFor({ state: 'detached' });
      // The turn is over: its card folds, and opens to show the result.
      const live = page.getByTestId('tool-card');
      assert.equal(await live.getAttribute('data-state'), 'done');
      if (!(await page.getByTestId('tool-result').isVisible())) await live.locator('summary').click();
      assert.match(await page.getByTestId('tool-result').textContent(), /Echo: Say hello with a tool\./);
      const answered = await page.evaluate(() => window.__calls.filter((c) => c.cmd === 'answer_tool_call').map((c) => c.args.decision));
      assert.deepEqual(answered, ['allowOnce']);
      const stored = await page.evaluate(() => [...window.__fake.conversations.values()][0].settings.tools);
      assert.deepEqual(stored, { servers: ['everything'], off: ['everything/get-sum'], allowed: [] });

      // Read back from the store: one answer, thoughts, the card (folded) and the text.
      await page.getByTestId('new-chat').click();
      await page.getByTestId('conversation').first().click();
      const card = page.getByTestId('tool-card');
      await card.waitFor();
      assert.equal(await card.getAttribute('data-state'), 'done');
      assert.equal(await page.getByTestId('tool-result').isVisible(), false, 'a finished call is folded');
      await card.locator('summary').click();
      assert.match(await page.getByTestId('tool-result').textContent(), /Echo: Say hello with a tool\./);
      assert.equal(await page.getByTestId('message-assistant').count(), 1, 'one answer, not three messages');
      // Two thinking phases, one per step: each says its own time, the last the turn's too.
      const panes = page.getByTestId('thought-pane');
      assert.equal(await panes.count(), 2);
      assert.match(await panes.nth(0).getByTestId('thought-header').textContent(), /Thought for 4 s(?! · 14 s in all)/);
      assert.match(await panes.nth(1).getByTestId('thought-header').textContent(), /Thought for 10 s · 14 s in all/);
      assert.match(await page.getByTestId('message-meta').textContent(), /thought 14 s/);
      await screenshot(page, `ui-tool-card-${theme}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('tells the model when the user denies a call', async () => {
    const { page, problems } = await browser.open({
      backend: { settings: { ...DEFAULTS, mcpServers: [EVERYTHING_SERVER] }, keys: { anthropic: true } },
    });
    await page.getByTestId('tools-button').click();
    await page.getByTestId('tools-panel').locator('[data-testid="tools-server-toggle"]').check();
    await page.getByTestId('tools-panel').locator('.close').click();
    await page.getByTestId('composer-input').fill('Use the tool, please.');
    await page.getByTestId('composer-input').press('Enter');
    await page.getByTestId('tool-approval').waitFor();
    // A level chosen while the loop runs is for the next message; the window says so.
    await page.getByTestId('model-button').click();
    await page.getByTestId('picker-filter').fill('sonnet 4.5');
    await page.locator('[data-testid="picker-model-option"][data-model="claude-sonnet-4-5"]').click();
    await page.locator('[data-testid="picker-level-option"][data-choice="high"]').click();
    await page.getByTestId('note').filter({ hasText: 'applies from your next message' }).waitFor();
    await page.getByTestId('deny').click();
    await page.getByTestId('answer').filter({ hasText: 'I could not run the tool.' }).waitFor();
    const card = page.getByTestId('tool-card');
    assert.equal(await card.getAttribute('data-state'), 'error');
    // A failed call stays open: the user should see why.
    assert.match(await page.getByTestId('tool-result').textContent(), /denied/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('keeps a conversation’s tools in a profile and brings them back with it', async () => {
    const { page, problems } = await browser.open({
      backend: { settings: { ...DEFAULTS, mcpServers: [EVERYTHING_SERVER] }, keys: { anthropic: true } },
    });
    const input = page.getByTestId('composer-input');
    await page.getByTestId('tools-button').click();
    const panel = page.getByTestId('tools-panel');
    await panel.locator('[data-testid="tools-server-toggle"]').check();
    await panel.locator('[data-tool="get-sum"]').uncheck();
    await panel.locator('.close').click();
    await input.fill('/profile save with-tools');
    await input.press('Enter');
    await page.getByTestId('note').filter({ hasText: 'Saved profile with-tools' }).waitFor();

    await page.getByTestId('new-chat').click();
    await page.getByTestId('tools-button').click();
    assert.equal(await panel.locator('[data-testid="tools-server-toggle"]').isChecked(), false, 'a new conversation starts without tools');
    await panel.locator('.close').click();
    await input.fill('/profile load with-tools');
    await input.press('Enter');
    await page.getByTestId('tools-button').filter({ hasText: 'Tools · 1' }).waitFor();
    await page.getByTestId('tools-button').click();
    assert.equal(await panel.locator('[data-tool="get-sum"]').isChecked(), false, 'the tool switched off stays off');
    const saved = await page.evaluate(() => window.__fake.settings().profiles['with-tools'].tools);
    assert.deepEqual(saved, { servers: ['everything'], off: ['everything/get-sum'], allowed: [] });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
