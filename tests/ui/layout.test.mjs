// The built UI in Chromium at the sizes low vision asks for, in both themes: a 1280×800 window
// at 200% zoom (a 640×400 CSS viewport drawn at scale 2) and a 320 px wide one (WCAG's reflow
// width); the first run, the model picker, the reasoning panel, Settings (every section), a
// thread with its thoughts open, its export menu, a row of the list with the focus and the
// compare view. Nothing may scroll sideways; no control may be cut at the window's edge (or
// at its top or foot with nothing to scroll it into view), stick out of its frame, lie over
// another control or over text. Then with forced colours (Windows' high contrast) every
// control keeps an edge, text or an icon once backgrounds are dropped, what is pressed, chosen
// or current still looks so, and every stop of the keyboard shows its focus ring.
// Screenshots land in tests/artifacts/; docs/accessibility/ keeps copies of some of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { rerunWithHaikuHigh, screenshot, startBrowser } from '../support/ui-page.mjs';

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };
const SIZES = [
  { name: 'zoom-200', viewport: { width: 640, height: 400 } },
  { name: 'narrow-320', viewport: { width: 320, height: 640 } },
];

let browser;

before(async () => {
  // Scale 2: the screenshots have the sharpness the zoomed window has.
  browser = await startBrowser({ viewport: SIZES[0].viewport, deviceScaleFactor: 2 });
});

after(async () => {
  await browser?.close();
});

async function send(page, text) {
  const input = page.getByTestId('composer-input');
  await input.fill(text);
  await input.press('Enter');
}

/**
 * What is wrong with the layout as it is now: a document or pane that scrolls sideways, a
 * control cut at the window's or its pane's edge or sticking out of its frame, a control over
 * another or over text. A control counts where it can be seen: shown, not under an open modal
 * dialog, and clipped by the panes it scrolls in. What lies in different layers (the page, a
 * popup or a fixed panel over it) is not compared.
 */
function layoutProblems(page) {
  return page.evaluate(() => {
    const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="option"], [tabindex="0"]';
    const problems = [];
    const name = (el) => {
      const id = el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.getAttribute('title') ?? el.textContent?.trim().slice(0, 24);
      return `${el.tagName.toLowerCase()}${el.classList.length ? '.' + [...el.classList].filter((c) => !c.startsWith('svelte-')).join('.') : ''}${id ? ` "${id}"` : ''}`;
    };
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the document scrolls sideways (${root.scrollWidth} > ${root.clientWidth})`);
    if (document.body.scrollWidth > document.body.clientWidth + 1) problems.push(`the body is wider than the window (${document.body.scrollWidth} > ${document.body.clientWidth})`);

    const shown = (el) =>
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true }) && !el.closest('[inert]');

    // Panes that scroll sideways; code and tables in an answer may.
    for (const el of document.querySelectorAll('body *')) {
      const cs = getComputedStyle(el);
      if (!['auto', 'scroll'].includes(cs.overflowX) || !shown(el)) continue;
      if (el.closest('.prose pre, .prose table')) continue;
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }

    /** Does `node` start a containing block for descendants positioned absolute / fixed? */
    const holdsFixed = (cs) => cs.transform !== 'none' || cs.filter !== 'none' || cs.perspective !== 'none' || /paint|layout|strict|content/.test(cs.contain) || cs.containerType !== 'normal';
    const holdsAbsolute = (cs) => cs.position !== 'static' || holdsFixed(cs);

    /**
     * The element's box cut to the scrolling and clipping boxes it is drawn in, and whether
     * one of those (or the window) scrolls up and down, so that what it cuts can be reached.
     */
    function seen(el, r = el.getBoundingClientRect(), from = el.parentElement, position = getComputedStyle(el).position) {
      let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      let scrolls = false;
      let mode = position;
      let node = from;
      for (; node && node !== document.body && !el.matches(':modal, :popover-open'); node = node.parentElement) {
        const cs = getComputedStyle(node);
        const contains = mode === 'fixed' ? holdsFixed(cs) : mode === 'absolute' ? holdsAbsolute(cs) : true;
        if (contains) {
          const nr = node.getBoundingClientRect();
          const left = nr.left + node.clientLeft;
          const top = nr.top + node.clientTop;
          if (cs.overflowX !== 'visible') box = { ...box, left: Math.max(box.left, left), right: Math.min(box.right, left + node.clientWidth) };
          if (cs.overflowY !== 'visible') box = { ...box, top: Math.max(box.top, top), bottom: Math.min(box.bottom, top + node.clientHeight) };
          if (['auto', 'scroll'].includes(cs.overflowY) && node.scrollHeight > node.clientHeight + 1) scrolls = true;
          mode = cs.position;
        }
        if (node.matches(':modal, :popover-open')) break;
      }
      // Reached the page itself (not a fixed layer): the window scrolls it if it is taller.
      if (node === document.body && mode !== 'fixed' && root.scrollHeight > root.clientHeight + 1 && getComputedStyle(document.body).overflowY !== 'hidden') scrolls = true;
      return { box, scrolls };
    }

    /** What the control is drawn in above the page: a popup, or a panel fixed over it. */
    function layerOf(el) {
      for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
        if (node.matches(':modal')) return null;
        if (node.matches('dialog, [role="dialog"], [role="listbox"], [popover]') || getComputedStyle(node).position === 'fixed') return node;
      }
      return null;
    }

    /** The nearest box around the control that is drawn: with a border or a background. */
    function frameOf(el) {
      for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
        const cs = getComputedStyle(node);
        const border = ['Top', 'Right', 'Bottom', 'Left'].every((side) => cs[`border${side}Style`] !== 'none' && parseFloat(cs[`border${side}Width`]) > 0);
        const background = !/rgba\(.*,\s*0\)$|transparent/.test(cs.backgroundColor);
        if (border || background) return node;
      }
      return null;
    }

    const modal = [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).at(-1);
    const controls = [];
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (!shown(el) || (modal && !modal.contains(el))) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      const { box, scrolls } = seen(el);
      // Cut at the window's top or bottom with nothing to scroll it into view.
      if ((r.top < -1 || r.bottom > vh + 1) && !scrolls) problems.push(`${name(el)} is cut by the window's ${r.top < -1 ? 'top' : 'bottom'} (${Math.round(r.top)}–${Math.round(r.bottom)} of ${vh})`);
      if (box.right - box.left <= 1 || box.bottom - box.top <= 1) continue;
      // Cut sideways: at the window's edge, or by the pane it sits in while it is in view.
      if (r.left < -1 || r.right > vw + 1) problems.push(`${name(el)} is cut by the window's edge (${Math.round(r.left)}–${Math.round(r.right)} of ${vw})`);
      else if (box.right - box.left < r.width - 1) problems.push(`${name(el)} is cut sideways by its pane (${Math.round(box.right - box.left)} of ${Math.round(r.width)} px seen)`);
      // Sticking out of the frame it is drawn in (the composer's box, a card, a dialog).
      const frame = frameOf(el);
      if (frame) {
        const f = frame.getBoundingClientRect();
        if (r.left < f.left - 1 || r.right > f.right + 1) problems.push(`${name(el)} sticks out of ${name(frame)} (${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(f.left)}–${Math.round(f.right)})`);
      }
      controls.push({ el, box, layer: layerOf(el) });
    }
    // Text a control lies over: a label under its field, say. Text inside a control is the
    // control's own, compared with the others above.
    const overlap = (a, b) => [Math.min(a.right, b.right) - Math.max(a.left, b.left), Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const parent = t.parentElement;
      if (!t.textContent.trim() || !parent || parent.closest(CONTROLS) || !shown(parent) || (modal && !modal.contains(parent))) continue;
      const layer = layerOf(t);
      const range = document.createRange();
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) {
        // A line of text overflows its element unless that clips it: cut from the element in.
        const { box: line } = seen(parent, r, parent, 'static');
        if (line.right - line.left <= 2 || line.bottom - line.top <= 2) continue;
        const over = controls.find((c) => c.layer === layer && overlap(c.box, line).every((d) => d > 2));
        if (over) problems.push(`${name(over.el)} lies over the text "${t.textContent.trim().slice(0, 30)}"`);
      }
    }

    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i];
        const b = controls[j];
        if (a.layer !== b.layer || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > 2 && y > 2) problems.push(`${name(a.el)} and ${name(b.el)} overlap (${Math.round(x)}×${Math.round(y)} px)`);
      }
    }
    return problems;
  });
}

async function checkLayout(page, screen) {
  assert.deepEqual(await layoutProblems(page), [], `${screen}: the layout holds`);
}

/** Saves the screen's screenshot (to look at when the check fails), then checks it. */
async function shoot(page, size, screen, theme) {
  await screenshot(page, `${size}-${screen}-${theme}`);
  await checkLayout(page, `${size} ${screen} (${theme})`);
}

for (const size of SIZES) {
  describe(`at ${size.viewport.width}×${size.viewport.height} CSS px (${size.name})`, () => {
    for (const theme of ['light', 'dark']) {
      it(`the first run, the model picker and Settings hold (${theme})`, async () => {
        const { page, problems } = await browser.open({ theme, viewport: size.viewport });
        await page.getByTestId('thread-empty').waitFor();
        await shoot(page, size.name, 'first-run', theme);
        await page.getByTestId('composer-input').focus();
        await page.keyboard.press('Control+m');
        await page.getByTestId('model-picker').waitFor();
        await shoot(page, size.name, 'picker', theme);
        await page.keyboard.press('Escape');
        await page.getByTestId('model-picker').waitFor({ state: 'detached' });
        await page.getByTestId('reasoning-toggle').click();
        await page.getByTestId('reasoning-panel').waitFor();
        await shoot(page, size.name, 'reasoning', theme);
        await page.getByRole('button', { name: 'Close the reasoning panel' }).click();
        await page.getByTestId('reasoning-panel').waitFor({ state: 'detached' });
        await page.getByTestId('open-settings').click();
        await page.getByTestId('settings-close').waitFor();
        await shoot(page, size.name, 'settings', theme);
        // Every section, a panel's height at a time.
        const body = page.locator('.settings-body');
        for (let step = 1; await body.evaluate((b) => b.scrollTop + b.clientHeight < b.scrollHeight - 1); step++) {
          await body.evaluate((b) => b.scrollBy(0, b.clientHeight - 24));
          await checkLayout(page, `${size.name} settings, scrolled ${step} (${theme})`);
        }
        assert.deepEqual(problems, []);
        await page.close();
      });

      it(`a thread with its thoughts open and the compare view hold (${theme})`, async () => {
        const { page, problems } = await browser.open({ theme, viewport: size.viewport, backend: { settings: DEFAULTS } });
        await send(page, 'How many primes are below 100?');
        await page.getByTestId('thought-preview').waitFor({ timeout: 15000 });
        await page.getByTestId('thought-header').click();
        await page.getByTestId('thought-body').waitFor();
        // Stacked under the list in a narrow window, the chat is scrolled to as a whole.
        await page.getByRole('main').evaluate((main) => main.scrollIntoView());
        await shoot(page, size.name, 'thread', theme);
        await page.getByTestId('export-button').click();
        await page.getByRole('dialog', { name: 'Export this conversation' }).waitFor();
        await checkLayout(page, `${size.name} the export menu (${theme})`);
        await page.keyboard.press('Escape');
        // A row of the list with the focus shows its actions beside its title.
        await page.locator('[data-testid="conversation"] [data-sidebar-row]').first().focus();
        await checkLayout(page, `${size.name} a conversation focused (${theme})`);
        if (size.viewport.width < 600) {
          // Opened from the list above it, the chat is scrolled to.
          await page.evaluate(() => document.scrollingElement.scrollTo(0, 0));
          await page.keyboard.press('Enter');
          await page.waitForFunction(() => Math.abs(document.querySelector('main').getBoundingClientRect().top) <= 1);
        }
        await rerunWithHaikuHigh(page);
        const answer = page.getByTestId('message-assistant');
        await answer.getByTestId('versions').waitFor();
        await page.getByTestId('message-meta').last().waitFor();
        await answer.getByTestId('version-compare').click();
        await page.getByTestId('compare-view').waitFor();
        await shoot(page, size.name, 'compare', theme);
        assert.deepEqual(problems, []);
        await page.close();
      });
    }
  });
}

/**
 * The controls that would vanish once forced colours drop every background: no border on
 * each side, no text that shows and no icon drawn in the text's colour. Native checkboxes,
 * radios and selects are drawn by the system in its own colours.
 */
function unseenInForcedColours(page) {
  return page.evaluate(() => {
    const name = (el) => `${el.tagName.toLowerCase()}${el.classList.length ? '.' + [...el.classList].filter((c) => !c.startsWith('svelte-')).join('.') : ''} "${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 24)}"`;
    const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && !el.closest('[inert]');
    const modal = [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).at(-1);
    const bordered = (cs) => ['Top', 'Right', 'Bottom', 'Left'].every((side) => !['none', 'hidden'].includes(cs[`border${side}Style`]) && parseFloat(cs[`border${side}Width`]) > 0);
    const transparent = (colour) => colour === 'transparent' || /rgba\(.*,\s*0\)$/.test(colour);
    const textShows = (el) => {
      if ((el.matches('input, textarea') && (el.value || el.placeholder))) return true;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        if (!t.textContent.trim()) continue;
        const parent = t.parentElement;
        const r = parent.getBoundingClientRect();
        if (shown(parent) && r.width > 1 && r.height > 1 && !transparent(getComputedStyle(parent).color)) return true;
      }
      return false;
    };
    const iconShows = (el) =>
      [...el.querySelectorAll('svg')].some((svg) => {
        const cs = getComputedStyle(svg);
        return shown(svg) && !transparent(cs.color) && (cs.stroke === cs.color || cs.fill === cs.color);
      });
    const unseen = [];
    for (const el of document.querySelectorAll('button, input:not([type="hidden"]), select, textarea')) {
      if (!shown(el) || (modal && !modal.contains(el))) continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      const cs = getComputedStyle(el);
      if (cs.appearance !== 'none' && el.matches('input[type="checkbox"], input[type="radio"], select')) continue;
      if (bordered(cs) || textShows(el) || iconShows(el)) continue;
      unseen.push(name(el));
    }
    return unseen;
  });
}

/**
 * The pressed, chosen or current controls that look like their plain neighbours once forced
 * colours drop backgrounds: nothing but a background (or a shadow) told them apart.
 */
function statesUnseen(page) {
  return page.evaluate(() => {
    const STATES = '[aria-pressed="true"], [aria-selected="true"], [aria-current]:not([aria-current="false"])';
    const kind = (el) => `${el.tagName} ${el.getAttribute('role')} ${[...el.classList].filter((c) => c !== 'active').sort().join(' ')}`;
    const looks = (el) => {
      const cs = getComputedStyle(el);
      const own = cs.forcedColorAdjust === 'none' ? [cs.backgroundColor] : [];
      return JSON.stringify([cs.color, cs.fontWeight, cs.textDecorationLine, cs.borderTopStyle, cs.borderTopWidth, cs.borderTopColor, ...own]);
    };
    const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && el.getBoundingClientRect().width > 1;
    const unseen = [];
    for (const el of document.querySelectorAll(STATES)) {
      if (!shown(el)) continue;
      const peers = [...document.querySelectorAll(el.tagName)].filter((p) => p !== el && !p.matches(STATES) && kind(p) === kind(el) && shown(p));
      if (peers.length > 0 && peers.every((p) => looks(p) === looks(el))) unseen.push(`${kind(el)} "${el.textContent.trim().slice(0, 24)}"`);
    }
    return unseen;
  });
}

/** Tabs through the window (at most `limit` stops) and lists the stops that show no outline. */
async function focusWithoutOutline(page, limit = 80) {
  const missing = [];
  let first = null;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const id = `${el.tagName.toLowerCase()}.${[...el.classList].filter((c) => !c.startsWith('svelte-')).join('.')} "${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 24)}"`;
      const ring = (node) => {
        const cs = getComputedStyle(node);
        return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 1 && !/rgba\(.*,\s*0\)$|transparent/.test(cs.outlineColor);
      };
      // A field without a frame of its own (the composer's, the search's) has its box ring.
      const frame = [el.parentElement, el.parentElement?.parentElement].find((node) => node?.matches(':focus-within') && ring(node));
      const outlined = el.matches(':focus-visible') && (ring(el) || Boolean(frame));
      return { id, outlined, key: [...document.querySelectorAll('*')].indexOf(el) };
    });
    if (!stop) continue;
    if (first === stop.key) break;
    first ??= stop.key;
    if (!stop.outlined) missing.push(stop.id);
  }
  return [...new Set(missing)];
}

describe('forced colours (high contrast)', () => {
  for (const theme of ['light', 'dark']) {
    it(`every control keeps an edge, text or icon, and the focus shows (${theme})`, async () => {
      const { page, problems } = await browser.open({ theme, viewport: { width: 1180, height: 760 }, backend: { settings: DEFAULTS } });
      await page.emulateMedia({ forcedColors: 'active' });
      assert.ok(await page.evaluate(() => matchMedia('(forced-colors: active)').matches), 'forced colours are on');
      await send(page, 'How many primes are below 100?');
      await page.getByTestId('thought-preview').waitFor({ timeout: 15000 });
      await page.getByTestId('thought-header').click();
      await page.getByTestId('thought-body').waitFor();
      assert.deepEqual(await unseenInForcedColours(page), [], 'the thread');
      assert.deepEqual(await statesUnseen(page), [], 'the theme in use and the open conversation are marked');
      await page.getByTestId('composer-input').focus();
      assert.deepEqual(await focusWithoutOutline(page), [], 'focus stops without an outline in the window');
      await screenshot(page, `forced-colours-thread-${theme}`);

      await page.getByTestId('composer-input').focus();
      await page.keyboard.press('Control+m');
      await page.getByTestId('model-picker').waitFor();
      assert.deepEqual(await unseenInForcedColours(page), [], 'the model picker');
      assert.deepEqual(await statesUnseen(page), [], 'the option the arrows are on is marked');
      await page.keyboard.press('Escape');

      await page.getByTestId('open-settings').click();
      await page.getByTestId('settings-close').waitFor();
      assert.deepEqual(await unseenInForcedColours(page), [], 'Settings');
      assert.deepEqual(await focusWithoutOutline(page, 120), [], 'focus stops without an outline in Settings');
      await screenshot(page, `forced-colours-settings-${theme}`);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
