// The live-thought figures: a thought already half a megabyte long (it arrives at once, as a
// fast model's would have streamed it), then 20 KB more at 2,000 characters a second, shown
// live in the real app. While the tail streams: each frame's time, whether the pane keeps the
// place it was scrolled to, and whether a selection made in it stays.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startMockProvider } from '../support/mock-provider.mjs';

/** How long after the long thought is in the page its drawing counts as catching up. */
const CATCH_UP_MS = 1000;

const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const delta = (text) => event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: text } });

/** Thought-like lines: numbered steps of words, about 80 characters each. */
function thoughtText(chars, seed) {
  const words = 'so the next prime after that is checked by trial division up to its square root which gives'.split(' ');
  let out = '';
  for (let line = 0; out.length < chars; line++) {
    let l = `${seed + line}. `;
    for (let w = line; l.length < 72; w++) l += `${words[w % words.length]} `;
    out += `${l.trimEnd()}\n`;
  }
  return out.slice(0, chars);
}

/**
 * An Anthropic stream whose thinking is `prefix` characters in one delta, then `tail` more
 * in deltas of six; returns the stream and the byte offset where the tail's deltas begin.
 */
function stream(prefix, tail) {
  const head = [
    event('message_start', {
      type: 'message_start',
      message: { id: 'msg_bench_long', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
    }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    delta(thoughtText(prefix, 1)),
  ].join('');
  const rest = thoughtText(tail, 100_000);
  const parts = [];
  for (let i = 0; i < rest.length; i += 6) parts.push(delta(rest.slice(i, i + 6)));
  parts.push(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'RXF1aXZhbGVudCBiZW5jaCBzaWduYXR1cmU=' } }));
  parts.push(event('content_block_stop', { type: 'content_block_stop', index: 0 }));
  parts.push(event('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }));
  parts.push(event('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Done.' } }));
  parts.push(event('content_block_stop', { type: 'content_block_stop', index: 1 }));
  parts.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1000 } }));
  parts.push(event('message_stop', { type: 'message_stop' }));
  return { body: head + parts.join(''), burst: Buffer.byteLength(head), tailDeltaBytes: Buffer.byteLength(delta('xxxxxx')) };
}

/**
 * Watches the page from before the question: the time of every frame once the live thought
 * holds `prefix` characters (checked every 250 ms until then, not every frame: reading half
 * a megabyte of text is itself work), and, `settleMs` after that, scrolls the live pane up
 * and selects a line in it; `window.__benchLive.check()` then says whether both held.
 */
const WATCH_LIVE = `
  const [prefix, settleMs] = arguments;
  const state = (window.__benchLive = { frames: [], from: null, error: null, stop: false, scrolledTo: null, selected: null });
  const area = () => document.querySelector('[data-testid="thought-live"]');
  const poll = setInterval(() => {
    const a = area();
    if (!a || a.textContent.length < prefix) return;
    clearInterval(poll);
    state.from = performance.now();
    setTimeout(() => {
      const a = area();
      if (!a) return (state.error = 'the live pane was gone');
      a.scrollTop = Math.max(0, a.scrollHeight - a.clientHeight - 1500);
      state.scrolledTo = a.scrollTop;
      // Forty characters in view, selected as a user's drag would.
      const box = a.getBoundingClientRect();
      const at = document.caretRangeFromPoint(box.left + 40, box.top + 40);
      if (!at || at.startContainer.nodeType !== Node.TEXT_NODE) return (state.error = 'no text in view to select');
      const range = document.createRange();
      const from = Math.min(at.startOffset, Math.max(0, at.startContainer.length - 40));
      range.setStart(at.startContainer, from);
      range.setEnd(at.startContainer, Math.min(at.startContainer.length, from + 40));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      state.selected = getSelection().toString();
    }, settleMs);
  }, 250);
  let last = null;
  const tick = (t) => {
    // Until the pane folds: the answer that follows is not this figure's.
    if (state.from !== null && !area()) state.stop = true;
    if (state.from !== null && last !== null && !state.stop) state.frames.push([t - state.from, t - last]);
    last = t;
    if (!state.stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  state.check = () => {
    const a = area();
    const selection = getSelection();
    return {
      scrollKept: Boolean(a) && state.scrolledTo !== null && Math.abs(a.scrollTop - state.scrolledTo) < 2,
      selectionKept: state.selected !== null && state.selected.length > 0 && selection.rangeCount > 0 && selection.toString() === state.selected && selection.getRangeAt(0).startContainer.isConnected,
    };
  };
  return true;`;

/**
 * Runs the scenario in session `s` of the app, in the conversation `openThread()` opens; the
 * app's Anthropic is `mock`, which is stopped and one serving the long thought takes its port.
 * `figure(name, value, unit)` prints; `waitFor`, `sleep` and `percentile` are the bench's own.
 */
export async function liveThought(s, { mock, dataHome, openThread, short, figure, waitFor, sleep, percentile }) {
  const prefix = short ? 48_000 : 480_000;
  // Short, the tail still streams for long enough to scroll, select and look again.
  const tail = short ? 10_000 : 20_000;
  const rate = 2000;
  const { body, burst, tailDeltaBytes } = stream(prefix, tail);
  const file = join(dataHome, 'long-thought.sse');
  writeFileSync(file, body);
  const port = Number(new URL(mock.url).port);
  mock.stop();
  await sleep(200);
  // One delta (six characters) each chunk, at 2,000 characters a second.
  const served = await startMockProvider(file, { port, burstBytes: burst, chunkSize: tailDeltaBytes, delayMs: Math.round((6 / rate) * 1000) });
  try {
    // A short conversation with its model chosen (the one with the long stored thought).
    await s.execute(`document.querySelector('[data-testid="new-chat"]').click(); return true;`);
    await sleep(1000);
    const opened = await openThread();
    if (opened.error) throw new Error(opened.error);
    await sleep(1000);
    await s.execute(WATCH_LIVE, [prefix, Math.round((tail / rate) * 1000 * 0.3)]);
    const input = await s.waitFind('[data-testid="composer-input"]');
    await s.type(input, 'Think long about the primes, please.\uE007');
    await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length > 0, 'the answer starts', 15000);
    // Asked while the tail streams, a second and a half after the scroll and the selection
    // (made at 30% of it), before the answer ends and the pane folds.
    await waitFor(async () => (await s.execute('return window.__benchLive.selected !== null || window.__benchLive.error !== null')) === true, 'the live pane scrolled and selected in', 60000);
    await sleep(1500);
    const held = await s.execute(`return window.__benchLive.check();`);
    await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the answer ends', 120000);
    const state = await s.execute(`window.__benchLive.stop = true; const { frames, error } = window.__benchLive; return { frames, error };`);
    if (state.error) throw new Error(`live thought: ${state.error}`);
    // The first second after the half megabyte is in the page is its catching up (drawing what
    // came at once); the frames after it, while the tail streams, are the figure.
    const catchUp = state.frames.filter(([at]) => at < CATCH_UP_MS).map(([, ms]) => ms);
    const streaming = state.frames.filter(([at]) => at >= CATCH_UP_MS).map(([, ms]) => ms);
    figure('live_thought_kb', (prefix + tail) / 1000, 'KB');
    figure('live_thought_catch_up_longest_frame_ms', Math.max(...catchUp), 'ms');
    figure('live_thought_frames', streaming.length);
    figure('live_thought_frame_p95_ms', percentile(streaming, 95), 'ms');
    figure('live_thought_longest_frame_ms', Math.max(...streaming), 'ms');
    figure('live_thought_frames_over_33ms', streaming.filter((ms) => ms > 33).length);
    figure('live_thought_scroll_kept', held.scrollKept ? 1 : 0);
    figure('live_thought_selection_kept', held.selectionKept ? 1 : 0);
  } finally {
    served.stop();
  }
}
