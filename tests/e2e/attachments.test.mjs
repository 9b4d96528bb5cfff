// Files in the real app (WebKitGTK, the real backend) against the mock provider: a PNG chosen
// in the system's own file dialog (typed into it as a person would, through XTEST) and a PDF
// dropped on the window become chips, the image's thumbnail drawn through the ponder-file
// scheme; the question goes with both in Anthropic's own form; after a restart the thread
// still shows the thumbnail, which opens the whole image. An empty file dropped is refused
// with a note. Screenshots in both themes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { chooseInFileDialog, freePort, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { artifactsDir, repoRoot } from '../support/paths.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const FIXTURES = join(repoRoot, 'tests', 'fixtures', 'attachments');
const PICK_TITLE = 'Attach files';

let dataHome;
let keyring;
let driver;
let mock;
let record;

before(async () => {
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-attach-'));
  keyring = await startKeyring(dataHome);
  record = join(dataHome, 'anthropic-requests.jsonl');
  mock = await startMockProvider(STREAM, { record, port: await freePort() });
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

async function withApp(body) {
  const session = await driver.newSession();
  try {
    await session.waitForText('[data-testid="status-version"]');
    return await body(session);
  } finally {
    await session.end().catch(() => {});
  }
}

const shot = async (s, name) => writeFileSync(join(artifactsDir(), `e2e-${name}.png`), await s.screenshot());


/** Drops files on the window as the page receives a drop from the file manager. */
function drop(s, files) {
  const given = files.map(({ name, type, bytes }) => ({ name, type, data: Buffer.from(bytes).toString('base64') }));
  return s.execute(
    `const dt = new DataTransfer();
     for (const f of arguments[0]) {
       const raw = atob(f.data);
       const bytes = new Uint8Array(raw.length);
       for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
       dt.items.add(new File([bytes], f.name, { type: f.type }));
     }
     const target = document.querySelector('main') ?? document.body;
     for (const type of ['dragenter', 'dragover', 'drop']) {
       target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
     }
     return dt.files.length;`,
    [given],
  );
}

/** The natural widths of the images `css` finds, once each has loaded or failed. */
function imageWidths(s, css) {
  return s.execute(
    `return [...document.querySelectorAll(arguments[0])].map((img) => (img.complete ? img.naturalWidth : -1));`,
    [css],
  );
}

const requests = () =>
  existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((r) => r.method === 'POST')
    : [];

async function setTheme(s, theme) {
  await s.click(await s.waitFind(`[data-testid="theme-${theme}"]`));
  await waitFor(async () => (await s.execute('return document.documentElement.dataset.theme')) === theme, `the ${theme} theme`);
}

describe('files in the real app', () => {
  it('attaches by the dialog and by drop, sends both, and shows the thumbnail after a restart', async () => {
    await withApp(async (s) => {
      await storeKey(s, 'FAKE-key-not-real');
      await pickBudgetModelMedium(s);

      // The paperclip opens the system's dialog; the page never sees the path.
      await s.click(await s.waitFind('[data-testid="attach"]'));
      await chooseInFileDialog(PICK_TITLE, join(FIXTURES, 'whiteboard.png'));
      await waitFor(async () => (await s.findAll('[data-testid="composer-file"]')).length === 1, 'the chosen file is a chip');
      await waitFor(async () => (await imageWidths(s, '[data-testid="composer-file"] img')).every((w) => w > 0), 'its thumbnail is drawn', 10000);

      // A PDF and an empty file dropped on the window: the PDF joins, the empty one is refused.
      await drop(s, [
        { name: 'boiling-points.pdf', type: 'application/pdf', bytes: readFileSync(join(FIXTURES, 'boiling-points.pdf')) },
        { name: 'empty.txt', type: 'text/plain', bytes: Buffer.alloc(0) },
      ]);
      await waitFor(async () => (await s.findAll('[data-testid="composer-file"]')).length === 2, 'the dropped PDF is a chip');
      const chips = await s.execute(`return [...document.querySelectorAll('[data-testid="composer-file"]')].map((c) => c.textContent.replace(/\\s+/g, ' ').trim())`);
      assert.match(chips[1], /boiling-points\.pdf 2 pages/, chips.join(' | '));
      // A large file goes in pieces; stored whole, under its own hash.
      const scan = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2.5 * 1024 * 1024, 'x'), Buffer.from('\n%%EOF\n')]);
      await drop(s, [{ name: 'scan.pdf', type: 'application/pdf', bytes: scan }]);
      await waitFor(async () => (await s.findAll('[data-testid="composer-file"]')).length === 3, 'the large file is a chip', 20000);
      const sha = createHash('sha256').update(scan).digest('hex');
      assert.ok(existsSync(join(dataHome, IDENTIFIER, 'attachments', sha.slice(0, 2), sha)), 'stored whole under its hash');
      await s.click((await s.findAll('[data-testid="composer-file-remove"]'))[2]);
      await waitFor(async () => (await s.findAll('[data-testid="composer-file"]')).length === 2, 'the large file is taken back');

      const notes = () => s.execute(`return [...document.querySelectorAll('[data-testid="note"]')].map((n) => n.textContent).join(' | ')`);
      await waitFor(async () => (await notes()).includes('empty.txt is empty'), 'the empty file is refused');
      for (const theme of ['light', 'dark']) {
        await setTheme(s, theme);
        await shot(s, `attach-composer-${theme}`);
      }
      await setTheme(s, 'light');

      await send(s, 'What do these say?');
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'the answer arrives', 20000);
      await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the answer is complete', 30000);
    });

    const [sent] = requests();
    const content = sent.body.messages[0].content;
    assert.deepEqual(content.map((c) => c.type), ['image', 'document', 'text']);
    assert.equal(content[0].source.data, readFileSync(join(FIXTURES, 'whiteboard.png')).toString('base64'));
    assert.equal(content[1].source.media_type, 'application/pdf');
    assert.equal(content[1].title, 'boiling-points.pdf');
    assert.equal(content[2].text, 'What do these say?');

    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await waitFor(async () => (await s.findAll('[data-testid="message-user"] [data-testid="attachment"]')).length === 2, 'the question keeps its files');
      await waitFor(
        async () => (await imageWidths(s, '[data-testid="message-user"] [data-testid="attachment-thumb"] img')).some((w) => w > 0),
        'the thumbnail is drawn after the restart',
        10000,
      );
      // The question, with its thumbnail, in view.
      await s.execute(`document.querySelector('[data-testid="message-user"]').scrollIntoView({ block: 'center' }); return true;`);
      for (const theme of ['light', 'dark']) {
        await setTheme(s, theme);
        await shot(s, `attach-thread-${theme}`);
        await s.click(await s.waitFind('[data-testid="message-user"] [data-testid="attachment-thumb"]'));
        await waitFor(async () => (await imageWidths(s, '[data-testid="image-viewer-image"]'))[0] === 320, 'the viewer shows the whole image', 10000);
        assert.equal(await s.execute('return document.documentElement.dataset.theme'), theme);
        await shot(s, `attach-viewer-${theme}`);
        await s.click(await s.waitFind('[data-testid="image-viewer-close"]'));
        await waitFor(async () => (await s.findAll('[data-testid="image-viewer-image"]')).length === 0, 'the viewer closes');
      }
      await setTheme(s, 'light');
    });
  });
});
