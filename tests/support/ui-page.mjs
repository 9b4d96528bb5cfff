// Opens the built UI in Chromium with the Tauri IPC mocked by the in-memory fake backend,
// and gathers anything that went wrong on the page (errors, failed or off-loopback requests).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { fakeBackendScript } from './fake-backend.mjs';
import { artifactsDir, testsDir, uiDist } from './paths.mjs';
import { serveStatic } from './static-server.mjs';
import { readAllRows, scrollToRow } from './sidebar-rows.mjs';
import { tauriMocksScript } from './tauri-mocks.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ABOUT = {
  name: 'Ponder',
  version: '0.1.0',
  dataDir: '/home/ada/.local/share/dev.ponder.desktop',
  databasePath: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
};

const ATTACHMENTS = join(testsDir, 'fixtures', 'attachments');
const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** A file of tests/fixtures/attachments: its bytes and their SHA-256, as Ponder stores it by. */
export function attachmentFixture(name) {
  const bytes = readFileSync(join(ATTACHMENTS, name));
  return { name, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The fixture images by hash: what the fake `ponder-file` scheme serves. */
const STORED_IMAGES = new Map(
  readdirSync(ATTACHMENTS)
    .filter((name) => name.split('.').pop() in IMAGE_TYPES)
    .map((name) => {
      const fixture = attachmentFixture(name);
      return [fixture.sha256, { ...fixture, type: IMAGE_TYPES[name.split('.').pop()] }];
    }),
);

/**
 * Answers the page's `ponder-file` URLs (http://ponder-file.localhost/<variant>%2F<sha256>,
 * as the fake backend makes them) from the fixture images, as the backend answers them from
 * its store: an image it holds (the fixtures are small, so the thumbnail is the image), else
 * 404. Each path asked for is added to `asked`.
 */
async function serveStoredImages(page, asked) {
  await page.route('http://ponder-file.localhost/**', (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.slice(1));
    asked.push(path);
    const [variant, sha256] = path.split('/');
    const image = STORED_IMAGES.get(sha256);
    if (!image || !['thumb', 'full'].includes(variant)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, contentType: image.type, body: image.bytes, headers: { 'cache-control': 'max-age=31536000, immutable' } });
  });
}

/**
 * Starts the static server and a Chromium profile; returns { open(options), close() }.
 * `viewport` and `deviceScaleFactor` size every page of the profile: a 640×400 viewport at
 * scale 2 is what a 1280×800 window lays out at 200% zoom, drawn at the window's sharpness.
 */
export async function startBrowser({ viewport = { width: 1180, height: 760 }, deviceScaleFactor = undefined } = {}) {
  assert.ok(existsSync(join(uiDist, 'index.html')), 'ui/dist is built (npm --prefix ui run build)');
  const server = await serveStatic(uiDist);
  const profileDir = mkdtempSync(join(tmpdir(), 'ponder-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    ...(deviceScaleFactor ? { deviceScaleFactor } : {}),
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
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

  /**
   * A new page on the UI. `backend` goes to installFakeBackend; `theme` is the saved theme,
   * `colorScheme` the system's. Resolves once the status line shows the version, to the page,
   * the problems seen on it, and the stored images it asked for.
   */
  /** `shown`: the element that says the page is up (the start-up problems screen has no
   * status line); `viewport`, this page's size if not the profile's. */
  async function open({ backend = {}, theme = 'light', colorScheme = 'light', shown = 'status-version', viewport = undefined } = {}) {
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
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
      const url = req.url();
      if (!url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('http://ponder-file.localhost/')) problems.push(`request off loopback: ${url}`);
    });
    /** The ponder-file paths the page asked for (`thumb/<sha256>`, `full/<sha256>`). */
    const imagesAsked = [];
    await serveStoredImages(page, imagesAsked);
    await page.addInitScript({ content: tauriMocksScript() });
    // The app runs with Tauri's freezePrototype; so do the tests.
    await page.addInitScript({ content: 'Object.freeze(Object.prototype);' });
    await page.addInitScript({ content: fakeBackendScript({ theme, ...backend }) });
    await page.goto(server.url);
    await page.getByTestId(shown).waitFor();
    return { page, problems, imagesAsked };
  }

  return {
    url: server.url,
    open,
    close: async () => {
      await context.close();
      await server.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot into tests/artifacts/ under `name` (without .png). */
export async function screenshot(page, name) {
  const path = join(artifactsDir(), `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

/** Sets the theme through the status line, as a user would. */
export async function useTheme(page, theme) {
  await page.getByTestId(`theme-${theme}`).click();
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

/** The MCP "everything" server as Settings keep it (run through npx), for tool flows. */
export const EVERYTHING_SERVER = {
  id: 'everything',
  name: 'Everything',
  enabled: true,
  transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: {}, secretEnv: [], cwd: null },
};

/** Reruns the answer shown with Claude Haiku 4.5 at high, through "Rerun with…" and the picker. */
export async function rerunWithHaikuHigh(page) {
  await page.getByTestId('rerun').click();
  await page.getByTestId('picker-rerun').waitFor();
  await page.getByTestId('picker-filter').fill('haiku 4.5');
  await page.locator('[data-testid="picker-model-option"][data-model="claude-haiku-4-5"]').click();
  await page.locator('[data-testid="picker-level-option"][data-choice="high"]').click();
}

/** The text of every row of the sidebar's list, scrolled through (see sidebar-rows.mjs). */
export const sidebarRows = (page) => page.evaluate(readAllRows);

/** Scrolls the sidebar's list until a row with `text` is drawn, and that row into view. */
export async function revealConversation(page, text) {
  if (!(await page.evaluate(scrollToRow, { text }))) throw new Error(`no conversation ${JSON.stringify(text)} in the sidebar`);
}
