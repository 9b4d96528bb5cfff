// The XSS corpus (tests/fixtures/xss) in Chromium: every payload as a conversation title, a
// question, a thought, a tool call's arguments and its result, an answer, a provider error
// message and an export file name in the built UI, and in the standalone HTML file Ponder
// exports. None may run script, navigate or make a request, and the text around each one must
// stay readable. The URL-bearing payloads point at a loopback server that counts every
// connection, so a request is seen whatever made it; a control shows it sees one.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';

import { repoRoot } from '../support/paths.mjs';
import { revealConversation, sidebarRows, startBrowser } from '../support/ui-page.mjs';
import { SPRUNG, TRAPS, backup, markers, payloads, seenAfter, watchRequests } from '../support/xss.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

let browser;
let watcher;
let list;
let file;

before(async () => {
  watcher = await watchRequests();
  browser = await startBrowser();
  list = await payloads(watcher.host);
  file = backup(list);
});

after(async () => {
  await browser?.close();
  await watcher?.close();
});

const run = (page, body) => page.evaluate(`(() => { ${body} })()`);

/** A table with a background on the watched server, as the old sanitizer let one through. */
const control = (path) => `<table background="http://${watcher.host}/${path}/control.png"><tr><td>control</td></tr></table>`;

/** Resolves once the watched server has seen the control's request, then forgets it. */
async function controlSeen(path) {
  const deadline = Date.now() + 10_000;
  while (!watcher.seen().some((line) => line.includes(`/${path}/control.png`))) {
    assert.ok(Date.now() < deadline, `the watched server saw the control: ${watcher.seen().join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  watcher.forget();
}

describe('the XSS corpus', () => {
  it(`has at least 150 payloads`, () => {
    assert.ok(list.length >= 150, `${list.length} payloads`);
  });

  it('has at least 60 URL-bearing payloads, each pointing at the watched server', () => {
    const urls = list.filter((p) => p.source === 'urls');
    assert.ok(urls.length >= 60, `${urls.length} URL-bearing payloads`);
    for (const p of urls) assert.ok(p.text.includes(`${watcher.host}/p${p.n}/`), p.text);
  });

  it('fires nothing in the UI, and every payload’s surroundings stay readable', async () => {
    const { page, problems } = await browser.open({ backend: { settings: DEFAULTS, imported: file } });
    const requests = [];
    const assets = (url) => url.startsWith(browser.url + '/assets/') || url.startsWith('data:');
    page.on('request', (req) => {
      if (!assets(req.url())) requests.push(req.url());
    });
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) requests.push(`navigation to ${frame.url()}`);
    });
    assert.equal(await run(page, TRAPS), true);
    // The traps work: a script that does run is seen.
    await run(page, 'alert("control"); return true;');
    assert.deepEqual((await run(page, SPRUNG)).fired, ['alert(control)']);
    await run(page, 'window.__xssFired.length = 0; return true;');
    // So does the watched server: markup put in the page unsanitized loads from it.
    await page.evaluate((html) => {
      const div = document.createElement('div');
      div.id = 'control';
      div.innerHTML = html;
      document.body.append(div);
    }, control('ui'));
    await controlSeen('ui');
    await page.evaluate(() => document.getElementById('control')?.remove());
    requests.length = 0;
    const unreadable = [];
    const sidebar = page.getByTestId('conversation');
    await sidebar.first().waitFor();
    // Every title, the list scrolled through: the sidebar lists them all.
    const titles = await sidebarRows(page);
    assert.equal(titles.length, list.length);
    for (const p of list) {
      const [open, shut] = markers(p.n);
      if (!titles.some((t) => t.includes(open) && t.includes(shut))) unreadable.push(`title ${p.n}`);
    }
    await page.keyboard.press('Control+o');
    for (const p of list) {
      const [open, shut] = markers(p.n);
      await revealConversation(page, open);
      await sidebar.filter({ hasText: open }).click();
      const user = page.getByTestId('message-user').first();
      await user.filter({ hasText: open }).waitFor();
      // The tool card of a finished turn is folded: opened (and its result shown whole) as a
      // user would.
      const card = page.getByTestId('tool-card').first();
      await card.locator('summary').click();
      const more = card.getByRole('button', { name: /^Show all/ });
      if (await more.count()) await more.click();
      const places = {
        question: await user.innerText(),
        answer: await page.getByTestId('message-assistant').first().innerText(),
        'tool call': await card.getByTestId('tool-arguments').innerText(),
        'tool result': await card.getByTestId('tool-result').innerText(),
        error: await page.getByTestId('error-message').first().innerText(),
      };
      for (const [where, text] of Object.entries(places)) {
        const whole = where === 'error' ? text.includes(open) : text.includes(open) && text.includes(shut);
        if (!whole) unreadable.push(`${where} ${p.n}`);
      }
      // The thought pane is open (Ctrl+O): both markers are in it too.
      const pane = await page.getByTestId('thought-pane').first().innerText();
      if (!(pane.includes(open) && pane.includes(shut))) unreadable.push(`thought ${p.n}`);
      // The export's file name, as the status line shows it.
      await page.getByTestId('export-button').click();
      await page.getByRole('button', { name: 'Save as…' }).click();
      await page.getByText(`Exported to`).filter({ hasText: open }).waitFor();
    }
    const sprung = await run(page, SPRUNG);
    const watched = await seenAfter(watcher);
    const urls = list.filter((p) => p.source === 'urls').length;
    console.log(
      `xss in Chromium: ${list.length} payloads (${urls} URL-bearing) × 8 places; fired ${sprung.fired.length}, requests ${requests.length}, requests to the watched server ${watched.length}, unreadable ${unreadable.length}`,
    );
    assert.deepEqual(sprung.fired, [], 'no payload ran script');
    assert.equal(sprung.moved, false, 'the page never navigated');
    assert.deepEqual(requests, [], 'no payload made a request');
    assert.deepEqual(watched, [], 'no URL-bearing payload reached the watched server');
    assert.deepEqual(unreadable, [], 'every payload’s surroundings stay readable');
    assert.deepEqual(problems.filter((p) => !p.startsWith('request off loopback')), []);
  });

  it('fires nothing in exported HTML files', async () => {
    const cli = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
    assert.ok(existsSync(cli), `ponder-cli is built at ${cli}`);
    const dir = mkdtempSync(join(tmpdir(), 'ponder-xss-export-'));
    try {
      const db = join(dir, 'history.sqlite3');
      writeFileSync(join(dir, 'backup.json'), JSON.stringify(file));
      const imported = spawnSync(cli, ['--db', db, 'import', join(dir, 'backup.json')], { encoding: 'utf8' });
      assert.equal(imported.status, 0, imported.stderr);
      // One file per conversation, as the app's Export writes them.
      const listed = spawnSync(cli, ['--db', db, 'conversations', '--json'], { encoding: 'utf8' });
      assert.equal(listed.status, 0, listed.stderr);
      const pages = JSON.parse(listed.stdout).map((c) => {
        const path = join(dir, `${c.id}.html`);
        const made = spawnSync(cli, ['--db', db, 'export', c.id, '--format', 'html', '--thoughts', 'section', '-o', path], {
          encoding: 'utf8',
        });
        assert.equal(made.status, 0, made.stderr);
        return path;
      });
      assert.equal(pages.length, list.length);
      const { page } = await browser.open({ backend: { settings: DEFAULTS } });
      // The watched server sees a page that does load from it.
      const controlPage = join(dir, 'control.html');
      writeFileSync(controlPage, `<!DOCTYPE html><title>control</title>${control('export')}`);
      await page.goto(pathToFileURL(controlPage).href);
      await controlSeen('export');
      const requests = [];
      page.on('request', (req) => {
        if (!req.url().startsWith('file://')) requests.push(req.url());
      });
      const fired = [];
      const unreadable = [];
      await page.addInitScript({ content: `(() => { ${TRAPS} })()` });
      for (const path of pages) {
        await page.goto(pathToFileURL(path).href);
        const sprung = await run(page, SPRUNG);
        fired.push(...sprung.fired.map((f) => `${path}: ${f}`));
        if (sprung.moved) fired.push(`${path}: navigated`);
        const text = await page.evaluate(() => document.body.innerText);
        const found = list.find((p) => text.includes(markers(p.n)[0]));
        if (!found || !text.includes(markers(found.n)[1])) unreadable.push(path);
      }
      const watched = await seenAfter(watcher);
      console.log(
        `xss in exported HTML: ${pages.length} files; fired ${fired.length}, requests ${requests.length}, requests to the watched server ${watched.length}`,
      );
      assert.deepEqual(fired, []);
      assert.deepEqual(requests, []);
      assert.deepEqual(watched, [], 'no URL-bearing payload reached the watched server');
      assert.deepEqual(unreadable, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
