// The real app's figures (issue: long threads at 60 fps, instant open, small memory): the
// history is imported through `ponder-cli import`, the app is launched through WebDriver
// (WebKitGTK under Xvfb), and each figure is printed as one line, `bench: NAME VALUE UNIT`.
// Nothing is asserted: these are figures to read, not tests.
//
//   node bench/app.mjs [--short]
//
// Run under a display and a D-Bus session (./.ci/bench does). APP_BIN picks the binary (the
// installed /usr/bin/ponder or a release build for real figures); --short builds a small
// history and streams for a moment, to check that every figure is still printed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { appBinary, runningApps, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { repoRoot } from '../support/paths.mjs';
import { inPage, scrollToRow } from '../support/sidebar-rows.mjs';
import { IMAGES_TITLE, LONG_TITLE, messageId, THOUGHT_TITLE, WORDS_TITLE } from './history.mjs';
import { bareViewMemory } from './bare-view.mjs';
import { liveThought } from './live-thought.mjs';
import { manyConversations } from './many-conversations.mjs';
import { family } from './processes.mjs';
import { benchScene, FULL_SIZE } from './scene.mjs';

const SHORT = process.argv.includes('--short');
/** `--only=scroll,stream`: only those parts (start-up, memory and opening always run). */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const want = (part) => !ONLY || ONLY.includes(part);
const SIZE = SHORT ? { ...FULL_SIZE, turns: 50, others: 5, imageTurns: 10 } : FULL_SIZE;
/** The PDF dropped on the window, in MB. */
const PDF_MB = SHORT ? 2 : 20;
/** Tokens per second of the streaming figure, and for how long. */
const RATE = 200;
const STREAM_SECONDS = SHORT ? 2 : 10;
const RUNS = SHORT ? 1 : 3;
/** Launches for the start-up figures: one in a few starts takes ~500 ms longer (seen in a fresh
 * D-Bus session), so the median is taken over more of them, and the slowest is printed too. */
const START_RUNS = SHORT ? 1 : 7;

const figure = (name, value, unit) => console.log(`bench: ${name} ${typeof value === 'number' ? Math.round(value * 10) / 10 : value}${unit ? ` ${unit}` : ''}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** What the bench is doing, said if it hangs. */
let stage = 'building the history';

// ---- memory --------------------------------------------------------------------------------

/** `BENCH_PROFILE_DIR`: where each memory figure's processes leave their whole maps
 * (`/proc/PID/smaps`, as `LABEL-NAME-PID.smaps`), to see which mappings grew between two. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

/** PSS in MB per process name, and the total, of the app and its processes; `label` names
 * the maps kept for a profile. */
function memory(root, label) {
  const by = {};
  let total = 0;
  for (const pid of family(root)) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = Number(rollup.match(/^Pss:\s+(\d+) kB/m)?.[1] ?? 0) / 1024;
      // argv[0]'s name: /proc/PID/comm cuts it at 15 characters.
      const name = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].split('/').at(-1) || readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      by[name] = (by[name] ?? 0) + pss;
      if (PROFILE_DIR && label) writeFileSync(join(PROFILE_DIR, `${label}-${name}-${pid}.smaps`), readFileSync(`/proc/${pid}/smaps`));
      total += pss;
    } catch {
      // gone meanwhile
    }
  }
  let app = null;
  try {
    app = appBreakdown(root);
  } catch {
    // gone meanwhile
  }
  return { total, by, app, parts: familyBreakdown(root) };
}

/** What the web process maps only to open its EGL display: the system's GL driver (on
 * Debian 12 every Mesa driver is one file linking LLVM) and the libraries those link. */
const GL_DRIVER =
  /\/dri\/|libEGL_mesa|libGLX_mesa|libgallium|libLLVM|libdrm_|libedit\.|libglapi|libpciaccess|libsensors|libtinfo|libxcb-(dri2|dri3|present|randr|sync|xfixes)\.|libxshmfence|libz3\./;

/**
 * Where the PSS of the app and all its processes goes, in MB, by kind of page:
 * - `gl_driver`: the system's GL driver (`GL_DRIVER`), all of its mappings;
 * - `library_code`: the other libraries' code (and WebKit's helper programs');
 * - `library_relocated`: their data pages written while they were loaded (relocations: each
 *   process has its own copy), the libraries' other data pages in `library_data`;
 * - `own_code`: the program itself (the app, or the bare view);
 * - `heap`: anonymous memory (malloc's, JavaScriptCore's and WebKit's heaps, stacks, compiled
 *   scripts);
 * - `shared_memory`: the window's pictures on their way to the X server;
 * - `other`: fonts, locale data and caches.
 */
function familyBreakdown(root) {
  const parts = { gl_driver: 0, library_code: 0, library_relocated: 0, library_data: 0, own_code: 0, heap: 0, shared_memory: 0, other: 0 };
  let rootExe;
  try {
    rootExe = readlinkSync(`/proc/${root}/exe`);
  } catch {
    return parts; // gone meanwhile
  }
  for (const pid of family(root)) {
    for (const { path, exec, pss, dirty } of mappings(pid)) {
      const kind = partOfMapping(path, exec, rootExe);
      if (kind !== 'library_data') parts[kind] += pss;
      else {
        parts.library_relocated += dirty;
        parts.library_data += Math.max(0, pss - dirty);
      }
    }
  }
  return parts;
}

/** A process's mappings with their PSS and private dirty memory in MB; none if it is gone. */
function mappings(pid) {
  let smaps;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return [];
  }
  const out = [];
  for (const line of smaps.split('\n')) {
    const mapping = line.match(/^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/);
    if (mapping) out.push({ path: mapping[2], exec: mapping[1].includes('x'), pss: 0, dirty: 0 });
    const kb = line.match(/^(Pss|Private_Dirty):\s+(\d+) kB/);
    if (kb && out.length) out.at(-1)[kb[1] === 'Pss' ? 'pss' : 'dirty'] = Number(kb[2]) / 1024;
  }
  return out;
}

function partOfMapping(path, exec, rootExe) {
  if (GL_DRIVER.test(path)) return 'gl_driver';
  if (path === rootExe) return 'own_code';
  if (/\.so(\.|$)/.test(path) || /\/WebKit\w*Process$/.test(path)) return exec ? 'library_code' : 'library_data';
  if (path === '' || path === '[heap]' || path.startsWith('[stack') || path.startsWith('[anon')) return 'heap';
  if (/^\/SYSV|^\/memfd:|^\/dev\/shm\//.test(path)) return 'shared_memory';
  return 'other';
}

/**
 * Where the app's own process's PSS goes, in MB: its own code and data (the binary's
 * mappings), WebKit's libraries, the other libraries, the heap (malloc's and anonymous
 * memory) and the rest (shared memory for the window's pictures, stacks).
 */
function appBreakdown(pid) {
  const parts = { own_code: 0, webkit: 0, libraries: 0, heap: 0, other: 0 };
  const own = readlinkSync(`/proc/${pid}/exe`);
  const partOf = (path) => {
    if (path === own) return 'own_code';
    if (/libwebkit2gtk|libjavascriptcoregtk/.test(path)) return 'webkit';
    if (/\.so(\.|$)/.test(path)) return 'libraries';
    if (path === '' || path === '[heap]') return 'heap';
    return 'other';
  };
  for (const { path, pss } of mappings(pid)) parts[partOf(path)] += pss;
  return parts;
}

function reportMemory(prefix, mem) {
  figure(`${prefix}_total_mb`, mem.total, 'MB');
  for (const [name, mb] of Object.entries(mem.by).sort((a, b) => b[1] - a[1])) figure(`${prefix}_${name.replace(/\W+/g, '_')}_mb`, mb, 'MB');
  for (const [part, mb] of Object.entries(mem.app ?? {})) figure(`${prefix}_app_${part}_mb`, mb, 'MB');
  for (const [part, mb] of Object.entries(mem.parts ?? {})) figure(`${prefix}_all_${part}_mb`, mb, 'MB');
}

/**
 * How many of the functions in src-tauri/startup-order.txt the app binary still has, in %:
 * a release build links them first and together; a new compiler or new dependencies rename
 * them, and then ./.ci/startup-order writes the list again. (A debug build has other names.)
 */
function startupOrderFound(app) {
  const wanted = readFileSync(join(repoRoot, 'src-tauri', 'startup-order.txt'), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));
  const names = definedNames(app);
  return (100 * wanted.filter((name) => names.has(name)).length) / wanted.length;
}

/**
 * The names `app` defines, read with `nm` from itself or, as the installed program is
 * stripped, from the release build it was packed from, known by the same GNU build ID (the
 * stripping keeps that note and the code's layout).
 */
function definedNames(app) {
  const nm = (file) => spawnSync('nm', ['--defined-only', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  let listed = nm(app);
  if (listed.status !== 0 || !listed.stdout.trim()) {
    const id = buildId(app);
    const target = process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target');
    const release = join(target, 'release', 'ponder');
    if (!id || !existsSync(release) || buildId(release) !== id) {
      throw new Error(
        `${app} has no symbols, and no release build with its build ID (${id ?? 'none'}) is at ${release}: ` +
          'build the package from this tree (./.ci/package) or give an unstripped APP_BIN',
      );
    }
    listed = nm(release);
    if (listed.status !== 0) throw new Error(`nm ${release} failed: ${listed.stderr}`);
  }
  return new Set(listed.stdout.split('\n').map((line) => line.split(' ')[2]));
}

/** An ELF file's GNU build ID, or null. */
function buildId(file) {
  const notes = spawnSync('readelf', ['-n', file], { encoding: 'utf8' });
  return notes.stdout?.match(/Build ID: ([0-9a-f]+)/)?.[1] ?? null;
}

/** When a process started, in ms since the epoch (to 10 ms). */
function startedAt(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  const boot = Number(readFileSync('/proc/stat', 'utf8').match(/^btime (\d+)/m)[1]);
  const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return boot * 1000 + (ticks * 1000) / hz;
}

// ---- the page --------------------------------------------------------------------------------

/**
 * Opens a conversation by its title, from the click until `lastKey`'s row has been painted:
 * the first frame that has the row on screen, until that frame's drawing is done (a timer set
 * from its animation-frame callbacks fires only after its style, layout and paint). A timer,
 * not a posted message: WebKit fires due timers before posted messages, so the app's own
 * timers set in the same frame (the rows around the end, made right after it is drawn) ran
 * first and counted as that frame's drawing; timers set in one frame fire in order, and the
 * benchmark's is set first.
 */
const OPEN = `
  const [title, lastKey] = arguments;
  const row = [...document.querySelectorAll('[data-testid="conversation"]')].find((r) => r.textContent.includes(title));
  if (!row) return { error: 'no conversation ' + title };
  const target = row.querySelector('button') ?? row;
  const onScreen = (el) => {
    const scroller = document.querySelector('[data-testid="thread-scroller"]');
    if (!scroller) return false;
    const r = el.getBoundingClientRect();
    const v = scroller.getBoundingClientRect();
    return r.height > 0 && r.bottom > v.top && r.top < v.bottom;
  };
  return new Promise((resolve) => {
    const t0 = performance.now();
    // When each frame's callbacks ran, to tell waiting for frames from drawing the last one.
    const frames = [];
    target.click();
    const poll = () => {
      frames.push(performance.now() - t0);
      const last = document.querySelector('[data-key="' + lastKey + '"]');
      if (last && onScreen(last)) {
        setTimeout(() => {
          const ms = performance.now() - t0;
          // The backend's part: from the click to the conversation read (store, IPC, JSON).
          const read = performance.getEntriesByName('ponder:open:read').at(-1);
          // …and the page's: the thread's components made and put in the document.
          const rendered = performance.getEntriesByName('ponder:open:rendered').at(-1);
          const madeAt = rendered ? rendered.startTime - t0 : null;
          const shownAt = frames.at(-1);
          resolve({
            ms,
            t0,
            readMs: read ? read.startTime - t0 : null,
            renderedMs: read && rendered ? rendered.startTime - read.startTime : null,
            // From the rows made to the callbacks of the frame that first shows the last one,
            // and how many frames began in between (0: the next frame showed it)…
            toFrameMs: madeAt !== null ? shownAt - madeAt : null,
            framesBetween: madeAt !== null ? frames.filter((at) => at > madeAt).length - 1 : null,
            // …then that frame's style, layout and paint, until it is drawn.
            drawingMs: ms - shownAt,
          });
        }, 0);
      } else if (performance.now() - t0 > 60000) {
        resolve({ error: 'the last message never showed' });
      } else {
        requestAnimationFrame(poll);
      }
    };
    poll();
  });`;

/** Opens a conversation with `OPEN` (its arguments: the title, the last message's key), its
 * row first brought into the sidebar's view: the sidebar draws only the rows near its view,
 * and a full-size history has more than fit. */
async function openRow(s, args) {
  if (!(await s.execute(inPage(scrollToRow), [{ text: args[0] }]))) return { error: `no conversation ${args[0]} in the list` };
  await sleep(300);
  return s.execute(OPEN, args);
}

/** Starts scrolling the thread to the top and back, `step` pixels a frame, recording every
 * frame's time in `window.__benchScroll` (a long thread takes minutes: polled, not awaited). */
const SCROLL = `
  const step = arguments[0];
  const el = document.querySelector('[data-testid="thread-scroller"]');
  const state = (window.__benchScroll = { frames: [], done: false });
  let last = null;
  let up = true;
  const tick = (t) => {
    if (last !== null) state.frames.push(t - last);
    last = t;
    if (up) {
      el.scrollTop = Math.max(0, el.scrollTop - step);
      if (el.scrollTop <= 0) up = false;
    } else {
      const before = el.scrollTop;
      el.scrollTop = before + step;
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1 || el.scrollTop === before) {
        state.done = true;
        return;
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return true;`;

/** Expands the first thought pane: the time until its start is drawn, until all of it is,
 * and how far the pane's own row moved (the reader's place). */
const EXPAND = `
  const pane = document.querySelector('[data-testid="thought-pane"]');
  const toggle = pane?.querySelector('[data-testid="thought-header"]');
  if (!toggle) return { error: 'no thought pane' };
  const row = pane.closest('[data-key]');
  const before = row.getBoundingClientRect().top;
  const [whole] = arguments;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let first = null;
    toggle.click();
    const poll = () => {
      const length = pane.querySelector('[data-testid="thought-body"]')?.textContent.length ?? 0;
      if (first === null && length > 1000) {
        requestAnimationFrame(() => (first = { ms: performance.now() - t0, jump: Math.abs(row.getBoundingClientRect().top - before) }));
      }
      if (first !== null && length >= whole) {
        requestAnimationFrame(() => resolve({ ...first, allMs: performance.now() - t0, jumpAll: Math.abs(row.getBoundingClientRect().top - before) }));
      } else if (performance.now() - t0 > 25000) {
        resolve({ error: 'the thought never opened whole (' + length + ' characters shown)' });
      } else {
        requestAnimationFrame(poll);
      }
    };
    requestAnimationFrame(poll);
  });`;

/** Records every frame's time until `stop` is set, and the paint latencies of the stream. */
const WATCH = `
  window.__ponderPaintLatency = [];
  window.__ponderDeliveryLatency = [];
  window.__benchFrames = [];
  window.__benchStop = false;
  let last = null;
  const tick = (t) => {
    if (last !== null) window.__benchFrames.push(t - last);
    last = t;
    if (!window.__benchStop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return true;`;

const NEW_CHAT = `document.querySelector('[data-testid="new-chat"]').click(); return true;`;

/**
 * Watches, from before a conversation is opened, for the moment the thumbnails in view are
 * drawn: every frame, once the row `lastKey` is on screen, whether each image thumbnail in
 * view has loaded (`complete` and a width); the first frame where all have (and there is at
 * least one), until that frame's drawing is done (a timer set from its callback, as in OPEN),
 * is `window.__benchThumbs.drawnAt`. Its frame callback is set before OPEN's, and it runs
 * when a thread without images is opened too, so that both opens carry the same work.
 * `window.__benchThumbs.stop` ends it.
 */
const THUMBS = `
  const [lastKey] = arguments;
  const state = (window.__benchThumbs = { drawnAt: null, shown: 0, failed: 0, stop: false, error: null });
  const onError = (event) => {
    if (event.target instanceof HTMLImageElement && event.target.closest('[data-testid="attachment-thumb"]')) state.failed += 1;
  };
  document.addEventListener('error', onError, true);
  const inView = (el, v) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.bottom > v.top && r.top < v.bottom;
  };
  const t0 = performance.now();
  const tick = () => {
    if (state.stop || state.drawnAt !== null) return document.removeEventListener('error', onError, true);
    if (performance.now() - t0 > 60000) {
      state.error = 'the thumbnails in view never all loaded';
      return document.removeEventListener('error', onError, true);
    }
    const scroller = document.querySelector('[data-testid="thread-scroller"]');
    const last = document.querySelector('[data-key="' + lastKey + '"]');
    if (scroller && last) {
      const v = scroller.getBoundingClientRect();
      if (inView(last, v)) {
        const shown = [...scroller.querySelectorAll('[data-testid="attachment-thumb"] img')].filter((img) => inView(img, v));
        if (shown.length > 0 && shown.every((img) => img.complete && img.naturalWidth > 0)) {
          state.shown = shown.length;
          setTimeout(() => (state.drawnAt = performance.now()), 0);
          return document.removeEventListener('error', onError, true);
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return true;`;

/**
 * A PDF of about `mb` MB made in the page, as `window.__benchPdf` (a File): a header, a
 * catalog with no pages, one object with a stream of deterministic bytes, the cross-reference
 * table and the trailer ending in the end-of-file mark.
 */
const MAKE_PDF = `
  const [mb] = arguments;
  const enc = new TextEncoder();
  const parts = [];
  const offsets = [];
  let at = 0;
  const add = (bytes) => {
    parts.push(bytes);
    at += bytes.length;
  };
  add(Uint8Array.from([...'%PDF-1.4\\n%'].map((c) => c.charCodeAt(0)).concat([0xe2, 0xe3, 0xcf, 0xd3, 0x0a])));
  offsets.push(at);
  add(enc.encode('1 0 obj\\n<< /Type /Catalog /Pages 2 0 R >>\\nendobj\\n'));
  offsets.push(at);
  add(enc.encode('2 0 obj\\n<< /Type /Pages /Kids [] /Count 0 >>\\nendobj\\n'));
  const words = Math.floor((mb * 1024 * 1024) / 4);
  const data = new Uint32Array(words);
  let x = 0x9e3779b9;
  for (let i = 0; i < words; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x >>> 0;
  }
  offsets.push(at);
  add(enc.encode('3 0 obj\\n<< /Length ' + data.byteLength + ' >>\\nstream\\n'));
  add(new Uint8Array(data.buffer));
  add(enc.encode('\\nendstream\\nendobj\\n'));
  const xref = at;
  const entries = offsets.map((o) => String(o).padStart(10, '0') + ' 00000 n \\n').join('');
  add(enc.encode('xref\\n0 4\\n0000000000 65535 f \\n' + entries + 'trailer\\n<< /Size 4 /Root 1 0 R >>\\nstartxref\\n' + xref + '\\n%%EOF\\n'));
  window.__benchPdf = new File(parts, 'bench-' + mb + 'mb.pdf', { type: 'application/pdf' });
  return window.__benchPdf.size;`;

/**
 * Drops `window.__benchPdf` on the window as a file manager's drop reaches the page, recording
 * every frame's time from two frames before the drop until the frame after its chip shows in
 * the composer; the result is `window.__benchAttach` (polled: it may take longer than a
 * script may run).
 */
const ATTACH = `
  const file = window.__benchPdf;
  const state = (window.__benchAttach = { done: false });
  const frames = [];
  let last = null;
  let stop = false;
  const tick = (t) => {
    if (last !== null) frames.push(t - last);
    last = t;
    if (!stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const chips = () => document.querySelectorAll('[data-testid="composer-file"]').length;
  const before = chips();
  const end = (result) => {
    stop = true;
    Object.assign(state, result, { frames, done: true });
  };
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const dt = new DataTransfer();
      dt.items.add(file);
      const target = document.querySelector('main') ?? document.body;
      const t0 = performance.now();
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
      const poll = () => {
        if (chips() > before) {
          setTimeout(() => end({ ms: performance.now() - t0 }), 0);
        } else if (performance.now() - t0 > 180000) {
          const notes = [...document.querySelectorAll('[data-testid="note"]')].map((n) => n.textContent).join(' | ');
          end({ error: 'the PDF never became a chip' + (notes ? ' (notes: ' + notes + ')' : '') });
        } else {
          requestAnimationFrame(poll);
        }
      };
      requestAnimationFrame(poll);
    }),
  );
  return true;`;

// ---- the run ---------------------------------------------------------------------------------

async function main() {
  // The streaming figure's answer: `RATE` delta events a second for `STREAM_SECONDS`.
  const { dataHome, history, mock, env } = await benchScene({ size: SIZE, rate: RATE, tokens: RATE * STREAM_SECONDS });
  figure('history_messages', history.messages);
  figure('history_file_mb', history.json.length / 1e6, 'MB');
  const app = appBinary();
  // The Secret Service answers before the app asks it anything, as in the tests (the app
  // itself never waits on a keyring that is still starting).
  stage = 'waiting for the Secret Service';
  const keyring = await startKeyring(dataHome);
  try {
    stage = 'launching the app directly';
    figure('startup_order_found_pct', startupOrderFound(app), '%');
    // The floor under the idle figure, measured while nothing else of WebKit runs.
    stage = 'measuring a bare web view';
    const bare = await bareViewMemory(memory);
    reportMemory('memory_idle_bare_webview', { ...bare, app: null });
    await launches(app, { ...process.env, ...env, XDG_CONFIG_HOME: dataHome });
    stage = 'starting WebDriver';
    const driver = await startDriver({ env });
    try {
      // Start-up under WebDriver (its automation session adds to it), then idle memory.
      const listed = [];
      let s;
      for (let i = 0; i < RUNS; i++) {
        s = await driver.newSession();
        const [pid] = runningApps(app);
        const at = await waitForMark(s, 'ponder:list-shown');
        listed.push(at - startedAt(pid));
        if (i < RUNS - 1) await s.end();
      }
      figure('start_list_shown_under_webdriver_ms', median(listed), 'ms');
      // The last start on the page's own clock: its script run, the check for problems answered,
      // the list read, the list drawn, the chat drawn.
      await waitForMark(s, 'ponder:start:chat-shown');
      const steps = await s.execute(`
        const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
        return {
          script: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? null,
          checked: at('ponder:start:checked'),
          list_read: at('ponder:start:list-read'),
          list_shown: at('ponder:list-shown'),
          chat_shown: at('ponder:start:chat-shown'),
        };`);
      for (const [step, ms] of Object.entries(steps)) if (ms !== null) figure(`start_page_${step}_ms`, ms, 'ms');
      const [pid] = runningApps(app);
      await sleep(3000);
      // Idling on a new chat, the thread lays out a hidden sample of what it shows, once (its
      // fonts set up before a conversation is opened): the main thread is that long busy.
      const warmup = await s.execute(
        `return ['ponder:warmup', 'ponder:warmup:longest-step'].map((n) => performance.getEntriesByName(n).at(-1)?.duration ?? null);`,
      );
      if (warmup[0] !== null) figure('start_warmup_ms', warmup[0], 'ms');
      // Its longest step, from its rows made to its frame drawn: the most the window is busy.
      if (warmup[1] !== null) figure('start_warmup_longest_step_ms', warmup[1], 'ms');
      const idle = memory(pid, 'idle');
      reportMemory('memory_idle', idle);
      figure('memory_idle_over_bare_webview_mb', idle.total - bare.total, 'MB');
      for (const [part, mb] of Object.entries(idle.parts)) figure(`memory_idle_over_bare_webview_${part}_mb`, mb - bare.parts[part], 'MB');

      stage = 'opening the long thread';
      const open = await openRow(s, [LONG_TITLE, history.lastId]);
      if (open.error) throw new Error(open.error);
      figure('open_long_thread_ms', open.ms, 'ms');
      if (open.readMs !== null) figure('open_long_thread_read_ms', open.readMs, 'ms');
      if (open.renderedMs !== null) figure('open_long_thread_rendered_ms', open.renderedMs, 'ms');
      if (open.toFrameMs !== null) {
        figure('open_long_thread_to_frame_ms', open.toFrameMs, 'ms');
        figure('open_long_thread_frames_between', open.framesBetween, '');
      }
      figure('open_long_thread_drawing_ms', open.drawingMs, 'ms');
      await sleep(1000);
      // The thread opens at its end; the rest of it joins above right after.
      const whole = await s.execute(`const m = performance.getEntriesByName('ponder:open:whole').at(-1); return m ? m.startTime - arguments[0] : null;`, [open.t0]);
      if (whole !== null && whole > 0) figure('open_long_thread_whole_ms', whole, 'ms');

      // Back to a new chat: what opening the thread left behind (the scrolling, streaming and
      // expanding below add theirs; memory_after_long_thread_* is measured after them).
      await s.execute(`document.querySelector('[data-testid="new-chat"]').click(); return true;`);
      await sleep(3000);
      figure('memory_after_open_and_back_over_idle_mb', memory(pid, 'after-open-and-back').total - idle.total, 'MB');

      // Opened again, from a new chat: with the page's code and caches warm (before the
      // stream below adds to the thread, so that its last message is still the same).
      const again = await openRow(s, [LONG_TITLE, history.lastId]);
      if (again.error) throw new Error(again.error);
      figure('open_long_thread_again_ms', again.ms, 'ms');
      await sleep(1000);

      stage = 'scrolling';
      if (want('scroll')) await scroll(s);
      stage = 'streaming an answer';
      if (want('stream')) await streamFloor(s, 'stream', false, await streamInto(s, 'stream', false));
      stage = 'four answers streaming at once';
      if (want('four')) await streamFloor(s, 'four_streams', true, await streamInto(s, 'four_streams', true));
      stage = 'expanding a long thought';
      if (want('expand')) await expand(s, history);

      stage = 'memory after the long thread';
      // Back to a new chat: what the long thread left behind.
      await s.execute(`document.querySelector('[data-testid="new-chat"]').click(); return true;`);
      await sleep(3000);
      const after = memory(pid, 'after-long-thread');
      reportMemory('memory_after_long_thread', after);
      figure('memory_after_long_thread_over_idle_mb', after.total - idle.total, 'MB');
      // How long the page stood still for each whole collection it ran on leaving (none where
      // the app's web-process extension is missing: it then gives WebKit's sign instead).
      const collections = await s.execute(`return ['first', 'again'].map((w) => performance.getEntriesByName('ponder:collect:' + w).at(-1)?.duration ?? null);`);
      if (collections[0] !== null) figure('collect_on_leaving_ms', collections[0], 'ms');
      if (collections[1] !== null) figure('collect_on_leaving_again_ms', collections[1], 'ms');

      stage = 'opening the threads of images and of words';
      if (want('images')) await imagesThread(s, history, dataHome);
      stage = 'attaching a large PDF';
      if (want('attach')) await attachPdf(s, history);
      // Last: its provider streams only the long thought from then on.
      stage = 'a half-megabyte thought streaming';
      if (want('live')) {
        const openThread = () => openRow(s, [THOUGHT_TITLE, messageId(history.thoughtId, 1)]);
        await liveThought(s, { mock, dataHome, openThread, short: SHORT, figure, waitFor, sleep, percentile });
      }
      await s.end();
    } finally {
      await driver.stop();
    }
    // Last: another history, a hundred thousand conversations.
    stage = 'a hundred thousand conversations';
    if (want('many')) await manyConversations({ app, short: SHORT, figure, launches, startDriver, waitFor, sleep, median, percentile });
  } finally {
    await keyring.stop();
    mock.stop();
    rmSync(dataHome, { recursive: true, force: true });
  }
}

/** Scrolls the open thread to the top and back at 400 px a frame: the frame times. */
async function scroll(s) {
  await s.execute(SCROLL, [400]);
  // Asked rarely: each question runs a script on the page's main thread.
  let frames = null;
  for (const deadline = Date.now() + 30 * 60_000; frames === null && Date.now() < deadline; ) {
    await sleep(2000);
    frames = await s.execute(`return window.__benchScroll.done ? window.__benchScroll.frames : null;`);
  }
  if (frames === null) throw new Error('the scroll to the top and back never ended');
  figure('scroll_frames', frames.length);
  figure('scroll_frame_median_ms', median(frames), 'ms');
  figure('scroll_frame_p95_ms', percentile(frames, 95), 'ms');
}

/** Opens the conversation with the 200 KB thought and expands it. */
async function expand(s, history) {
  const thought = await openRow(s, [THOUGHT_TITLE, messageId(history.thoughtId, 1)]);
  if (thought.error) throw new Error(thought.error);
  await sleep(500);
  // Most of the thought's characters are drawn as text (Markdown marks aside).
  const opened = await s.execute(EXPAND, [Math.round(SIZE.longThoughtBytes * 0.9)]);
  if (opened.error) throw new Error(opened.error);
  figure('expand_200kb_thought_ms', opened.ms, 'ms');
  figure('expand_200kb_thought_all_ms', opened.allMs, 'ms');
  figure('expand_200kb_thought_jump_px', Math.max(opened.jump, opened.jumpAll), 'px');
}

/**
 * Runs `script` in the page every half second until it answers something other than null
 * (each question runs on the page's main thread: not asked while what it waits for is timed
 * in most runs, which take less than that).
 */
async function askRarely(s, script, what, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    await sleep(500);
    const answer = await s.execute(script);
    if (answer !== null) return answer;
  }
  throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
}

/**
 * Opens the thread of images and its twin of words, each from a new chat, then the thread of
 * images again (its thumbnails made by then, read from disk): the time until the last row is
 * drawn, and until the thumbnails in view are.
 */
async function imagesThread(s, history, dataHome) {
  const openFromNewChat = async (title, lastKey) => {
    await s.execute(NEW_CHAT);
    await sleep(1000);
    await s.execute(THUMBS, [lastKey]);
    const opened = await openRow(s, [title, lastKey]);
    if (opened.error) throw new Error(opened.error);
    return opened;
  };
  /** The time from the click until the thumbnails in view were drawn, and how many. */
  const thumbsDrawn = async (t0) => {
    const state = await askRarely(s, `const t = window.__benchThumbs; return t.drawnAt !== null || t.error !== null ? t : null;`, 'the thumbnails in view drawn', 90000);
    if (state.error) throw new Error(`${state.error} (${state.failed} failed to load)`);
    if (state.failed > 0) console.error(`bench: ${state.failed} thumbnails failed to load`);
    return { ms: state.drawnAt - t0, shown: state.shown };
  };

  const words = await openFromNewChat(WORDS_TITLE, history.wordsLastId);
  await s.execute(`window.__benchThumbs.stop = true; return true;`);
  await sleep(1000);
  const images = await openFromNewChat(IMAGES_TITLE, history.imagesLastId);
  const thumbs = await thumbsDrawn(images.t0);
  figure('open_images_thread_ms', images.ms, 'ms');
  figure('open_words_thread_ms', words.ms, 'ms');
  for (const [name, opened] of [['images', images], ['words', words]]) {
    if (opened.readMs !== null) figure(`open_${name}_thread_read_ms`, opened.readMs, 'ms');
    figure(`open_${name}_thread_drawing_ms`, opened.drawingMs, 'ms');
  }
  figure('images_thread_thumbs_ms', thumbs.ms, 'ms');
  figure('images_thread_thumbs_in_view', thumbs.shown);
  await sleep(1000);

  const again = await openFromNewChat(IMAGES_TITLE, history.imagesLastId);
  const thumbsAgain = await thumbsDrawn(again.t0);
  figure('open_images_thread_again_ms', again.ms, 'ms');
  figure('images_thread_thumbs_again_ms', thumbsAgain.ms, 'ms');
  await sleep(1000);
  const thumbsDir = join(dataHome, 'dev.ponder.desktop', 'attachments', 'thumbs');
  figure('images_thread_thumbs_made', existsSync(thumbsDir) ? readdirSync(thumbsDir).length : 0);
}

/**
 * Drops a PDF of PDF_MB megabytes on a conversation's composer (its model chosen, so the window
 * takes files): the time until its chip shows, and the frames meanwhile (the page reads the
 * file, sends it, and the backend stores it). The chip is removed after. The figures keep
 * their names in the short run, whose file is 2 MB (`attach_pdf_mb` says which).
 */
async function attachPdf(s, history) {
  await s.execute(NEW_CHAT);
  await sleep(1000);
  const opened = await openRow(s, [WORDS_TITLE, history.wordsLastId]);
  if (opened.error) throw new Error(opened.error);
  const size = await s.execute(MAKE_PDF, [PDF_MB]);
  // The page's own work of making it settles first.
  await sleep(2000);
  await s.execute(ATTACH);
  const result = await askRarely(s, `const a = window.__benchAttach; return a.done ? a : null;`, 'the dropped PDF shown as a chip', 200000);
  if (result.error) throw new Error(result.error);
  const { frames } = result;
  figure('attach_pdf_mb', size / 1e6, 'MB');
  figure('attach_20mb_pdf_ms', result.ms, 'ms');
  figure('attach_20mb_pdf_max_frame_ms', Math.max(...frames), 'ms');
  figure('attach_20mb_pdf_frames_over_50ms', frames.filter((f) => f > 50).length);
  figure('attach_20mb_pdf_frames', frames.length);
  await s.execute(`document.querySelector('[data-testid="composer-file-remove"]').click(); window.__benchPdf = undefined; return true;`);
  await waitFor(async () => (await s.findAll('[data-testid="composer-file"]')).length === 0, 'the chip removed', 10000);
}

/**
 * Watches the display for top-level windows being mapped, through one X client that stays
 * connected (xev): `mapped` resolves with the time (`performance.now()`) and id of the first
 * window mapped. Polling with a new client every few ms cost the start it measured: on
 * this machine each new client took ~30 ms of CPU in the X server and its keymap compiler
 * (while no other client is connected, Xvfb resets itself at each disconnection and compiles
 * its keymap again), a core's worth during the app's start. A user's display has neither.
 */
async function watchMaps() {
  const xev = spawn('stdbuf', ['-oL', 'xev', '-root', '-event', 'substructure'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let resolve;
  const mapped = new Promise((r) => (resolve = r));
  // "MapNotify event, serial 19, synthetic NO, window 0x50d," then
  // "    event 0x50d, window 0x400002, override NO": the second line names the window.
  let partial = '';
  let inMap = false;
  xev.stdout.on('data', (chunk) => {
    const at = performance.now();
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      const window = inMap ? line.match(/^\s*event 0x[0-9a-f]+, window (0x[0-9a-f]+), override NO/)?.[1] : null;
      if (window) resolve({ at, window });
      inMap = line.startsWith('MapNotify event');
    }
  });
  // xev says nothing once connected; it connects within a few ms.
  await sleep(300);
  return { mapped, stop: () => xev.kill() };
}

/** The window's title (WM_NAME), or null. */
function windowName(id) {
  const out = spawnSync('xprop', ['-id', id, 'WM_NAME'], { encoding: 'utf8', timeout: 5000 }).stdout ?? '';
  return out.match(/= "(.*)"/)?.[1] ?? null;
}

/**
 * Launches the app alone (no WebDriver) and times it until its window is on screen, and until
 * its conversation list is drawn (the page says when on its console, which the app writes out
 * when asked).
 */
/** Launches the app `START_RUNS` times: the start-up figures, named `prefix_*`. */
async function launches(app, env, prefix = 'start') {
  const windows = [];
  const lists = [];
  const chats = [];
  for (let i = 0; i < START_RUNS; i++) {
    await waitFor(() => runningApps(app).length === 0, 'no app running', 15000);
    const maps = await watchMaps();
    let listedAt = null;
    let chatAt = null;
    const wall0 = performance.timeOrigin + performance.now();
    const t0 = performance.now();
    const child = spawn(app, [], { env: { ...env, PONDER_WEBVIEW_CONSOLE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Kept from the start: an app that ends early must not leave the bench waiting for an exit
    // that has already happened.
    let exited = null;
    const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
    child.on('error', (err) => (exited = { error: err.message }));
    let out = '';
    // WebKit writes the console to standard error (its setting says "stdout"); either is read.
    const read = (chunk) => {
      out += chunk;
      const at = out.match(/ponder:list-shown at ([\d.]+)/);
      if (at && listedAt === null) listedAt = Number(at[1]);
      const chat = out.match(/ponder:start:chat-shown at ([\d.]+)/);
      if (chat && chatAt === null) chatAt = Number(chat[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    const map = await Promise.race([maps.mapped, exit.then(() => null), sleep(30000).then(() => null)]);
    await waitFor(() => (listedAt !== null && chatAt !== null) || exited !== null, 'the list and the chat shown on the console', 30000).catch(() => {});
    const name = map ? windowName(map.window) : null;
    maps.stop();
    const early = exited;
    if (!early) child.kill('SIGTERM');
    const ended = await Promise.race([exit, sleep(10000).then(() => null)]);
    if (!ended) {
      console.error('bench: the app did not quit within 10 s of SIGTERM; killed');
      child.kill('SIGKILL');
      await exit;
    }
    const wrote = `the app wrote: ${out.slice(-2000)}`;
    if (early) throw new Error(`the app ended by itself before its list showed (${JSON.stringify(early)}); ${wrote}`);
    if (!map) throw new Error(`the window never showed; ${wrote}`);
    if (name !== 'Ponder') throw new Error(`the first window shown was ${JSON.stringify(name)}, not the app's; ${wrote}`);
    if (listedAt === null) throw new Error(`the list never showed; ${wrote}`);
    if (chatAt === null) throw new Error(`the chat never showed; ${wrote}`);
    windows.push(map.at - t0);
    lists.push(listedAt - wall0);
    chats.push(chatAt - wall0);
    // The single-instance name and the web processes go a moment after.
    await sleep(1000);
  }
  figure(`${prefix}_window_shown_ms`, median(windows), 'ms');
  figure(`${prefix}_list_shown_ms`, median(lists), 'ms');
  figure(`${prefix}_list_shown_slowest_ms`, Math.max(...lists), 'ms');
  // The window is made in two steps: the chat (header, thread, composer) the frame after.
  figure(`${prefix}_chat_shown_ms`, median(chats), 'ms');
}

async function waitForMark(s, name) {
  let at = null;
  await waitFor(
    async () => {
      at = await s.execute(`const m = performance.getEntriesByName(arguments[0])[0]; return m ? performance.timeOrigin + m.startTime : null;`, [name]);
      return at !== null;
    },
    `the mark ${name}`,
    30000,
  );
  return at;
}

/** How many levels "Ask at several levels" asks at once, at most. */
const LEVELS = 4;

/**
 * Asks `text` in the open thread and waits for every answer to end. `several`: at the first
 * `LEVELS` levels of the model's, all at once ("Ask at several levels"), each answer streamed
 * by the mock at RATE tokens/s; otherwise sent with Enter, one answer.
 */
async function ask(s, text, several) {
  const input = await s.waitFind('[data-testid="composer-input"]');
  await s.type(input, several ? text : `${text}\uE007`);
  if (several) {
    await s.click(await s.waitFind('[data-testid="ask-several"]'));
    await s.waitFind('[data-testid="levels-chooser"]');
    const ticked = await s.execute(
      `const boxes = () => [...document.querySelectorAll('[data-testid="levels-option"]')];
       for (const box of boxes()) if (!box.checked && boxes().filter((b) => b.checked).length < arguments[0]) box.click();
       return boxes().filter((b) => b.checked).length;`,
      [LEVELS],
    );
    if (ticked !== LEVELS) throw new Error(`the model offers ${ticked} levels to ask at, not ${LEVELS}`);
    await s.click(await s.waitFind('[data-testid="levels-ask"]'));
  }
  await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length > 0, 'the answer starts', 15000);
  await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the answer ends', STREAM_SECONDS * 1000 + 60000);
  // The other levels end on their own; the note offers to compare once every one has.
  if (several) await waitFor(async () => (await s.findAll('[data-testid="note-compare"]')).length > 0, 'every level ends', STREAM_SECONDS * 1000 + 60000);
}

/**
 * Asks in the long thread while the mock streams at RATE tokens/s (`several`: four answers at
 * once): the frames, and each token's way to the screen. Returns the paint latency's p99.
 */
async function streamInto(s, prefix, several) {
  await s.execute(WATCH);
  await ask(s, several ? 'Once more, at four levels.' : 'One more question, please.', several);
  const { frames, latency, delivery } = await s.execute(
    `window.__benchStop = true; const r = { frames: window.__benchFrames, latency: window.__ponderPaintLatency, delivery: window.__ponderDeliveryLatency }; window.__ponderPaintLatency = window.__ponderDeliveryLatency = undefined; return r;`,
  );
  figure(`${prefix}_frames`, frames.length);
  figure(`${prefix}_max_frame_ms`, Math.max(...frames), 'ms');
  figure(`${prefix}_frame_p95_ms`, percentile(frames, 95), 'ms');
  figure(`${prefix}_frames_over_50ms`, frames.filter((f) => f > 50).length);
  figure(`${prefix}_batches`, latency.length);
  figure(`${prefix}_paint_latency_median_ms`, latency.length ? median(latency) : NaN, 'ms');
  figure(`${prefix}_paint_latency_p99_ms`, latency.length ? percentile(latency, 99) : NaN, 'ms');
  // Of that, the part before the page has the token: the backend's batching and the message's
  // way into the page (the rest is the wait for a frame and drawing it).
  figure(`${prefix}_delivery_latency_median_ms`, delivery.length ? median(delivery) : NaN, 'ms');
  figure(`${prefix}_delivery_latency_p99_ms`, delivery.length ? percentile(delivery, 99) : NaN, 'ms');
  return latency.length ? percentile(latency, 99) : NaN;
}

/**
 * The same answers again into a page that only shows each delta in a text node (the app's
 * `__ponderPaintFloor`): the floor of the paint latency through the same backend, channels
 * and frames, and so what the thread adds to it (`p99` is the thread's own, from `streamInto`).
 */
async function streamFloor(s, prefix, several, p99) {
  await s.execute(`window.__ponderPaintFloor = true; window.__ponderPaintLatency = []; return true;`);
  await ask(s, several ? 'And again, at four levels.' : 'And one more, please.', several);
  const latency = await s.execute(
    `const l = window.__ponderPaintLatency; window.__ponderPaintFloor = false; window.__ponderPaintLatency = undefined; document.getElementById('ponder-paint-floor')?.remove(); return l;`,
  );
  figure(`${prefix}_floor_batches`, latency.length);
  figure(`${prefix}_floor_paint_latency_median_ms`, latency.length ? median(latency) : NaN, 'ms');
  figure(`${prefix}_floor_paint_latency_p99_ms`, latency.length ? percentile(latency, 99) : NaN, 'ms');
  figure(`${prefix}_paint_latency_added_p99_ms`, latency.length ? p99 - percentile(latency, 99) : NaN, 'ms');
}

// Whatever hangs, the bench says where before the script's own time limit ends it silently.
// (./.ci/bench's limit for the whole run is 15 minutes, 40 at full size.)
const WATCHDOG_MS = (SHORT ? 10 : 39) * 60_000;
setTimeout(() => {
  console.error(`bench: failed: still at "${stage}" after ${WATCHDOG_MS / 60_000} minutes`);
  process.exit(1);
}, WATCHDOG_MS).unref();

main().catch((err) => {
  console.error(`bench: failed: ${err.stack ?? err}`);
  process.exit(1);
});
