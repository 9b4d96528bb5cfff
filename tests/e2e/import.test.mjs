// Importing a whole history in the real app (WebKitGTK, the real backend): a ChatGPT data
// export as delivered (a .zip of 30 MB of conversations), chosen in the system's own file
// dialog as a person would. The progress bar shows how far the import has come; Cancel stops
// it and says what stayed; the second import adds the rest and says the first ones were
// already here. A screenshot of the progress.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { chatgptExport } from '../bench/chatgpt-export.mjs';
import { chooseInFileDialog, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { textOf } from '../support/flows.mjs';
import { artifactsDir } from '../support/paths.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const DIALOG_TITLE = 'Import conversations';

let dataHome;
let keyring;
let driver;
let zip;
let made;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-import-'));
  keyring = await startKeyring(dataHome);
  mkdirSync(join(dataHome, IDENTIFIER), { recursive: true });
  // The export as ChatGPT delivers it: conversations.json in a .zip, deflated.
  made = chatgptExport(30e6, { seed: 7 });
  zip = join(dataHome, 'chatgpt-export.zip');
  execFileSync('python3', [
    '-c',
    'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z: z.write(sys.argv[2], "conversations.json")',
    zip,
    made.path,
  ]);
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});


const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());

async function startImport(s) {
  await s.click(await s.waitFind('[data-testid="import-file"]'));
  await chooseInFileDialog(DIALOG_TITLE, zip);
  await s.waitFind('[data-testid="import-progress"]', 30000);
}

/** What the status line says: its passing message, or the error it shows. Read from the page:
 * behind the open Settings the status line is inert, and WebDriver reads no text there. */
const flash = (s) =>
  s.execute(
    `const said = (id) => document.querySelector('[data-testid="' + id + '"]')?.textContent?.trim() ?? '';
     return said('status-flash') || said('status-error');`,
  );

describe('importing a whole history in the real app', () => {
  it('shows the progress of a .zip export, cancels, and imports the rest on the second try', async () => {
    const session = await driver.newSession();
    const s = session;
    try {
      await s.waitForText('[data-testid="status-version"]');
      await s.click(await s.waitFind('[data-testid="open-settings"]'));

      // First: cancelled as soon as it shows.
      await startImport(s);
      const figures = await textOf(s, '[data-testid="import-figures"]');
      assert.match(figures, /^[\d,]+ conversations? · .+ of \d+(\.\d)? MB$/, figures);
      await s.click(await s.waitFind('[data-testid="import-cancel"]'));
      await waitFor(async () => (await s.findAll('[data-testid="import-progress"]')).length === 0, 'the import stops', 60000);
      const cancelled = await flash(s);
      const kept = Number(/^Import cancelled\. Imported (\d+) conversations?/.exec(cancelled)?.[1]);
      assert.ok(Number.isInteger(kept) && kept < made.conversations, `${cancelled} (of ${made.conversations})`);

      // Then to its end: what was kept is already here, the rest is new.
      await startImport(s);
      await shot(s, 'import-progress');
      const bar = await s.execute('const p = document.querySelector(\'[data-testid="import-bar"]\'); return p ? [p.max, p.value] : null;');
      assert.ok(bar && bar[0] === 1 && bar[1] >= 0 && bar[1] <= 1, JSON.stringify(bar));
      await waitFor(async () => (await s.findAll('[data-testid="import-progress"]')).length === 0, 'the import ends', 180000);
      const done = await flash(s);
      const rest = made.conversations - kept;
      assert.match(done, new RegExp(`^Imported ${rest} conversations?`), done);
      if (kept > 0) assert.match(done, new RegExp(`${kept} conversations? already here unchanged`), done);

      // Every conversation is listed.
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      const listed = await s.execute('return document.querySelectorAll(\'[data-testid="conversation-list"] li\').length');
      assert.ok(listed > 0, `${listed} listed`);
    } finally {
      await session.end().catch(() => {});
    }
  });
});
