// The app on a history of a hundred thousand conversations and two million messages: its
// start (window, list, chat shown), a fling through its sidebar, and search across it.
//
// No import is quick enough for that size: the history is written by the store's own
// generator (`ponder-core`'s `bench_history` example, seeded, so every run has the same one)
// and kept in ~/.cache/ponder/bench, named by its size and the store's schema, for the next
// run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { repoRoot } from '../support/paths.mjs';
import { binary } from './binaries.mjs';

export const MANY_FULL = { conversations: 100_000, turns: 10 };
export const MANY_SHORT = { conversations: 300, turns: 2 };
const IDENTIFIER = 'dev.ponder.desktop';

/** Where the history of `size` is kept for `schema` (the store's own by default). */
function keptPath({ conversations, turns }, schema = currentSchema()) {
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ponder', 'bench');
  mkdirSync(dir, { recursive: true });
  return join(dir, `history-${conversations}x${turns}-schema${schema}.sqlite3`);
}

/** The store's schema version: one migration per version. */
function currentSchema() {
  return readdirSync(join(repoRoot, 'src-tauri', 'core', 'migrations')).filter((f) => f.endsWith('.sql')).length;
}

/**
 * A new migration needs the history at the new schema: the app would otherwise migrate its
 * copy as it starts, inside the figures. A kept history of an earlier schema is upgraded by
 * the store itself (through `ponder-cli`): 11 s for the full size, where writing it again
 * takes most of an hour. The copy the store keeps before an upgrade is not made (a
 * placeholder under the name it would have stands in for it), as the generator can write
 * that history again. An upgrade that fails puts the earlier file back.
 */
function upgradeEarlier(size, path) {
  for (let schema = currentSchema() - 1; schema > 0; schema--) {
    const earlier = keptPath(size, schema);
    if (!existsSync(earlier)) continue;
    const started = Date.now();
    const part = `${path}.part`;
    for (const side of ['', '-wal', '-shm']) {
      rmSync(`${part}${side}`, { force: true });
      if (existsSync(`${earlier}${side}`)) renameSync(`${earlier}${side}`, `${part}${side}`);
    }
    const placeholder = `${part}.v${schema}.bak`;
    writeFileSync(placeholder, '');
    try {
      execFileSync(binary('ponder-cli', 'PONDER_CLI'), ['--db', part, 'conversations'], { stdio: 'ignore' });
    } catch (error) {
      for (const side of ['', '-wal', '-shm']) if (existsSync(`${part}${side}`)) renameSync(`${part}${side}`, `${earlier}${side}`);
      throw error;
    } finally {
      rmSync(placeholder, { force: true });
      rmSync(`${part}.owners`, { recursive: true, force: true });
    }
    renameSync(part, path);
    // The lock folder the app made beside the earlier file.
    rmSync(`${earlier}.owners`, { recursive: true, force: true });
    console.log(`bench: many_history_upgraded_s ${Math.round((Date.now() - started) / 1000)} s`);
    return true;
  }
  return false;
}

/**
 * Writes the history of `size` unless it is kept already (minutes at full size: ./.ci/bench
 * does it before the app's figures, outside their time limit).
 */
export function prepareHistory(size, short) {
  const { conversations, turns } = size;
  const path = keptPath(size);
  if (existsSync(path) || upgradeEarlier(size, path)) return path;
  const part = `${path}.part`;
  rmSync(part, { force: true });
  const started = Date.now();
  execFileSync(
    'cargo',
    ['run', '-q', ...(short ? [] : ['--release']), '-p', 'ponder-core', '--example', 'bench_history', '--', part, String(conversations), String(turns)],
    { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  renameSync(part, path);
  // The writer's lock folder, which the app makes again for its own.
  rmSync(`${part}.owners`, { recursive: true, force: true });
  console.log(`bench: many_history_written_s ${Math.round((Date.now() - started) / 1000)} s`);
  return path;
}

/** In the page: flings the sidebar's list to its end and back at `step` px a frame; the frame times. */
const FLING = `
  const step = arguments[0];
  const el = document.querySelector('aside .scroll');
  const state = (window.__benchFling = { frames: [], done: false });
  let last = null;
  let down = true;
  const tick = (t) => {
    if (last !== null) state.frames.push(t - last);
    last = t;
    const before = el.scrollTop;
    el.scrollTop = down ? before + step : Math.max(0, before - step);
    if (down && el.scrollTop === before) down = false;
    else if (!down && el.scrollTop === 0) {
      state.done = true;
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return true;`;

/** In the page: each query searched through the app's own command, answers and thoughts; the times in ms. */
const SEARCH = `
  const [queries] = arguments;
  return (async () => {
    const times = [];
    for (const query of queries) {
      const t0 = performance.now();
      const hits = await window.__TAURI_INTERNALS__.invoke('search', { query, inThoughts: true });
      times.push({ query, ms: performance.now() - t0, hits: hits.length });
    }
    return times;
  })();`;

/** Queries as a user types them: whole words, common and rare, and prefixes of two letters and more. */
const QUERIES = ['the', 'cache', 'memory leak', 'request', 'thread', 'function', 'quetzalcoatlus', 'zymurgical', 'se', 'co', 'pro', 'index', 'answer', 'wait', 'server response'];

/**
 * Runs the figures; `tools` are the app bench's own: { app, short, figure, launches, startDriver,
 * waitFor, sleep, median, percentile }.
 */
export async function manyConversations({ app, short, figure, launches, startDriver, waitFor, sleep, median, percentile }) {
  const size = short ? MANY_SHORT : MANY_FULL;
  const kept = keptPath(size);
  if (!existsSync(kept)) throw new Error(`no history of ${size.conversations} conversations at ${kept}: node bench/many-conversations.mjs --prepare${short ? ' --short' : ''} writes it`);
  figure('many_conversations', size.conversations);
  figure('many_messages', size.conversations * size.turns * 2);
  const dataHome = mkdtempSync(join(tmpdir(), 'ponder-bench-many-'));
  try {
    const appDir = join(dataHome, IDENTIFIER);
    mkdirSync(appDir, { recursive: true });
    // Linked, not copied: at full size the history is about 9.5 GB. The app leaves it as it
    // was (its start finds nothing to recover, purge or index in it).
    symlinkSync(kept, join(appDir, 'ponder.sqlite3'));
    writeFileSync(join(appDir, 'settings.json'), JSON.stringify({}));
    const env = { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1', PONDER_ANTHROPIC_API_KEY: 'FAKE-bench-key-not-real' };
    await launches(app, { ...process.env, ...env, XDG_CONFIG_HOME: dataHome }, 'many_start');

    const driver = await startDriver({ env });
    try {
      const s = await driver.newSession();
      // The whole list read: its rows say how many there are.
      await waitFor(
        async () => (await s.execute(`return document.querySelector('[data-testid="conversation-list"] [data-testid="conversation"]')?.getAttribute('aria-setsize')`)) === String(size.conversations),
        'the whole list read',
        60_000,
      );
      // On the page's clock: its first 200 read, and all of them.
      const read = await s.execute(`return ['ponder:start:list-read', 'ponder:start:list-whole'].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? null);`);
      if (read[0] !== null) figure('many_start_page_list_read_ms', read[0], 'ms');
      if (read[1] !== null) figure('many_start_page_list_whole_ms', read[1], 'ms');
      await sleep(1000);
      await s.execute(FLING, [short ? 2000 : 8000]);
      let frames = null;
      for (const deadline = Date.now() + 10 * 60_000; frames === null && Date.now() < deadline; ) {
        await sleep(1000);
        frames = await s.execute(`return window.__benchFling.done ? window.__benchFling.frames : null;`);
      }
      if (frames === null) throw new Error('the fling through the sidebar never ended');
      figure('many_sidebar_fling_frames', frames.length);
      figure('many_sidebar_fling_frame_median_ms', median(frames), 'ms');
      figure('many_sidebar_fling_frame_p95_ms', percentile(frames, 95), 'ms');
      figure('many_sidebar_fling_frame_longest_ms', Math.max(...frames), 'ms');

      // Each query three times: the first of each reads its pages of the index from disk.
      const runs = await s.execute(SEARCH, [[...QUERIES, ...QUERIES, ...QUERIES]]);
      const times = runs.map((r) => r.ms);
      figure('many_search_queries', times.length);
      figure('many_search_median_ms', median(times), 'ms');
      figure('many_search_p95_ms', percentile(times, 95), 'ms');
      const slowest = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
      figure('many_search_slowest_ms', slowest.ms, 'ms');
      console.log(`bench: many_search_slowest_query "${slowest.query}" (${slowest.hits} hits)`);
      await s.end();
    } finally {
      await driver.stop();
    }
  } finally {
    rmSync(dataHome, { recursive: true, force: true });
  }
}

// node bench/many-conversations.mjs --prepare [--short]
if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--prepare')) {
  const short = process.argv.includes('--short');
  console.log(`history: ${prepareHistory(short ? MANY_SHORT : MANY_FULL, short)}`);
}
