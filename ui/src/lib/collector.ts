// The page's engine collects garbage as the page allocates, and a chat app spends most of
// its life idle: a long thread let go of stays in memory until something else is allocated,
// tens of megabytes, for as long as the app sits on a new chat. WebKit takes a frame going
// away as a sign that a large graph of objects has just been dropped and hastens its next
// whole collection (the app also has it act on that sign within a second: webview.rs).
// Nothing a page can call asks for a collection directly; an empty frame put in and taken
// out is the cheapest thing that gives the sign.

/** At most one sign in this time: a collection is what it buys, and one is enough. */
const HINT_GAP_MS = 2_000;

let lastHint = -Infinity;

/**
 * Tells the engine that a large part of the page was just let go of (a long thread left for
 * another chat). True when the sign was given, false when one was given too recently.
 */
export function hintGarbage(now = performance.now()): boolean {
  if (typeof document === 'undefined' || now - lastHint < HINT_GAP_MS) return false;
  lastHint = now;
  const frame = document.createElement('iframe');
  // No document to load, no script to run, nothing to see or reach: only the frame itself.
  frame.setAttribute('sandbox', '');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.display = 'none';
  document.body.append(frame);
  setTimeout(() => frame.remove(), 0);
  return true;
}
