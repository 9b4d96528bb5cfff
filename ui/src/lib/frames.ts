// Stream events arrive as often as every few milliseconds; the window is drawn once a frame.
// Handing them over once a frame, all together, lets the thread re-render once per frame
// however fast the model writes.

/** A hidden window draws no frames; what waits for one still goes ahead within this time. */
export const HIDDEN_WAIT_MS = 100;

/**
 * Returns a function that queues an item; the items queued since the last delivery reach
 * `deliver` together, in order, just before the next frame is drawn.
 */
export function perFrame<T>(deliver: (items: T[]) => void): (item: T) => void {
  let queue: T[] = [];
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hasFrames = typeof requestAnimationFrame === 'function';

  const flush = (): void => {
    if (frame) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = 0;
    timer = undefined;
    const items = queue;
    queue = [];
    if (items.length > 0) deliver(items);
  };

  return (item: T) => {
    queue.push(item);
    if (queue.length > 1) return;
    if (hasFrames) frame = requestAnimationFrame(flush);
    timer = setTimeout(flush, hasFrames ? HIDDEN_WAIT_MS : 0);
  };
}

/**
 * Resolves in the first task after the next frame is drawn: work that must never delay that
 * frame (what is off screen, what can be read later) waits for it. With `orWithinMs`, it
 * resolves then at the latest: a hidden window draws no frames, and what waits must not wait
 * until it is shown.
 */
export function afterNextFrame(orWithinMs?: number): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    if (orWithinMs !== undefined) setTimeout(resolve, orWithinMs);
  });
}
