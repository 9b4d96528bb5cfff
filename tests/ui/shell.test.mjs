// The built UI in Debian's Chromium, with the Tauri IPC mocked: the shell renders in both
// themes, shows what the backend reports, saves the theme, and asks nothing of the network.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { chromium } from 'playwright-core';

import { artifactsDir, uiDist } from '../support/paths.mjs';
import { serveStatic } from '../support/static-server.mjs';
import { tauriMocksScript } from '../support/tauri-mocks.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ABOUT = {
  name: 'Ponder',
  version: '0.1.0',
  dataDir: '/home/ada/.local/share/dev.ponder.desktop',
  databasePath: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
};

let server;
let context;
let profileDir;

before(async () => {
  assert.ok(existsSync(join(uiDist, 'index.html')), 'ui/dist is built (npm --prefix ui run build)');
  server = await serveStatic(uiDist);
  profileDir = mkdtempSync(join(tmpdir(), 'ponder-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1180, height: 760 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
});

/** Opens the UI with a mocked backend whose saved theme is `theme`. */
async function openShell({ theme, colorScheme = 'light' }) {
  const page = await context.newPage();
  await page.emulateMedia({ colorScheme });
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console error: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(server.url)) problems.push(`request off loopback: ${req.url()}`);
  });
  await page.addInitScript({ content: tauriMocksScript() });
  await page.addInitScript(
    ({ about, theme }) => {
      window.__calls = [];
      // The mocked backend keeps its settings across reloads, as the real store does.
      const saved = () => sessionStorage.getItem('mock.theme') ?? theme;
      window.TauriMocks.mockIPC((cmd, args) => {
        window.__calls.push({ cmd, args });
        if (cmd === 'app_info') return about;
        if (cmd === 'get_settings') return { theme: saved() };
        if (cmd === 'set_theme') {
          sessionStorage.setItem('mock.theme', args.theme);
          return { theme: saved() };
        }
        throw { code: 'internal', message: `unexpected command ${cmd}` };
      });
    },
    { about: ABOUT, theme },
  );
  await page.goto(server.url);
  await page.getByTestId('status-version').waitFor();
  return { page, problems };
}

const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

describe('the app shell in Chromium', () => {
  for (const theme of ['light', 'dark']) {
    it(`renders the layout in the ${theme} theme and takes a screenshot`, async () => {
      const { page, problems } = await openShell({ theme });
      assert.equal(await page.getByTestId('status-version').textContent(), 'Ponder 0.1.0');
      assert.equal(await page.getByTestId('status-data-dir').textContent(), ABOUT.dataDir);
      assert.match(await page.getByTestId('sidebar-empty').textContent(), /No conversations yet/);
      assert.match(await page.getByTestId('thread-empty').textContent(), /What are you pondering\?/);
      assert.ok(await page.getByTestId('composer-input').isVisible(), 'the composer is visible');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
      assert.equal(await page.getByTestId(`theme-${theme}`).getAttribute('aria-pressed'), 'true');
      const expected = theme === 'light' ? 'rgb(251, 251, 249)' : 'rgb(21, 22, 26)';
      assert.equal(await background(page), expected, `${theme} page background`);
      await page.screenshot({ path: join(artifactsDir(), `ui-${theme}.png`) });
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('follows the system colour scheme when the theme is system', async () => {
    const { page, problems } = await openShell({ theme: 'system', colorScheme: 'dark' });
    assert.equal(await background(page), 'rgb(21, 22, 26)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await background(page), 'rgb(251, 251, 249)');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('saves a new theme through the backend and repaints at once', async () => {
    const { page, problems } = await openShell({ theme: 'light' });
    await page.getByTestId('theme-dark').click();
    assert.equal(await background(page), 'rgb(21, 22, 26)');
    const calls = await page.evaluate(() => window.__calls.map((c) => c.cmd));
    assert.deepEqual(calls.sort(), ['app_info', 'get_settings', 'set_theme']);
    await page.reload();
    await page.getByTestId('status-version').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
