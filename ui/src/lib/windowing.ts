// Which rows of a long thread to render: those near the viewport, with measured heights
// where we have them and an estimate for the rest. Pure, so it can be tested without a DOM.
// Ours rather than a virtual-list package: rows change height while a thought streams and
// folds, and the thread must keep the reader's place through that; the long-thread
// performance work measures it against the targets.

export interface WindowInput {
  /** Where each row starts, and at the end where the last one ends (`rowOffsets`, or a
   * `RowLayout`'s). */
  offsets: readonly number[];
  scrollTop: number;
  viewport: number;
  /** Extra pixels rendered above and below the viewport. */
  overscan: number;
  /**
   * The view is held at the end (a conversation just opened, or following an answer): take
   * the rows of the last screenful whatever `scrollTop` says, so the first render is already
   * the right one instead of the top rows and then the end a frame later.
   */
  atEnd?: boolean;
  /**
   * The rows shown now, held until the next scroll event: of the rows outside them, only those
   * on screen are brought in (rows are still dropped).
   */
  held?: Pick<WindowRange, 'start' | 'end'> | null;
}

export interface WindowRange {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
  /** Height of the rows above `start` (a spacer). */
  padTop: number;
  /** Height of the rows from `end` on (a spacer). */
  padBottom: number;
  total: number;
}

export function rowOffsets(heights: readonly (number | undefined)[], estimate: number, gap = 0): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = (offsets[i] ?? 0) + (heights[i] ?? estimate) + gap;
  return offsets;
}

/**
 * The offsets of a thread's rows, kept up to date as its rows and their heights change, each
 * time from the first row that changed rather than from the top. A long thread's rows change at
 * their end (a question sent, the answer streaming and measured each frame, the answer stored):
 * worked out again whole, ten thousand rows cost milliseconds of every such frame.
 */
export class RowLayout<T extends { key: string }> {
  private rows: readonly T[] = [];
  private readonly at = new Map<string, number>();
  /** `offsets[i]` is where row i starts; the last, where the last row ends. */
  private readonly starts: number[] = [0];
  /** The first row whose offset below it is out of date; `rows.length` when none is. */
  private stale = 0;

  /** `heightOf` is a row's height now: measured, or estimated until it is drawn. */
  constructor(private readonly heightOf: (row: T) => number) {}

  /** The thread's rows are now `rows`: those that are the same objects, in the same places,
   * from the top, keep their offsets. */
  setRows(rows: readonly T[]): void {
    const before = this.rows;
    if (rows === before) return;
    const common = Math.min(before.length, rows.length);
    let same = 0;
    while (same < common && rows[same] === before[same]) same++;
    for (let i = same; i < before.length; i++) {
      const key = before[i]?.key;
      if (key !== undefined && this.at.get(key) === i) this.at.delete(key);
    }
    for (let i = same; i < rows.length; i++) {
      const row = rows[i];
      if (row) this.at.set(row.key, i);
    }
    this.rows = rows;
    this.starts.length = rows.length + 1;
    this.stale = Math.min(this.stale, same);
  }

  /** The row `key`'s height may have changed: its offsets below it are worked out again. */
  changed(key: string): void {
    const i = this.at.get(key);
    if (i !== undefined && i < this.stale) this.stale = i;
  }

  /** Where the row `key` is, or -1. */
  indexOf(key: string): number {
    return this.at.get(key) ?? -1;
  }

  /** The row `key`, if it is one of the rows. */
  row(key: string): T | undefined {
    const i = this.at.get(key);
    return i === undefined ? undefined : this.rows[i];
  }

  /** The offsets, brought up to date. The same array each time, changed in place: read it
   * now, do not keep it. */
  offsets(): readonly number[] {
    const rows = this.rows;
    const starts = this.starts;
    for (let i = this.stale; i < rows.length; i++) {
      const row = rows[i];
      starts[i + 1] = (starts[i] ?? 0) + (row ? this.heightOf(row) : 0);
    }
    this.stale = rows.length;
    return starts;
  }
}

/** The index of the row containing `y` (binary search over the offsets). */
export function rowAt(offsets: readonly number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rows to render: two binary searches over the offsets, so a scroll costs the same in a
 * thread of ten rows and of ten thousand. */
export function computeWindow(input: WindowInput): WindowRange {
  const offsets = input.offsets;
  const n = Math.max(0, offsets.length - 1);
  const total = offsets[n] ?? 0;
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 };
  const scrollTop = input.atEnd ? Math.max(0, total - input.viewport) : input.scrollTop;
  const top = Math.max(0, scrollTop - input.overscan);
  const bottom = scrollTop + input.viewport + input.overscan;
  let start = rowAt(offsets, top);
  let end = rowAt(offsets, bottom) + 1;
  const held = input.held;
  if (held) {
    start = Math.max(start, Math.min(held.start, rowAt(offsets, scrollTop)));
    end = Math.min(end, Math.max(held.end, rowAt(offsets, scrollTop + input.viewport) + 1));
  }
  end = Math.min(n, Math.max(end, start + 1));
  return { start, end, padTop: offsets[start] ?? 0, padBottom: total - (offsets[end] ?? total), total };
}

/**
 * How far to move the scroll position when rows above the first visible one change height,
 * so what the user is reading stays put (WebKitGTK has no CSS scroll anchoring).
 */
export function anchorShift(
  before: readonly (number | undefined)[],
  after: readonly (number | undefined)[],
  estimate: number,
  anchorRow: number,
): number {
  let shift = 0;
  for (let i = 0; i < anchorRow; i++) shift += (after[i] ?? estimate) - (before[i] ?? estimate);
  return shift;
}

/**
 * The rows of a list of `count` rows of one height `rowHeight` to render, when the list's top
 * is `offset` pixels into a view `viewport` tall (negative while the list starts below the
 * view's top): those in view and `overscan` rows beyond each edge. Constant time, so a
 * sidebar of a hundred thousand conversations costs what its screenful costs.
 */
export function fixedWindow(count: number, rowHeight: number, offset: number, viewport: number, overscan: number): { start: number; end: number } {
  if (count === 0 || rowHeight <= 0) return { start: 0, end: count };
  const first = Math.floor(Math.max(0, offset) / rowHeight);
  const last = Math.ceil(Math.max(0, offset + viewport) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start, last + overscan));
  return { start, end };
}
