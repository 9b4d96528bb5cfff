// Work the page can do ahead of need (rendering a thread's older answers before they are
// scrolled to) runs a few milliseconds at a time while the reader is not scrolling and no
// answer is streaming, so that it never takes a frame's time from either.

export interface IdleOptions {
  /** True while the page has work of its own (a scroll, a stream): wait and ask again. */
  busy: () => boolean;
  /** The most one run takes before the page gets its main thread back. */
  sliceMs?: number;
  /** How long to wait before asking `busy` again. */
  retryMs?: number;
  now?: () => number;
}

/**
 * Calls `step` until it returns false (nothing left), in runs of at most `sliceMs`, each in
 * a task of its own. Returns a function that stops it.
 */
export function runWhenIdle(step: () => boolean, { busy, sliceMs = 4, retryMs = 250, now = () => performance.now() }: IdleOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Dropped once the work ends or is stopped: the returned stop function is kept by its
  // caller, and the work holds whatever it was going through (a whole thread).
  let work: (() => boolean) | null = step;
  let isBusy: (() => boolean) | null = busy;
  const stop = (): void => {
    work = null;
    isBusy = null;
    clearTimeout(timer);
    timer = undefined;
  };
  const run = (): void => {
    timer = undefined;
    if (!work || !isBusy) return;
    if (isBusy()) {
      timer = setTimeout(run, retryMs);
      return;
    }
    const start = now();
    do {
      if (!work()) {
        stop();
        return;
      }
    } while (now() - start < sliceMs);
    timer = setTimeout(run, 0);
  };
  timer = setTimeout(run, 0);
  return stop;
}
