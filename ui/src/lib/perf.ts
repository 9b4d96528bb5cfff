// Marks that the benchmark (tests/bench) reads from the page. Each costs microseconds and
// runs at most once per frame of stream events; nothing is kept unless a benchmark asks.

/**
 * Marks `name` at the first frame after now, once per page load (start-up figures), and
 * says when on the console (`ponder:list-shown at 1764089123456.7`, ms since the epoch): a
 * benchmark that launches the app without WebDriver reads it there.
 */
export function markOnce(name: string): void {
  if (typeof performance === 'undefined' || typeof requestAnimationFrame === 'undefined') return;
  if (performance.getEntriesByName(name).length > 0) return;
  requestAnimationFrame(() => {
    if (performance.getEntriesByName(name).length > 0) return;
    const mark = performance.mark(name);
    console.info(`${name} at ${(performance.timeOrigin + mark.startTime).toFixed(1)}`);
  });
}

/** Marks `name` now, once per page load: a step of the start-up, for the benchmark. */
export function markFirst(name: string): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name).length > 0) return;
  performance.mark(name);
}

/**
 * Marks a step of a user action (`ponder:open:read`, `ponder:open:rendered`, `ponder:open:whole`) for the benchmark's
 * breakdown; the page keeps only the newest of each name.
 */
export function markStep(name: string): void {
  if (typeof performance === 'undefined') return;
  performance.clearMarks(name);
  performance.mark(name);
}

/** Records how long a step took, from `start` to `end` (`performance.now()` times), for the
 * benchmark (`ponder:warmup`); the page keeps only the newest of each name. */
export function measureSince(name: string, start: number, end?: number): void {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  performance.clearMeasures(name);
  performance.measure(name, { start, end: end ?? performance.now() });
}

declare global {
  interface Window {
    /** Set to an array by a benchmark: for each frame of stream events, the ms from the
     * first token's arrival in the backend to the frame that shows it drawn. */
    __ponderPaintLatency?: number[];
    /** Set to an array by a benchmark: for each streamed token event, the ms from its
     * arrival in the backend to the page receiving it. */
    __ponderDeliveryLatency?: number[];
    /** Set by a benchmark to measure the floor of the paint latency (`paintFloor`). */
    __ponderPaintFloor?: boolean;
  }
}

/**
 * A frame's worth of streamed tokens was just handed to the thread; `arrived` is when the
 * first of them reached the backend (ms since the epoch). While a benchmark collects them,
 * records how long until that frame is drawn: a task posted now runs only after the frame's
 * rendering (style, layout, paint) is done.
 */
export function measurePaint(arrived: number): void {
  const sink = typeof window === 'undefined' ? undefined : window.__ponderPaintLatency;
  if (!Array.isArray(sink)) return;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    sink.push(performance.timeOrigin + performance.now() - arrived);
    channel.port1.close();
  };
  channel.port2.postMessage(null);
}

/**
 * A streamed token event reached the page; `arrived` is when it reached the backend (ms since
 * the epoch). While a benchmark collects them, records the time between: the backend's
 * batching and the message's way into the page, apart from the wait for a frame and drawing.
 */
export function measureDelivery(arrived: number): void {
  const sink = typeof window === 'undefined' ? undefined : window.__ponderDeliveryLatency;
  if (Array.isArray(sink)) sink.push(performance.timeOrigin + performance.now() - arrived);
}

/**
 * The floor under the paint latency. While a benchmark sets `window.__ponderPaintFloor`, a
 * run's text and thought deltas only replace a text node on screen instead of reaching the
 * thread: the same backend, channel, batching per frame and drawing, without the thread's own
 * work, which is what the thread adds. Returns what shows a delta, or null (not measuring).
 */
export function paintFloor(): ((delta: string) => void) | null {
  if (typeof window === 'undefined' || window.__ponderPaintFloor !== true) return null;
  let box = document.getElementById('ponder-paint-floor');
  if (!box) {
    box = document.createElement('div');
    box.id = 'ponder-paint-floor';
    box.style.cssText = 'position:fixed;right:8px;bottom:8px;z-index:1000;pointer-events:none;font:12px monospace';
    box.append(document.createTextNode(''));
    document.body.append(box);
  }
  const text = box.firstChild as Text;
  return (delta) => {
    text.data = delta;
  };
}
