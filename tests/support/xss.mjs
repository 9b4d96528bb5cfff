// The XSS corpus and what the XSS suites share: the payloads (DOMPurify's test vectors,
// Ponder's Markdown ones and its URL-bearing ones, see tests/fixtures/xss/SOURCES.md), each
// wrapped in markers that must stay readable, the traps that notice a payload firing, the
// loopback server every URL-bearing payload points at, and a backup file that puts every
// payload into a history as a title, a question, a thought, a tool call and its result, an
// answer and an error.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { repoRoot } from './paths.mjs';

const DIR = join(repoRoot, 'tests', 'fixtures', 'xss');

/** Where the URL-bearing payloads (`urls.json`) point: replaced by the watched server's host. */
const WATCHED = /WATCHED/g;

/**
 * Every payload once: `{ n, source, text }`. `watched` is the host and port of
 * `watchRequests()`: each URL-bearing payload's addresses go there, under `/p<n>/`, so a
 * request names the payload that made it.
 */
export async function payloads(watched) {
  if (!/^127\.0\.0\.1:\d+$/.test(watched ?? '')) throw new Error(`the watched server's host, not ${watched}`);
  const { default: vectors } = await import(pathToFileURL(join(DIR, 'dompurify-expect.mjs')).href);
  const read = (name) => JSON.parse(readFileSync(join(DIR, name), 'utf8'));
  const texts = [
    ...vectors.map((v) => ({ source: 'dompurify', text: v.payload })),
    ...read('markdown.json').map((text) => ({ source: 'markdown', text })),
    ...read('urls.json').map((text) => ({ source: 'urls', text })),
  ].filter((p) => typeof p.text === 'string' && p.text.trim() !== '');
  const seen = new Set();
  return texts
    .filter((p) => !seen.has(p.text) && seen.add(p.text))
    .map((p, n) => ({ n, ...p, text: p.text.replace(WATCHED, `${watched}/p${n}`) }));
}

/** A PNG of one transparent pixel: what the watched server answers over http. */
export const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=',
  'base64',
);

/**
 * A loopback server for the URL-bearing payloads to point at: every connection to it is a
 * request something in the page made, whatever the element, the scheme or the browser's own
 * bookkeeping of it. Over http the request line is kept and a one-pixel PNG answered (so a
 * load that gets through completes); over https only that a TLS hello came (it is never
 * answered); a connection that sends nothing (a preconnect) counts too. Every answer closes
 * its connection, so each request opens one. Resolves to { host, seen(), forget(), close() }.
 */
export async function watchRequests() {
  const hits = [];
  const open = new Set();
  const server = createServer((socket) => {
    const hit = { what: 'a connection that sent nothing' };
    hits.push(hit);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
    socket.setTimeout(10_000, () => socket.destroy());
    socket.once('data', (chunk) => {
      if (chunk[0] === 0x16) {
        hit.what = 'a TLS connection (https)';
        socket.destroy();
        return;
      }
      hit.what = chunk.toString('latin1').split('\r\n', 1)[0];
      const head = `HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: ${PIXEL.length}\r\nConnection: close\r\n\r\n`;
      socket.end(Buffer.concat([Buffer.from(head, 'latin1'), PIXEL]));
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    host: `127.0.0.1:${port}`,
    /** What came so far, one line per connection. */
    seen: () => hits.map((h) => h.what),
    /** Forgets what came (after a control). */
    forget: () => void hits.splice(0),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        for (const socket of open) socket.destroy();
      }),
  };
}

/** Waits `ms` and resolves to what the watched server has seen: a request a page makes on
 * rendering is sent well within that. */
export async function seenAfter(watcher, ms = 1500) {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return watcher.seen();
}

/** The markers around payload `n`: text that must survive rendering, whatever the payload. */
export const markers = (n) => [`XSSMARK${n}OPEN`, `XSSMARK${n}SHUT`];

/** The payload between its markers, on lines of its own so Markdown block syntax applies. */
export function wrapped({ n, text }) {
  const [open, shut] = markers(n);
  return `${open}\n\n${text}\n\n${shut}`;
}

/** A one-line title holding the payload. */
export function title({ n, text }) {
  const [open, shut] = markers(n);
  return `${open} ${text.replace(/\s+/g, ' ').slice(0, 180)} ${shut}`;
}

/**
 * Installed in the page before anything untrusted renders. A payload "fires" when it calls a
 * dialog or window function (every vector in the corpus does, as its proof of execution),
 * sets the global `pwned`, opens a window, or leaves the page. Requests are counted from the
 * outside (Chromium's request hook) or from the resource timing entries (WebKit).
 */
export const TRAPS = `
  const fired = (window.__xssFired = []);
  for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) {
    window[name] = (...args) => { fired.push(name + '(' + String(args[0]).slice(0, 40) + ')'); return null; };
  }
  Object.defineProperty(window, 'pwned', { set: (v) => fired.push('pwned=' + v), get: () => undefined, configurable: true });
  window.addEventListener('beforeunload', () => fired.push('navigation'));
  window.__xssBlocked = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__xssBlocked.push(e.effectiveDirective + ' ' + e.blockedURI));
  window.__xssStart = location.href;
  window.__xssResources = performance.getEntriesByType('resource').length;
  return true;`;

/** What the traps saw: fired calls, new resource requests, CSP blocks, and whether the page left. */
export const SPRUNG = `
  const resources = performance.getEntriesByType('resource').slice(window.__xssResources)
    .map((e) => e.name)
    .filter((url) => !/^(ipc:|http:\\/\\/ipc\\.localhost)/.test(url));
  return {
    fired: window.__xssFired || ['the traps are gone: the page was replaced'],
    resources,
    blocked: window.__xssBlocked || [],
    moved: location.href !== window.__xssStart,
  };`;

/** A `ponder-backup` file with one conversation per payload, for `ponder-cli import`. */
export function backup(list) {
  const t0 = Date.UTC(2026, 0, 2, 9, 0, 0);
  const hex = (n, width) => n.toString(16).padStart(width, '0');
  const conversations = list.map((p, i) => {
    const cid = `${hex(i, 8)}${'c'.repeat(24)}`;
    const at = t0 + i * 60_000;
    const message = (seq, role, parts, extra = {}) => ({
      id: `${hex(i, 8)}${hex(seq, 4)}${'a'.repeat(20)}`,
      conversationId: cid,
      seq,
      status: 'complete',
      message: { role, parts, ...(role === 'assistant' ? { origin: { provider: 'anthropic', model: 'claude-sonnet-4-5' } } : {}) },
      choice: role === 'assistant' ? 'medium' : null,
      usage: {},
      thinkingMs: null,
      stop: null,
      errorCode: null,
      errorMessage: null,
      createdAt: at + seq * 1000,
      updatedAt: at + seq * 1000,
      ...extra,
    });
    return {
      conversation: {
        id: cid,
        title: title(p),
        createdAt: at,
        updatedAt: at,
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        settings: { choice: 'medium' },
        pinned: false,
        archived: false,
      },
      messages: [
        message(0, 'user', [{ type: 'text', text: wrapped(p) }]),
        // A tool step: the model calls a tool with the payload as its argument, and the
        // tool's result is the payload again.
        message(1, 'assistant', [
          { type: 'thinking', text: wrapped(p), source: 'thinking', duration_ms: 1000 },
          { type: 'tool_call', id: `call_${i}`, name: 'search', arguments: JSON.stringify({ query: title(p) }) },
        ]),
        message(2, 'tool', [
          { type: 'tool_result', call_id: `call_${i}`, name: 'search', content: [{ type: 'text', text: wrapped(p) }], duration_ms: 12 },
        ]),
        message(3, 'assistant', [{ type: 'text', text: wrapped(p) }]),
        message(4, 'user', [{ type: 'text', text: 'And once more?' }]),
        message(5, 'assistant', [{ type: 'text', text: markers(p.n)[0] }], {
          status: 'error',
          errorCode: 'bad_request',
          errorMessage: title(p),
        }),
      ],
    };
  });
  return { format: 'ponder-backup', version: 1, exportedBy: 'the XSS suite', conversations };
}
