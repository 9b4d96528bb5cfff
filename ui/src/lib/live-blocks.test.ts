import { describe, expect, it } from 'vitest';

import { applyLiveOps, BLOCK_CHARS, LiveCutter } from './live-blocks';

/** A thought of `n` lines, each `width` characters and a newline; every fifth indented. */
const lines = (n: number, width = 79, from = 0): string =>
  Array.from({ length: n }, (_, i) => `${i % 5 === 4 ? '    ' : ''}${String(from + i).padStart(6, '0')} ${'x'.repeat(width - 7)}\n`).join('');

/** What the area shows for `text`: indents as no-break spaces. */
const shown = (text: string): string => text.replace(/^[ \t]+/gm, (lead) => lead.replaceAll('\t', '    ').replaceAll(' ', '\u00a0'));

/** An area that `text` streamed into, `step` characters at a time. */
function stream(text: string, step: number): HTMLElement {
  const area = document.createElement('div');
  const cutter = new LiveCutter();
  for (let at = 0; at <= text.length; at += step) applyLiveOps(area, cutter.update(text.slice(0, at)));
  applyLiveOps(area, cutter.update(text));
  return area;
}

describe('a live thought in blocks', () => {
  it('streamed a few characters at a time, shows what the whole shows, and only ever appends', () => {
    const text = lines(400);
    const area = document.createElement('div');
    const cutter = new LiveCutter();
    // A selection in the first block, made early, stays through everything after.
    applyLiveOps(area, cutter.update(text.slice(0, BLOCK_CHARS + 200)));
    const range = document.createRange();
    range.setStart(area.firstChild!.firstChild!, 10);
    range.setEnd(area.firstChild!.firstChild!, 30);
    const selected = range.toString();
    const firstBlocks: string[] = [];
    for (let at = BLOCK_CHARS + 200; at <= text.length; at += 7) {
      applyLiveOps(area, cutter.update(text.slice(0, at)));
      expect(area.textContent).toBe(shown(text.slice(0, at)));
      // A full block is never written to again.
      const blocks = [...area.children].map((b) => b.textContent ?? '');
      const full = Math.max(0, firstBlocks.length - 1);
      expect(blocks.slice(0, full)).toEqual(firstBlocks.slice(0, full));
      firstBlocks.splice(0, firstBlocks.length, ...blocks);
    }
    expect(range.toString()).toBe(selected);
    expect(area.children.length).toBeGreaterThan(5);
    for (const block of [...area.children].slice(0, -1)) {
      expect(block.childNodes.length).toBe(1);
      expect(block.textContent!.endsWith('\n')).toBe(true);
      expect(block.textContent!.length).toBeGreaterThanOrEqual(BLOCK_CHARS);
      expect(block.textContent!.length).toBeLessThan(BLOCK_CHARS + 90);
    }
  });

  it('gives the same blocks whether the text comes at once or a token at a time', () => {
    const text = lines(300) + '\tcode()\n  two spaces\nend';
    const whole = stream(text, text.length);
    const tokens = stream(text, 6);
    expect([...tokens.children].map((b) => b.textContent)).toEqual([...whole.children].map((b) => b.textContent));
    expect(whole.textContent).toBe(shown(text));
    expect(whole.textContent!.endsWith('\u00a0'.repeat(4) + 'code()\n\u00a0\u00a0two spaces\nend')).toBe(true);
  });

  it('cuts a line that runs on for pages at a space', () => {
    const words = 'word '.repeat(BLOCK_CHARS);
    const area = stream(words, 5);
    expect(area.children.length).toBe(2);
    // At the first space from four blocks' worth on.
    expect(area.children[0]!.textContent!.length).toBeGreaterThanOrEqual(4 * BLOCK_CHARS);
    expect(area.children[0]!.textContent!.length).toBeLessThanOrEqual(4 * BLOCK_CHARS + 5);
    expect(area.children[0]!.textContent!.endsWith(' ')).toBe(true);
    expect(area.textContent).toBe(words);
  });

  it('starts over for a text that is not the last one with more at its end', () => {
    const area = document.createElement('div');
    const cutter = new LiveCutter();
    applyLiveOps(area, cutter.update(lines(200)));
    const other = lines(120, 79, 5000);
    applyLiveOps(area, cutter.update(other));
    expect(area.textContent).toBe(shown(other));
    expect(area.firstChild!.textContent!.startsWith('005000')).toBe(true);
  });

  it('says nothing when nothing was added', () => {
    const cutter = new LiveCutter();
    cutter.update('some thought');
    expect(cutter.update('some thought')).toEqual([]);
  });
});
