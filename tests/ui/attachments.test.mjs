// Files pasted into the composer and dropped on the window, in the built UI in Chromium against
// the fake backend: each is stored from its bytes (attach_bytes, its name in a header), shown
// as a chip with a thumbnail drawn through the ponder-file scheme (answered here from the
// fixture images), sent with the question, and opened whole in the viewer. Screenshots of the
// drop overlay, the thread's thumbnails and the viewer go to tests/artifacts/ in both themes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { attachmentFixture, screenshot, startBrowser } from '../support/ui-page.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

const PNG = attachmentFixture('whiteboard.png');
const JPG = attachmentFixture('photo.jpg');
const PDF = attachmentFixture('boiling-points.pdf');

let browser;

before(async () => {
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
});

/** A page with a default model chosen, once its composer is shown. */
async function openChat(theme = 'light', backend = {}) {
  const opened = await browser.open({ theme, backend: { settings: DEFAULTS, ...backend } });
  await opened.page.getByTestId('composer-input').waitFor();
  return opened;
}

/** A file as the page makes it: the fixture's bytes, a name and a type. */
const asFile = (fixture, type, name = fixture.name) => ({ name, type, bytes: [...fixture.bytes] });

const chipTexts = async (locator) => (await locator.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/** The attach_bytes calls the backend had: the name header, decoded, and the bytes. */
const attachCalls = (page) =>
  page.evaluate(() =>
    window.__fake.calls
      .filter((c) => c.cmd === 'attach_bytes')
      .map((c) => ({ name: decodeURIComponent(c.headers['x-ponder-name']), header: c.headers['x-ponder-name'], bytes: Array.from(c.args) })),
  );

/**
 * Dispatches drag events carrying `files` (or, with `text`, only text) at the element
 * `selector` finds, as Chromium does for a drag from outside the window. The DataTransfer is
 * kept between calls, as one drag's is. Resolves to whether each event was let through (not
 * cancelled).
 */
function drag(page, events, { selector = 'main', files = null, text = null } = {}) {
  return page.evaluate(
    ({ events, selector, files, text }) => {
      if (files || text !== null) {
        const dt = new DataTransfer();
        for (const f of files ?? []) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
        if (text !== null) dt.setData('text/plain', text);
        window.__drag = dt;
      }
      const target = document.querySelector(selector);
      return events.map((type) => target.dispatchEvent(new DragEvent(type, { dataTransfer: window.__drag, bubbles: true, cancelable: true })));
    },
    { events, selector, files, text },
  );
}

/** Waits until the images of the thumbnails `locator` finds are drawn; resolves to their widths. */
async function thumbnailsLoaded(locator) {
  await locator.locator('img').first().waitFor();
  await locator.evaluateAll(async (els) => {
    const images = els.flatMap((el) => [...el.querySelectorAll('img')]);
    await Promise.all(images.map((img) => (img.complete ? null : new Promise((done) => img.addEventListener('load', done, { once: true })))));
  });
  return locator.evaluateAll((els) => els.flatMap((el) => [...el.querySelectorAll('img')]).map((img) => img.naturalWidth));
}

const overlay = (page) => page.getByTestId('drop-overlay');
const notes = (page) => page.getByTestId('note');

describe('pasting into the composer', () => {
  it('attaches a pasted screenshot under a name of its own, with its thumbnail, and leaves a paste of text to the field', async () => {
    const { page, problems, imagesAsked } = await openChat();
    const input = page.getByTestId('composer-input');
    await input.focus();
    const letThrough = await page.evaluate((file) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      return document.querySelector('[data-testid="composer-input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, asFile(PNG, 'image/png', 'image.png'));
    assert.equal(letThrough, false, 'the paste of a file is the composer\'s, not the field\'s');

    const chip = page.getByTestId('composer-file');
    await chip.waitFor();
    const [text] = await chipTexts(chip);
    assert.match(text, /^Pasted image \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.png 2\.2 KB$/);
    const widths = await thumbnailsLoaded(chip.getByTestId('composer-file-thumb'));
    assert.deepEqual(widths, [320], 'the thumbnail was drawn from the ponder-file scheme');
    assert.deepEqual(imagesAsked, [`thumb/${PNG.sha256}`]);
    const box = await chip.getByTestId('composer-file-thumb').boundingBox();
    assert.deepEqual([Math.round(box.width), Math.round(box.height)], [40, 40]);

    const [call] = await attachCalls(page);
    assert.equal(call.name, text.replace(/ 2\.2 KB$/, ''), 'the name goes in the header');
    assert.equal(call.header, encodeURIComponent(call.name), 'percent-encoded');
    assert.deepEqual(call.bytes, [...PNG.bytes], 'the bytes go as the body');

    // Text pastes as it always did, through the system's clipboard and Ctrl+V.
    await page.evaluate(() => navigator.clipboard.writeText('pasted words'));
    await input.press('Control+v');
    assert.equal(await input.inputValue(), 'pasted words');
    assert.equal((await attachCalls(page)).length, 1, 'text is not a file');
    assert.equal(await chip.count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('dropping files on the window', () => {
  for (const theme of ['light', 'dark']) {
    it(`shows the overlay while files are over the window and attaches them in order, each once (${theme})`, async () => {
      const { page, problems } = await openChat(theme);
      const files = [asFile(PNG, 'image/png'), asFile(PDF, 'application/pdf')];
      assert.deepEqual(await drag(page, ['dragenter', 'dragover'], { files }), [false, false], 'a file drag is the page\'s (the web view never opens the file)');
      await overlay(page).waitFor();
      assert.match(await overlay(page).innerText(), /^Drop to attach\s+PNG, JPEG, GIF and WebP images, PDFs and text files\s+up to 100 MiB each$/);
      await screenshot(page, `ui-${theme}-drop-overlay`);

      // Going from one element to another inside the window keeps it; leaving the window hides it.
      await drag(page, ['dragenter'], { selector: '[data-testid="composer-input"]' });
      await drag(page, ['dragleave'], { selector: 'main' });
      assert.equal(await overlay(page).count(), 1, 'still over the window');
      await drag(page, ['dragleave'], { selector: '[data-testid="composer-input"]' });
      await overlay(page).waitFor({ state: 'detached' });

      // Back in, and dropped on the composer.
      await drag(page, ['dragenter', 'dragover'], { selector: '[data-testid="composer-input"]', files });
      await overlay(page).waitFor();
      await drag(page, ['drop'], { selector: '[data-testid="composer-input"]' });
      await overlay(page).waitFor({ state: 'detached' });
      const chips = page.getByTestId('composer-file');
      await chips.nth(1).waitFor();
      assert.deepEqual(await chipTexts(chips), ['whiteboard.png 2.2 KB', 'boiling-points.pdf 2 pages · 1.9 KB']);
      assert.deepEqual(await thumbnailsLoaded(chips.getByTestId('composer-file-thumb')), [320]);
      assert.equal(await chips.nth(1).getByTestId('composer-file-thumb').count(), 0, 'a PDF shows its icon');
      assert.deepEqual((await attachCalls(page)).map((c) => [c.name, c.bytes.length]), [['whiteboard.png', PNG.bytes.length], ['boiling-points.pdf', PDF.bytes.length]]);

      // The same image again (under another name), an empty file and one too large: the
      // image is held already, the others are refused and said why, the large one unread.
      await drag(page, ['dragenter', 'dragover', 'drop'], {
        files: [asFile(PNG, 'image/png', 'copy of whiteboard.png'), { name: 'empty.txt', type: 'text/plain', bytes: [] }],
      });
      await notes(page).filter({ hasText: 'empty.txt is empty.' }).waitFor();
      assert.equal(await chips.count(), 2, 'the same bytes are one file');
      await page.evaluate(() => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(101 * 1024 * 1024)], 'film.mov', { type: 'video/quicktime' }));
        window.__drag = dt;
      });
      await drag(page, ['dragenter', 'dragover', 'drop']);
      await notes(page).filter({ hasText: 'film.mov is 101.0 MiB; Ponder takes files of at most 100 MiB.' }).waitFor();
      assert.deepEqual((await attachCalls(page)).map((c) => c.name), ['whiteboard.png', 'boiling-points.pdf', 'copy of whiteboard.png', 'empty.txt'], 'the large file never went to the backend');
      assert.equal(await chips.count(), 2);
      await page.getByTestId('composer-input').fill('What do these show?');
      await screenshot(page, `ui-${theme}-composer-dropped`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('shows nothing for a drag of text or a link, nor where no question can be asked yet', async () => {
    const { page, problems } = await openChat();
    assert.deepEqual(await drag(page, ['dragenter', 'dragover'], { text: 'some words' }), [true, true], 'a text drag is left to the page');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.equal(await overlay(page).count(), 0);
    await drag(page, ['dragleave', 'drop']);
    assert.deepEqual(await attachCalls(page), []);
    await page.close();

    // No model chosen: a file dragged in shows no overlay and a drop takes nothing (and is
    // still not the web view's to open).
    const bare = await browser.open({ backend: {} });
    await bare.page.getByTestId('composer-hint').waitFor();
    assert.deepEqual(await drag(bare.page, ['dragenter', 'dragover'], { files: [asFile(PNG, 'image/png')] }), [false, false]);
    await bare.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.equal(await overlay(bare.page).count(), 0);
    await drag(bare.page, ['drop']);
    assert.deepEqual(await attachCalls(bare.page), []);
    assert.deepEqual([...problems, ...bare.problems], []);
    await bare.page.close();
  });
});

describe('images with a question', () => {
  for (const theme of ['light', 'dark']) {
    it(`shows the question's thumbnails; one opens the viewer, the arrows go through the message's images, Esc closes it (${theme})`, async () => {
      const { page, problems, imagesAsked } = await openChat(theme);
      await drag(page, ['dragenter', 'dragover', 'drop'], {
        files: [asFile(PNG, 'image/png'), asFile(PDF, 'application/pdf'), asFile(JPG, 'image/jpeg')],
      });
      await page.getByTestId('composer-file').nth(2).waitFor();
      const input = page.getByTestId('composer-input');
      await input.fill('What is on the whiteboard?');
      await input.press('Enter');

      const question = page.getByTestId('message-user');
      const files = question.getByTestId('attachment');
      await files.nth(2).waitFor();
      const sent = await page.evaluate(() => window.__calls.find((c) => c.cmd === 'send_message').args.request.files);
      assert.deepEqual(sent.map((f) => [f.name, f.sha256]), [['whiteboard.png', PNG.sha256], ['boiling-points.pdf', PDF.sha256], ['photo.jpg', JPG.sha256]], 'sent by the hashes the backend gave');
      const thumbs = question.getByTestId('attachment-thumb');
      assert.deepEqual(await thumbnailsLoaded(thumbs), [320, 200]);
      // Measured once it is on screen: the question's row is drawn again when the stored
      // question replaces the one shown while it was sent.
      const height = await page.waitForFunction(() => {
        const box = document.querySelector('[data-testid="message-user"] [data-testid="attachment-thumb"]')?.getBoundingClientRect();
        return box && box.height > 0 ? box.height : null;
      });
      assert.equal(Math.round(await height.jsonValue()), 120);
      await page.getByTestId('message-assistant').getByTestId('answer').waitFor({ timeout: 10000 });
      await screenshot(page, `ui-${theme}-thread-thumbnails`);

      await question.getByRole('button', { name: 'View whiteboard.png' }).click();
      const viewer = page.getByTestId('image-viewer');
      await viewer.waitFor();
      assert.equal(await viewer.evaluate((d) => d.open && d.matches(':modal')), true, 'a modal dialog');
      const image = viewer.getByTestId('image-viewer-image');
      await page.waitForFunction(() => document.querySelector('[data-testid="image-viewer-image"]')?.naturalWidth === 320);
      assert.equal(await image.getAttribute('alt'), 'whiteboard.png');
      assert.ok(imagesAsked.includes(`full/${PNG.sha256}`), 'the whole image, not the thumbnail');
      assert.equal((await viewer.getByTestId('image-viewer-caption').textContent()).replace(/\s+/g, ' ').trim(), 'whiteboard.png 2.2 KB · 1 of 2');
      await screenshot(page, `ui-${theme}-image-viewer`);

      // The arrows go through the message's images (not its PDF), round at either end.
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-testid="image-viewer-image"]')?.naturalWidth === 200);
      assert.equal(await image.getAttribute('alt'), 'photo.jpg');
      assert.match(await viewer.getByTestId('image-viewer-caption').textContent(), /photo\.jpg\s+14 KB · 2 of 2/);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-testid="image-viewer-image"]')?.alt === 'whiteboard.png');
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction(() => document.querySelector('[data-testid="image-viewer-image"]')?.alt === 'photo.jpg');

      // Esc closes it (and stops nothing), and the thumbnail has the focus again.
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'View whiteboard.png');
      assert.equal(await page.getByTestId('message-assistant').getAttribute('data-status'), 'complete');

      // The close button does the same.
      await question.getByRole('button', { name: 'View photo.jpg' }).click();
      await viewer.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close the image', 'the viewer takes the focus');
      await viewer.getByTestId('image-viewer-close').click();
      await viewer.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'View photo.jpg');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  it('opens the composer\'s images in the viewer too', async () => {
    const { page, problems } = await openChat();
    await drag(page, ['dragenter', 'dragover', 'drop'], { files: [asFile(JPG, 'image/jpeg')] });
    await page.getByRole('button', { name: 'View photo.jpg' }).click();
    const viewer = page.getByTestId('image-viewer');
    await viewer.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="image-viewer-image"]')?.naturalWidth === 200);
    assert.equal((await viewer.getByTestId('image-viewer-caption').textContent()).replace(/\s+/g, ' ').trim(), 'photo.jpg 14 KB');
    assert.equal(await viewer.getByTestId('image-viewer-next').count(), 0, 'one image: nothing to go to');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'View photo.jpg');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('a model that reads no PDFs', () => {
  it("offers to send a PDF's text instead, and sends the same question and files saying so", async () => {
    const { page, problems } = await openChat();
    await drag(page, ['dragenter', 'dragover', 'drop'], { files: [asFile(PDF, 'application/pdf')] });
    await page.getByTestId('composer-file').waitFor();
    await page.evaluate(() => {
      window.__fake.failSend = {
        code: 'pdfUnread',
        message:
          'o3-mini does not read PDFs, so boiling-points.pdf cannot be sent to it as a PDF; its text can be sent instead (its tables, pictures and layout may be lost), or choose a model that reads PDFs.',
      };
    });
    const input = page.getByTestId('composer-input');
    await input.fill('What boils first?');
    await input.press('Enter');
    const card = page.getByTestId('error-card');
    await card.waitFor();
    assert.equal(await card.getAttribute('data-code'), 'pdfUnread');
    assert.match(await card.textContent(), /This model does not read PDFs/);
    // Nothing is lost: the words and the file are back in the composer.
    assert.equal(await input.inputValue(), 'What boils first?');
    assert.equal(await page.getByTestId('composer-file').count(), 1);

    await card.getByTestId('fix-pdf-as-text').click();
    await page.getByTestId('message-assistant').getByTestId('answer').waitFor({ timeout: 10000 });
    const sends = await page.evaluate(() => window.__calls.filter((c) => c.cmd === 'send_message').map((c) => c.args.request));
    assert.equal(sends.length, 2);
    assert.equal(sends[0].pdfAsText, false);
    assert.equal(sends[1].pdfAsText, true, 'the second time, with the user agreeing');
    assert.equal(sends[1].text, 'What boils first?');
    assert.deepEqual(sends[1].files.map((f) => f.sha256), [PDF.sha256]);
    assert.equal(await card.count(), 0, 'the card is gone');
    assert.deepEqual(problems, []);
  });

  it('sends a question that is only a file', async () => {
    const { page, problems } = await openChat();
    await drag(page, ['dragenter', 'dragover', 'drop'], { files: [asFile(PNG, 'image/png')] });
    await page.getByTestId('composer-file').waitFor();
    const send = page.getByRole('button', { name: 'Send', exact: true });
    assert.equal(await send.isEnabled(), true, 'files alone can be sent');
    await send.click();
    await page.getByTestId('message-assistant').getByTestId('answer').waitFor({ timeout: 10000 });
    const sent = await page.evaluate(() => window.__calls.find((c) => c.cmd === 'send_message').args.request);
    assert.equal(sent.text, '');
    assert.deepEqual(sent.files.map((f) => f.sha256), [PNG.sha256]);
    assert.deepEqual(problems, []);
  });
});

describe('a large file', () => {
  it('goes to the backend a megabyte at a time and is stored whole', async () => {
    const { createHash } = await import('node:crypto');
    const body = Buffer.alloc(2.5 * 1024 * 1024, 'x');
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), body, Buffer.from('\n%%EOF\n')]);
    const { page, problems } = await openChat();
    await drag(page, ['dragenter', 'dragover', 'drop'], { files: [{ name: 'scan.pdf', type: 'application/pdf', bytes: [...pdf] }] });
    await page.getByTestId('composer-file').waitFor();
    const calls = await page.evaluate(() =>
      window.__fake.calls.filter((c) => c.cmd === 'attach_bytes').map((c) => ({ headers: c.headers, length: c.args.length })),
    );
    assert.deepEqual(
      calls.map((c) => [c.headers['x-ponder-offset'], c.headers['x-ponder-final'], c.length]),
      [
        ['0', '0', 1048576],
        ['1048576', '0', 1048576],
        ['2097152', '1', pdf.length - 2097152],
      ],
    );
    assert.equal(new Set(calls.map((c) => c.headers['x-ponder-upload'])).size, 1, 'one upload');
    assert.match(calls[0].headers['x-ponder-upload'], /^[0-9a-f]{32}$/);
    const input = page.getByTestId('composer-input');
    await input.fill('What is scanned here?');
    await input.press('Enter');
    await page.getByTestId('message-assistant').getByTestId('answer').waitFor({ timeout: 10000 });
    const sent = await page.evaluate(() => window.__calls.find((c) => c.cmd === 'send_message').args.request.files);
    assert.deepEqual(sent.map((f) => f.sha256), [createHash('sha256').update(pdf).digest('hex')], 'the whole file, by its hash');
    assert.deepEqual(problems, []);
  });
});
