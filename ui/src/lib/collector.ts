// The page's engine collects garbage as the page allocates, and a chat app spends most of
// its life idle: a long thread let go of stays in memory until something else is allocated,
// tens of megabytes, for as long as the app sits on a new chat. WebKit takes a frame going
// away as a sign that a large graph of objects has just been dropped and hastens its next
// whole collection (the app has it follow within a second or so: webview.rs).
// Nothing a web page can call asks for a collection directly; an empty frame put in and taken
// out is the cheapest thing that gives the sign. The sign only hastens a timer, though, and
// after a long thread was scrolled through that timer is seconds away. So in the app, whose
// web-process extension adds a function that runs a whole collection at once
// (src-tauri/web-extension/collect.c), that function is called instead. The first time, where
// the extension has it, WebKit is also asked to do what it does when the system runs short of
// memory: its caches for drawing and its compiled scripts go too, about half of what scrolling
// and streaming through a long thread leave once the thread itself is freed (README.md). The page
// compiles the scripts it runs next again, so the next thing it does may take a little longer.

import { measureSince } from './perf';

declare global {
  /** A whole collection of the page's garbage, now (only in the app: see above). */
  var __ponderCollectGarbage: (() => void) | undefined;
  /** The same, and WebKit's caches and compiled scripts let go of (only in the app, and only
   * where its WebKit has this: see above). The code is freed by the next collection. */
  var __ponderReleaseMemory: (() => void) | undefined;
}

/** The sign is given (or the collection run) again after this long: a collection that had
 * already begun when the thread was let go of, or one while something still held it (a
 * last task of the view that showed it), still found it in use. */
const AGAIN_MS = 2_000;

let again: ReturnType<typeof setTimeout> | undefined;

/**
 * Tells the engine that a large part of the page was just let go of (a long thread left for
 * another chat), now and once more a moment later.
 */
export function hintGarbage(): void {
  if (typeof document === 'undefined') return;
  collectOrSign('first');
  clearTimeout(again);
  again = setTimeout(() => collectOrSign('again'), AGAIN_MS);
}

function collectOrSign(which: 'first' | 'again'): void {
  // The compiled scripts WebKit deletes on the first call are freed by the whole collection
  // of the second.
  const collect = (which === 'first' ? globalThis.__ponderReleaseMemory : undefined) ?? globalThis.__ponderCollectGarbage;
  if (typeof collect !== 'function') {
    giveSign();
    return;
  }
  const start = performance.now();
  collect();
  // How long the page stood still for it (the benchmark prints it).
  measureSince(`ponder:collect:${which}`, start);
}

function giveSign(): void {
  const frame = document.createElement('iframe');
  // No document to load, no script to run, nothing to see or reach: only the frame itself.
  frame.setAttribute('sandbox', '');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.display = 'none';
  document.body.append(frame);
  setTimeout(() => frame.remove(), 0);
}
