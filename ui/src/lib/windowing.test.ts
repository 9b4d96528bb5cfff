import { describe, expect, it } from 'vitest';

import { anchorShift, computeWindow, fixedWindow, rowAt, RowLayout, rowOffsets } from './windowing';

describe('windowing', () => {
  it('computes offsets with estimates for unmeasured rows', () => {
    expect(rowOffsets([10, undefined, 30], 20)).toEqual([0, 10, 30, 60]);
    expect(rowOffsets([10, 10], 20, 5)).toEqual([0, 15, 30]);
  });

  it('finds the row at a position', () => {
    const offsets = [0, 10, 30, 60];
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 9)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 59)).toBe(2);
    expect(rowAt(offsets, 500)).toBe(2);
  });

  it('renders only the rows near the viewport of a long thread', () => {
    const heights = new Array<number>(1000).fill(100);
    const range = computeWindow({ offsets: rowOffsets(heights, 100), scrollTop: 50_000, viewport: 700, overscan: 300 });
    expect(range.start).toBe(497);
    expect(range.end).toBe(511);
    expect(range.padTop).toBe(49_700);
    expect(range.padTop + (range.end - range.start) * 100 + range.padBottom).toBe(100_000);
    expect(range.total).toBe(100_000);
  });

  it('takes the last screenful when held at the end, whatever the scroll position says', () => {
    const heights: (number | undefined)[] = new Array<number | undefined>(2000).fill(undefined);
    heights[1999] = 900;
    // Just opened: the scroll position is still the previous view's (0).
    const range = computeWindow({ offsets: rowOffsets(heights, 160), scrollTop: 0, viewport: 800, overscan: 900, atEnd: true });
    expect(range.end).toBe(2000);
    // The last row (900 px) fills the screen; 900 px of overscan above it take the five
    // estimated rows before it (800 px) and start at the sixth's end.
    expect(range.start).toBe(1994);
    expect(range.padBottom).toBe(0);
    expect(range.padTop).toBe(1994 * 160);
    // Short threads start at their top.
    const short = computeWindow({ offsets: rowOffsets([50, 50], 100), scrollTop: 0, viewport: 700, overscan: 300, atEnd: true });
    expect([short.start, short.end]).toEqual([0, 2]);
  });

  it('handles an empty and a short thread', () => {
    expect(computeWindow({ offsets: rowOffsets([], 100), scrollTop: 0, viewport: 700, overscan: 300 })).toEqual({
      start: 0,
      end: 0,
      padTop: 0,
      padBottom: 0,
      total: 0,
    });
    const short = computeWindow({ offsets: rowOffsets([50, 50], 100), scrollTop: 0, viewport: 700, overscan: 300 });
    expect([short.start, short.end, short.padTop, short.padBottom]).toEqual([0, 2, 0, 0]);
  });

  it('shifts the scroll by what rows above the anchor grew', () => {
    expect(anchorShift([100, undefined, 100], [120, 80, 500], 100, 2)).toBe(0);
    expect(anchorShift([100, undefined, 100], [150, 100, 500], 100, 2)).toBe(50);
    expect(anchorShift([100], [150], 100, 0)).toBe(0);
  });

  it('held, brings in only the rows on screen and still drops the rest', () => {
    const heights = Array.from({ length: 100 }, () => 100);
    const at = (scrollTop: number, held?: { start: number; end: number }) =>
      computeWindow({ offsets: rowOffsets(heights, 100), scrollTop, viewport: 600, overscan: 900, held });
    const held = at(5000);
    expect([held.start, held.end]).toEqual([41, 66]);
    // Scrolled 400 px up before the event: the rows above wait for it, those below go.
    const up = at(4600, held);
    expect([up.start, up.end, up.padTop, up.padBottom]).toEqual([41, 62, 4100, 3800]);
    // Scrolled past everything held: the rows on screen come in at once.
    const far = at(1000, held);
    expect([far.start, far.end]).toEqual([10, 26]);
    // Nothing to hold back: the same window.
    expect(at(5000, held)).toEqual(held);
  });
});

describe('fixedWindow', () => {
  it.each([
    // count, height, offset, viewport, overscan → start, end
    [0, 32, 0, 600, 10, 0, 0],
    [5, 32, 0, 600, 10, 0, 5],
    [100_000, 32, 0, 640, 10, 0, 30],
    [100_000, 32, 32_000, 640, 10, 990, 1030],
    [100_000, 32, 32_016, 640, 10, 990, 1031],
    // The list starts below the view's top: its first rows are in view.
    [100_000, 32, -200, 640, 10, 0, 24],
    // Scrolled past the end (a list that shrank): nothing past its last row.
    [100, 32, 10_000, 640, 10, 100, 100],
    [100, 32, 2_900, 640, 10, 80, 100],
  ])('%i rows of %i px at %i in %i px, %i over: %i–%i', (count, height, offset, viewport, overscan, start, end) => {
    expect(fixedWindow(count, height, offset, viewport, overscan)).toEqual({ start, end });
  });
});

describe('RowLayout', () => {
  it('keeps the offsets of a long thread as it changes, from the first row that changed', () => {
    type Row = { key: string; height: number };
    const rows: Row[] = Array.from({ length: 10_000 }, (_, i) => ({ key: `m${i}`, height: 20 + (i % 7) * 10 }));
    const heights = new Map<string, number>();
    let read = 0;
    const layout = new RowLayout<Row>((row) => {
      read++;
      return heights.get(row.key) ?? row.height;
    });
    const whole = (list: readonly Row[]) => rowOffsets(list.map((row) => heights.get(row.key) ?? row.height), 0);

    layout.setRows(rows);
    expect(layout.offsets()).toEqual(whole(rows));
    expect(read).toBe(10_000);

    // Read again with nothing changed: nothing is worked out again.
    read = 0;
    layout.setRows(rows);
    layout.offsets();
    expect(read).toBe(0);

    // A question and its answer added at the end: only they are read.
    const asked = [...rows, { key: 'q', height: 40 }, { key: 'a', height: 110 }];
    layout.setRows(asked);
    expect(layout.offsets()).toEqual(whole(asked));
    expect(read).toBe(2);

    // The streaming answer measured again: from it on.
    read = 0;
    heights.set('a', 300);
    layout.changed('a');
    expect(layout.offsets()).toEqual(whole(asked));
    expect(read).toBe(1);

    // A row high in the thread drawn at last: from it on, and where the others are stays known.
    read = 0;
    heights.set('m9000', 500);
    layout.changed('m9000');
    expect(layout.offsets()).toEqual(whole(asked));
    expect(read).toBe(1002);
    expect(layout.indexOf('m9000')).toBe(9000);
    expect(layout.indexOf('a')).toBe(10_001);
    expect(layout.row('q')).toBe(asked[10_000]);

    // The local question replaced by the stored one (another key) and the answer stored.
    read = 0;
    const stored = [...rows, { key: 'q-stored', height: 40 }, { key: 'a', height: 110 }];
    layout.setRows(stored);
    expect(layout.offsets()).toEqual(whole(stored));
    expect(read).toBe(2);
    expect(layout.indexOf('q')).toBe(-1);
    expect(layout.indexOf('q-stored')).toBe(10_000);

    // The rest of the thread joined above: all of it, and every key moves.
    const earlier: Row[] = Array.from({ length: 50 }, (_, i) => ({ key: `e${i}`, height: 30 }));
    const joined = [...earlier, ...stored];
    layout.setRows(joined);
    expect(layout.offsets()).toEqual(whole(joined));
    expect(layout.indexOf('m0')).toBe(50);
    expect(layout.indexOf('a')).toBe(10_051);

    // Another, shorter conversation.
    const other = rows.slice(0, 3).map((row) => ({ ...row }));
    layout.setRows(other);
    expect(layout.offsets()).toEqual(whole(other));
    expect(layout.offsets()).toHaveLength(4);
    expect(layout.indexOf('m5')).toBe(-1);
    expect(layout.indexOf('a')).toBe(-1);
    const window = computeWindow({ offsets: layout.offsets(), scrollTop: 0, viewport: 700, overscan: 0 });
    expect([window.start, window.end, window.total]).toEqual([0, 3, 90]);
  });
});
