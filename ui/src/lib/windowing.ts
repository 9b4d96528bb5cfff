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
  const start = rowAt(offsets, top);
  let end = rowAt(offsets, bottom) + 1;
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
 * `window` without the rows `held` did not have, unless the viewport shows them (`needed`,
 * the window without overscan): rows are brought in only by a scroll's own event.
 */
export function holdWindow(
  window: WindowRange,
  held: Pick<WindowRange, 'start' | 'end'>,
  needed: Pick<WindowRange, 'start' | 'end'>,
  heights: readonly (number | undefined)[],
  estimate: number,
): WindowRange {
  const start = Math.max(window.start, Math.min(held.start, needed.start));
  const end = Math.max(start + 1, Math.min(window.end, Math.max(held.end, needed.end)));
  if (start === window.start && end === window.end) return window;
  const offsets = rowOffsets(heights, estimate);
  return { start, end, padTop: offsets[start] ?? 0, padBottom: window.total - (offsets[end] ?? window.total), total: window.total };
}
