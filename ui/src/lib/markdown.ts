// Markdown for model output, which is untrusted: marked turns it into HTML, DOMPurify keeps
// only plain HTML (no scripts, inline handlers, styles, forms, frames, javascript: URLs, and
// no address but a link's and an image's, see `KEPT_ATTRIBUTES`), and then, on the sanitized
// tree, code is highlighted (see `highlightCode`), code blocks get a header with a copy
// button and remote images become a button that loads them only when clicked.
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked, type Token, type Tokens, type TokensList } from 'marked';

// The languages are registered when code is first highlighted, not when the app starts:
// registering them builds each one's grammar, 7–8 ms of WebKit's time before the
// conversation list can be shown (measured in the app's page), for code that comes later.
let registered = false;
function registerLanguages(): void {
  if (registered) return;
  registered = true;
  for (const [name, language] of Object.entries({
    bash,
    c,
    cpp,
    css,
    diff,
    go,
    java,
    javascript,
    json,
    markdown,
    python,
    rust,
    sql,
    typescript,
    xml,
    yaml,
  })) {
    hljs.registerLanguage(name, language);
  }
  hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
  hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
  hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
  hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
  hljs.registerAliases(['py'], { languageName: 'python' });
  hljs.registerAliases(['rs'], { languageName: 'rust' });
  hljs.registerAliases(['yml'], { languageName: 'yaml' });
  hljs.registerAliases(['md'], { languageName: 'markdown' });
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Highlights `code` if its language is one we carry; escapes it otherwise. */
export function highlight(code: string, lang: string | undefined): string {
  const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (language) registerLanguages();
  if (language && hljs.getLanguage(language)) {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  }
  return escapeHtml(code);
}

const UNDERLINE = /\n {0,3}(?:=+|-+)[ \t]*(?:\n|$)/;
const BLANK_LINE = /\n[ \t]*\n/;

/**
 * Whether `src` (the rest of a document, from a block's start) may begin with a setext
 * heading: its block has a line of only `=` or `-` before the first blank line. marked's own
 * test for one is a regular expression that WebKit's JavaScript engine runs without its
 * compiler, at about a microsecond a character, for every paragraph (measured in the app: an
 * 11 KB paragraph took 12–13 ms, two thirds of its whole rendering). Where this says no, that
 * expression cannot match either: its heading's text never crosses a blank line and always
 * ends in such an underline.
 */
export function maySetextHeading(src: string): boolean {
  const blank = BLANK_LINE.exec(src);
  return UNDERLINE.test(blank ? src.slice(0, blank.index + blank[0].length) : src);
}

/** marked's tokenizers with the setext heading tested first by `maySetextHeading` (returning
 * `false` hands the block to marked's own tokenizer, `undefined` says it is not one). */
export const FAST_TOKENIZER = {
  lheading(src: string): false | undefined {
    return maySetextHeading(src) ? false : undefined;
  },
};

/** Set while a run of blocks without raw HTML is rendered: its code stays escaped text, and is
 * highlighted once the run is sanitized (see `highlightCode`). */
let highlightLater = false;

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  tokenizer: FAST_TOKENIZER,
  renderer: {
    // Inside a paragraph, a tag that the sanitizer removes, or that would turn what follows
    // into raw text or another namespace (`<style>`, `<textarea>`, `<xmp>`, `<svg>`…), is
    // shown as the text it is rather than swallowing the rest of the paragraph.
    html(token: Tokens.HTML | Tokens.Tag): string {
      if ('block' in token && token.block) return token.text;
      const tag = /^<\/?\s*([a-z][\w:-]*)/i.exec(token.text)?.[1]?.toLowerCase() ?? '';
      return SHOWN_AS_TEXT.has(tag) ? escapeHtml(token.text) : token.text;
    },
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
      const cls = language ? ` language-${escapeHtml(language.replace(/[^\w+#.-]/g, ''))}` : '';
      const code = text.replace(/\n$/, '');
      return `<pre><code class="hljs${cls}">${highlightLater ? escapeHtml(code) : highlight(code, language)}</code></pre>\n`;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return `<span class="task" aria-label="${checked ? 'done' : 'not done'}">${checked ? '☑' : '☐'}</span> `;
    },
  },
});

const PURIFY: Parameters<typeof DOMPurify.sanitize>[1] = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'object',
    'embed',
    'dialog',
    'template',
    'link',
    'meta',
    'base',
    'video',
    'audio',
    'source',
    'picture',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset', 'action', 'formaction', 'autofocus', 'tabindex', 'popover'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM: true,
};

/**
 * The only attributes kept, whatever DOMPurify's own lists allow: what plain HTML needs to
 * read as written, none of which takes an address. An address in the page is a request the
 * page makes without a click (`<table background>`, `<video poster>`, `<blockquote cite>` in
 * some engines…), and with it a reader's IP address and what they are reading leave the
 * machine. `ADDRESSES` are the two exceptions, each on one element and each rewritten by
 * `enhance`: a link's `href` (opened outside the window, never in it) and an image's `src`
 * (a button until the user asks for the image).
 */
const KEPT_ATTRIBUTES = new Set<string>([
  'align',
  'alt',
  'bgcolor',
  'border',
  'cellpadding',
  'cellspacing',
  'class',
  'clear',
  'color',
  'cols',
  'colspan',
  'datetime',
  'dir',
  'face',
  'headers',
  'height',
  'hidden',
  'high',
  'label',
  'lang',
  'low',
  'max',
  'min',
  'noshade',
  'nowrap',
  'open',
  'optimum',
  'reversed',
  'role',
  'rowspan',
  'scope',
  'size',
  'span',
  'start',
  'summary',
  'title',
  'translate',
  'type',
  'valign',
  'value',
  'width',
]);
const ADDRESSES = new Map<string, string>([
  ['href', 'a'],
  ['src', 'img'],
]);

/** Whether the sanitizer keeps attribute `name` on element `tag` (both lower case). */
export function keepsAttribute(tag: string, name: string): boolean {
  if (ADDRESSES.has(name)) return ADDRESSES.get(name) === tag;
  return KEPT_ATTRIBUTES.has(name) || /^aria-[a-z-]+$/.test(name);
}

/** Tags of inline HTML shown literally: everything the sanitizer removes, and every element
 * whose content the browser reads as raw text or in another namespace. */
const SHOWN_AS_TEXT = new Set<string>([
  ...((PURIFY?.FORBID_TAGS as string[] | undefined) ?? []),
  'script',
  'title',
  'xmp',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'svg',
  'math',
]);

/** The host of a remote URL, for the "Load image from HOST" button; null when not remote. */
export function remoteHost(src: string): string | null {
  const trimmed = src.trim();
  if (!/^(https?:)?\/\//i.test(trimmed)) return null;
  try {
    return new URL(trimmed, 'https://invalid.example').host || null;
  } catch {
    return null;
  }
}

/** The sanitizer, set up once: given its settings with each call, it reads them again each
 * time (~0.2 ms a message in the app). Only this module uses it. */
let configured = false;
function purify(html: string): HTMLElement | null {
  if (!configured) {
    DOMPurify.setConfig(PURIFY);
    DOMPurify.addHook('uponSanitizeAttribute', (node, event) => {
      if (!keepsAttribute(node.nodeName.toLowerCase(), event.attrName)) event.keepAttr = false;
    });
    configured = true;
  }
  return DOMPurify.sanitize(html) as unknown as HTMLElement | null;
}

/**
 * Highlights the code blocks of a sanitized run that had no raw HTML (so every `pre > code` in
 * it is marked's, holding escaped text). highlight.js's output is that text, escaped again,
 * in spans of its own classes; sanitized with the rest, each of those spans cost the
 * sanitizer as much as a paragraph (measured in the app: a typical 1 KB answer with a short
 * Python block, 1.6 → 1.1 ms to sanitize).
 */
function highlightCode(body: HTMLElement): void {
  for (const code of Array.from(body.querySelectorAll('pre > code'))) {
    const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1];
    if (lang) code.innerHTML = highlight(code.textContent ?? '', lang);
  }
}

/** Rewrites the sanitized tree in place: our own code headers, blocked images, safe links. */
function enhance(body: HTMLElement): void {
  const doc = body.ownerDocument;
  for (const img of Array.from(body.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    if (src.startsWith('data:image/')) continue;
    const host = remoteHost(src);
    if (host) {
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = 'image-blocked';
      button.dataset.action = 'load-image';
      button.dataset.src = new URL(src.trim(), 'https://invalid.example').href;
      const alt = img.getAttribute('alt') ?? '';
      if (alt) button.dataset.alt = alt;
      button.title = `${alt ? `${alt} — ` : ''}${button.dataset.src}`;
      button.textContent = `Load image from ${host}`;
      img.replaceWith(button);
    } else {
      // Neither remote nor inline data: nothing of ours to show, so keep the alt text.
      img.replaceWith(doc.createTextNode(img.getAttribute('alt') ?? ''));
    }
  }
  for (const link of Array.from(body.querySelectorAll('a'))) {
    const href = link.getAttribute('href');
    if (!href) continue;
    link.setAttribute('rel', 'noopener noreferrer nofollow');
    link.setAttribute('target', '_blank');
    link.setAttribute('title', href);
  }
  for (const pre of Array.from(body.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = /(?:^|\s)language-([\w+#.-]+)/.exec(code?.className ?? '')?.[1] ?? '';
    const block = doc.createElement('div');
    block.className = 'code-block';
    const head = doc.createElement('div');
    head.className = 'code-head';
    const label = doc.createElement('span');
    label.className = 'code-lang';
    label.textContent = lang || 'text';
    const copy = doc.createElement('button');
    copy.type = 'button';
    copy.className = 'code-copy';
    copy.dataset.action = 'copy-code';
    copy.textContent = 'Copy';
    head.append(label, copy);
    pre.replaceWith(block);
    block.append(head, pre);
  }
}

/** Whether a block holds raw HTML anywhere in it (a block of its own, or inline). */
function hasRawHtml(token: Token): boolean {
  let found = false;
  marked.walkTokens([token], (t) => {
    if (t.type === 'html') found = true;
  });
  return found;
}

/** Markdown to sanitized HTML, safe to put in the page with `{@html}`. */
export function renderMarkdown(source: string): string {
  // A block with raw HTML is rendered and sanitized on its own: its HTML (an unclosed
  // `<style>`, `<form>` or `<table>`) can never swallow or restructure the blocks after it.
  // Blocks without any are marked's own well-formed output, so each run of them is
  // sanitized in one pass (a long thought is hundreds of blocks).
  const tokens = marked.lexer(source);
  let body: HTMLElement | null = null;
  const add = (part: HTMLElement): void => {
    if (body === null) body = part;
    else body.append(...Array.from(part.childNodes));
  };
  const sanitize = (blocks: Token[], plainRun: boolean): HTMLElement => {
    const list = Object.assign(blocks, { links: tokens.links }) as TokensList;
    highlightLater = plainRun;
    let html: string;
    try {
      html = marked.parser(list);
    } finally {
      highlightLater = false;
    }
    // A `<frameset>` leaves the parsed document without a body: show such a block as text.
    const body = purify(html) ?? (purify(`<p>${escapeHtml(blocks.map((b) => b.raw).join(''))}</p>`) as HTMLElement);
    if (plainRun) highlightCode(body);
    return body;
  };
  let plain: Token[] = [];
  for (const token of tokens) {
    if (token.type === 'space') continue;
    if (!hasRawHtml(token)) {
      plain.push(token);
      continue;
    }
    if (plain.length > 0) add(sanitize(plain, true));
    plain = [];
    add(sanitize([token], false));
  }
  if (plain.length > 0) add(sanitize(plain, true));
  if (body === null) return '';
  enhance(body);
  return (body as HTMLElement).innerHTML;
}

/** Rendered messages by their source, the most recently used kept. */
const rendered = new Map<string, string>();
let renderedChars = 0;
/** About 24 MB of sources and HTML at two bytes a character. */
const RENDERED_CHARS = 12_000_000;

/**
 * `renderMarkdown`, remembered: a message scrolled back into view, or a conversation opened
 * again, is not parsed, highlighted and sanitized again.
 */
export function renderMarkdownCached(source: string): string {
  const hit = rendered.get(source);
  if (hit !== undefined) {
    rendered.delete(source);
    rendered.set(source, hit);
    return hit;
  }
  const html = renderMarkdown(source);
  const size = source.length + html.length;
  if (size > RENDERED_CHARS / 4) return html;
  rendered.set(source, html);
  renderedChars += size;
  trimRenderedMarkdown(RENDERED_CHARS);
  return html;
}

/** What of the cache a conversation left behind keeps: its most recently shown answers. */
const RENDERED_KEPT_CHARS = 2_000_000;

/**
 * Lets the cache go down to the most recently used `keep` characters: past its bound, and
 * when a conversation is left (a long thread's answers fill the whole cache, 12–24 MB; the
 * rest goes with the thread, for the collector to free).
 */
export function trimRenderedMarkdown(keep = RENDERED_KEPT_CHARS): void {
  for (const [key, value] of rendered) {
    if (renderedChars <= keep) break;
    rendered.delete(key);
    renderedChars -= key.length + value.length;
  }
}

/** How many characters the cache holds, sources and HTML. */
export function renderedMarkdownChars(): number {
  return renderedChars;
}

/**
 * Renders a message into the cache ahead of being shown, while the page is idle, into at most
 * half of it: the rest stays for what has been shown, which is never pushed out for this.
 * False once that half is full (the rest of a thread waits to be shown).
 */
export function prerenderMarkdown(source: string): boolean {
  if (rendered.has(source)) return true;
  if (renderedChars >= RENDERED_CHARS / 2) return false;
  const html = renderMarkdown(source);
  const size = source.length + html.length;
  if (size > RENDERED_CHARS / 4) return true;
  rendered.set(source, html);
  renderedChars += size;
  return true;
}

/**
 * Splits markdown at blank lines outside code fences into top-level blocks. While a message
 * streams only its last block changes, so the others can be rendered once and kept.
 */
export function splitBlocks(source: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of source.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    }
    if (fence === null && line.trim() === '' && current.length > 0) {
      blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    if (fence === null && line.trim() === '') continue;
    current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

/**
 * A long text as pieces of about `size` characters, each whole top-level blocks, to render
 * one at a time; a short one is a single piece.
 */
export function markdownPieces(source: string, size: number): string[] {
  if (source.length <= size) return [source];
  const pieces: string[] = [];
  let current = '';
  for (const block of splitBlocks(source)) {
    current = current ? `${current}\n\n${block}` : block;
    if (current.length >= size) {
      pieces.push(current);
      current = '';
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Renders a message that is still streaming, a top-level block at a time: finished blocks
 * come from the cache of rendered Markdown, only the last (still growing) one is rendered
 * each time. */
export function renderMarkdownStreamingBlocks(source: string): string[] {
  const blocks = splitBlocks(source);
  return blocks.map((block, i) => (i === blocks.length - 1 ? renderMarkdown(block) : renderMarkdownCached(block)));
}
