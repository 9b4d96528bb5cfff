// Which rows of a long thread to render: those near the viewport, with measured heights
// where we have them and an estimate for the rest. Pure, so it can be tested without a DOM.
// Ours rather than a virtual-list package: rows change height while a thought streams and
// folds, and the thread must keep the reader's place through that; the long-thread
// performance work measures it against the targets.

export interface WindowInput {
  /** Measured height per row, or undefined when not measured yet. */
  heights: readonly (number | undefined)[];
  estimate: number;
  scrollTop: number;
  viewport: number;
  /** Extra pixels rendered above and below the viewport. */
  overscan: number;
  /** Space between rows. */
  gap?: number;
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

export function computeWindow(input: WindowInput): WindowRange {
  const n = input.heights.length;
  const offsets = rowOffsets(input.heights, input.estimate, input.gap ?? 0);
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
