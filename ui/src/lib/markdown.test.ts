import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { describe, expect, it, vi } from 'vitest';

import {
  FAST_TOKENIZER,
  keepsAttribute,
  maySetextHeading,
  prerenderMarkdown,
  remoteHost,
  renderMarkdown,
  renderMarkdownCached,
  renderedMarkdownChars,
  renderMarkdownStreamingBlocks,
  splitBlocks,
  trimRenderedMarkdown,
} from './markdown';

function dom(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

/** The URL-bearing payloads of the XSS corpus, their addresses on `host`. */
function urlPayloads(host: string): string[] {
  const file = join(__dirname, '..', '..', '..', 'tests', 'fixtures', 'xss', 'urls.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as string[]).map((text) => text.replace(/WATCHED/g, host));
}

/**
 * Every place in rendered HTML that names `host`, as `tag@attribute`, but the ones Ponder
 * writes itself: a link (its address, and its title that shows the address) and the
 * button that loads an image when clicked. An inline `data:` image may name it too: an
 * image (an SVG one included) loads nothing of its own.
 */
function addressesTo(html: string, host: string): string[] {
  const ours = new Set(['a@href', 'a@title', 'button@data-src', 'button@title']);
  const found: string[] = [];
  for (const el of Array.from(dom(html).querySelectorAll('*'))) {
    const inline = el.localName === 'img' && (el.getAttribute('src') ?? '').startsWith('data:image/');
    for (const attr of Array.from(el.attributes)) {
      const where = `${el.localName}@${attr.name}`;
      if (attr.value.toLowerCase().includes(host) && !ours.has(where) && !(inline && attr.name === 'src')) found.push(where);
    }
    if (el.localName === 'img' && !inline) found.push('img@src');
    if (el.localName === 'style' || el.hasAttribute('style')) found.push(`${el.localName}: style`);
  }
  return found;
}

describe('renderMarkdown', () => {
  it('renders ordinary markdown', () => {
    const html = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n- one\n- two');
    const root = dom(html);
    expect(root.querySelector('h1')?.textContent).toBe('Title');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelectorAll('li')).toHaveLength(2);
  });

  it('makes scripts, inline handlers and javascript: URLs inert', () => {
    const html = renderMarkdown(
      [
        '<script>window.pwned = 1</script>',
        '<img src="x" onerror="window.pwned = 2">',
        '<a href="javascript:alert(1)">click</a>',
        '[md link](javascript:alert(2))',
        '<div onclick="alert(3)" style="position:fixed">div</div>',
        '<iframe src="https://evil.example"></iframe>',
        '<form action="https://evil.example"><input name="pw"></form>',
        '<svg><script>alert(4)</script></svg>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/<iframe|<form|<input|<svg|style=/i);
    const root = dom(html);
    for (const a of Array.from(root.querySelectorAll('a'))) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript/i);
    }
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
  });

  it('blocks remote images behind a button that names the host', () => {
    const html = renderMarkdown('![a cat](https://images.example.com/cat.png)\n\n<img src="http://tracker.example/p.gif">');
    const root = dom(html);
    expect(root.querySelector('img')).toBeNull();
    const buttons = Array.from(root.querySelectorAll<HTMLButtonElement>('button.image-blocked'));
    expect(buttons.map((b) => b.textContent)).toEqual(['Load image from images.example.com', 'Load image from tracker.example']);
    expect(buttons[0]?.dataset.src).toBe('https://images.example.com/cat.png');
    expect(buttons[0]?.dataset.action).toBe('load-image');
  });

  it('keeps no address but a link’s and an image’s, which it rewrites', () => {
    const html = renderMarkdown(
      [
        '<table background="https://watched.example/table.png"><tr><td background="//watched.example/td.png">cell</td></tr></table>',
        '<blockquote cite="https://watched.example/cite">quoted</blockquote>',
        '<a href="https://watched.example/page" ping="https://watched.example/ping">link</a>',
        '<img alt="mapped" usemap="#m"><map name="m"><area href="https://watched.example/area" shape="default"></map>',
        '<img src="https://watched.example/cat.png" longdesc="https://watched.example/long" alt="cat">',
        '<div xmlns="https://watched.example/ns" background="https://watched.example/div.png">div</div>',
      ].join('\n\n'),
    );
    expect(addressesTo(html, 'watched.example')).toEqual([]);
    const root = dom(html);
    expect(root.querySelector('table')?.textContent).toBe('cell');
    expect(root.querySelector('blockquote')?.textContent).toBe('quoted');
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://watched.example/page');
    expect(root.querySelector<HTMLButtonElement>('button.image-blocked')?.dataset.src).toBe('https://watched.example/cat.png');
  });

  it('keeps an address attribute only on the one element Ponder rewrites it for', () => {
    expect(keepsAttribute('a', 'href')).toBe(true);
    expect(keepsAttribute('img', 'src')).toBe(true);
    for (const [tag, name] of [
      ['area', 'href'],
      ['track', 'src'],
      ['a', 'ping'],
      ['table', 'background'],
      ['td', 'background'],
      ['video', 'poster'],
      ['blockquote', 'cite'],
      ['img', 'srcset'],
      ['img', 'lowsrc'],
      ['img', 'longdesc'],
      ['img', 'usemap'],
      ['div', 'xmlns'],
      ['button', 'formaction'],
      ['object', 'data'],
    ]) {
      expect(keepsAttribute(tag as string, name as string), `${tag}@${name}`).toBe(false);
    }
    expect(keepsAttribute('td', 'align')).toBe(true);
    expect(keepsAttribute('span', 'aria-label')).toBe(true);
  });

  it('leaves no address of the XSS corpus’s URL payloads in the page', () => {
    const payloads = urlPayloads('127.0.0.1:9');
    expect(payloads.length).toBeGreaterThanOrEqual(60);
    const found = payloads.flatMap((payload) => addressesTo(renderMarkdown(payload), '127.0.0.1:9').map((w) => `${w} in ${payload}`));
    expect(found).toEqual([]);
  });

  it('keeps inline data images, which need no network', () => {
    const html = renderMarkdown('![dot](data:image/png;base64,iVBORw0KGgo=)');
    expect(dom(html).querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png/);
  });

  it('highlights code and gives each block a copy button of our own', () => {
    const root = dom(renderMarkdown('```rust\nfn main() { let x = 1; }\n```'));
    const block = root.querySelector('.code-block');
    expect(block?.querySelector('.code-lang')?.textContent).toBe('rust');
    expect(block?.querySelector('button.code-copy')?.getAttribute('data-action')).toBe('copy-code');
    expect(block?.querySelector('code .hljs-keyword')?.textContent).toBe('fn');
    expect(block?.querySelector('code')?.textContent).toBe('fn main() { let x = 1; }');
  });

  it('highlights code after sanitizing it, keeping what the code says as text', () => {
    const source = '```python\nprint("<img src=x onerror=alert(1)>")  # <script>\n```';
    const root = dom(renderMarkdown(source));
    expect(root.querySelector('img, script')).toBeNull();
    expect(root.querySelector('code .hljs-string')?.textContent).toBe('"<img src=x onerror=alert(1)>"');
    expect(root.querySelector('code')?.textContent).toBe('print("<img src=x onerror=alert(1)>")  # <script>');
  });

  it('highlights code the same in a message with raw HTML as in one without', () => {
    const code = '```ts\nconst x: number = 1;\n```';
    const plain = dom(renderMarkdown(code)).querySelector('code')?.innerHTML;
    const mixed = dom(renderMarkdown(`<b>note</b>\n\n${code}\n\n<div>\n\n${code}\n\n</div>`));
    expect(plain).toContain('hljs-keyword');
    expect(Array.from(mixed.querySelectorAll('code'), (c) => c.innerHTML)).toEqual([plain, plain]);
  });

  it('drops data attributes a model writes, so only our buttons carry actions', () => {
    const html = renderMarkdown('<span data-action="copy-code" id="app">x</span>');
    expect(html).not.toContain('data-action');
    expect(html).not.toContain('id=');
  });

  it('marks links to open elsewhere', () => {
    const a = dom(renderMarkdown('[docs](https://example.com/docs)')).querySelector('a');
    expect(a?.getAttribute('rel')).toContain('noopener');
    expect(a?.getAttribute('href')).toBe('https://example.com/docs');
  });
});

describe('streaming markdown', () => {
  it('splits at blank lines but never inside a code fence', () => {
    expect(splitBlocks('a\n\nb\n```\nx\n\ny\n```\n\nc')).toEqual(['a', 'b\n```\nx\n\ny\n```', 'c']);
  });

  it('renders the same as a whole for simple text', () => {
    const src = 'One paragraph.\n\n```js\nconst a = 1;\n```\n\nAnother **one**';
    expect(dom(renderMarkdownStreamingBlocks(src).join('')).textContent?.replace(/\s+/g, ' ')).toBe(
      dom(renderMarkdown(src)).textContent?.replace(/\s+/g, ' '),
    );
  });

  // A finished answer keeps its streamed blocks when they join to its whole rendering
  // (Markdown.svelte); where splitting at blank lines changes the meaning, they do not.
  it.each([
    ['paragraphs, code and a list', 'There are **25 primes**:\n\n```text\n2 3 5 7\n```\n\n- one\n- two\n\nA *last* line.', true],
    ['one long paragraph', 'word '.repeat(400).trim(), true],
    ['a table and a quote', '| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n1. first\n2. second', true],
    ['a loose list', '- one\n\n- two', false],
    ['a reference link defined in a later block', 'See [the docs][d].\n\n[d]: https://example.com', false],
  ])('joins the blocks of %s to the whole HTML: %s', (_, src, same) => {
    expect(splitBlocks(src).map(renderMarkdown).join('') === renderMarkdown(src)).toBe(same);
  });

  it('gives the blocks before the last the same HTML as the text grows, so they keep their nodes', () => {
    const before = renderMarkdownStreamingBlocks('First **block**.\n\n```py\nx = 1\n```\n\nThe last one gr');
    const after = renderMarkdownStreamingBlocks('First **block**.\n\n```py\nx = 1\n```\n\nThe last one grows');
    expect(after).toHaveLength(3);
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(dom(after[2] ?? '').textContent?.trim()).toBe('The last one grows');
  });
});

describe('remoteHost', () => {
  it('knows remote from local', () => {
    expect(remoteHost('https://a.example/x.png')).toBe('a.example');
    expect(remoteHost('//cdn.example/x.png')).toBe('cdn.example');
    expect(remoteHost('data:image/png;base64,xx')).toBeNull();
    expect(remoteHost('local.png')).toBeNull();
  });
});

describe('raw HTML that would break the page', () => {
  it('never swallows or loses the blocks around it', () => {
    for (const html of [
      '<div id="31"><frameset onload=alert(31)>//</div>',
      '<b><style><style/><img src=x onerror=alert(1)>',
      '<form><input name=attributes><input name=attributes>',
      '<math><mtext><table><mglyph><style><math href=javascript:alert(1)>CLICKME</math>',
      '<select><option>swallow',
    ]) {
      const out = renderMarkdown(`before\n\n${html}\n\nafter`);
      expect(out, html).toContain('before');
      expect(out, html).toContain('after');
      const div = document.createElement('div');
      div.innerHTML = out;
      for (const el of div.querySelectorAll('*')) {
        for (const attr of el.attributes) {
          expect(attr.name, html).not.toMatch(/^on/i);
          expect(attr.value, html).not.toMatch(/^\s*javascript:/i);
        }
      }
    }
  });
});


describe('the setext heading test before marked\'s own', () => {
  it.each([
    ['Title\n===', true],
    ['Title\n---\n\nNext', true],
    ['Title\n   ---  \nmore', true],
    ['Two\nlines\n=', true],
    ['A plain paragraph with no underline at all.', false],
    ['para\n\nTitle\n===', false],
    ['para\n   \t\nTitle\n---', false],
    ['a\n----x', false],
    ['a\n    ---', false],
    ['', false],
  ])('%j may start with one: %s', (src, may) => {
    expect(maySetextHeading(src)).toBe(may);
  });

  // The override may only skip marked's expression where it could not match: every document
  // lexes to the same tokens with and without it.
  const plain = new Marked({ gfm: true, breaks: false, async: false });
  const fast = new Marked({ gfm: true, breaks: false, async: false, tokenizer: FAST_TOKENIZER });
  const LINES = [
    'Title', 'Some *emphasis* and `code`', '===', '---', '  ---  ', '    ---', '\t---', '=', '-', '- item', '* item', '1. one',
    '> quote', '> ---', '```', '~~~', 'code()', '', '   ', '\t', '| a | b |', '|---|---|', '***', '___', '# heading',
    '<div>', '</div>', 'www.example.com', 'text  ', '[ref]: https://example.com', '\u00a0', '==  x', '-- -',
  ];
  // A small deterministic generator, so a failure names a document that can be replayed.
  let seed = 20261126;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const documents = Array.from({ length: 3000 }, () =>
    Array.from({ length: 1 + next(10) }, () => LINES[next(LINES.length)]).join('\n'),
  );

  it('lexes 3,000 generated documents exactly as marked alone does', () => {
    for (const doc of documents) expect(fast.lexer(doc), JSON.stringify(doc)).toEqual(plain.lexer(doc));
  });
});

describe('highlighting', () => {
  it('knows every language and alias on the very first call (they are registered then)', async () => {
    vi.resetModules();
    const fresh = await import('./markdown');
    expect(fresh.highlight('let x: number = 1;', 'ts')).toContain('hljs-keyword');
    expect(fresh.highlight('echo hi', 'sh')).toContain('hljs-built_in');
    expect(fresh.highlight('<b>x</b>', 'nope')).toBe('&lt;b&gt;x&lt;/b&gt;');
  });
});

describe('prerenderMarkdown', () => {
  it('renders a message ahead into the cache, as it would be rendered when shown', () => {
    const source = 'Ahead of time: **bold**, a list\n\n- one\n- two\n\n```rust\nfn main() {}\n```';
    expect(prerenderMarkdown(source)).toBe(true);
    // Shown, it comes from the cache: nothing is sanitized again.
    const sanitize = vi.spyOn(DOMPurify, 'sanitize');
    try {
      const shown = renderMarkdownCached(source);
      expect(sanitize).not.toHaveBeenCalled();
      expect(shown).toBe(renderMarkdown(source));
    } finally {
      sanitize.mockRestore();
    }
  });
});

describe('trimRenderedMarkdown', () => {
  it('keeps the most recently shown answers and lets the others go', () => {
    trimRenderedMarkdown(0);
    expect(renderedMarkdownChars()).toBe(0);
    const all = Array.from({ length: 6 }, (_, i) => `Answer ${i}: ${'word '.repeat(200)}`);
    for (const source of all) renderMarkdownCached(source);
    // The first answer shown again: now the most recently used.
    renderMarkdownCached(all[0] ?? '');
    const each = renderedMarkdownChars() / all.length;
    trimRenderedMarkdown(Math.ceil(each * 2));
    expect(renderedMarkdownChars()).toBeLessThanOrEqual(Math.ceil(each * 2));
    // Kept: the last answer added and the one shown again; rendered again: any other.
    const render = vi.spyOn(DOMPurify, 'sanitize');
    try {
      renderMarkdownCached(all[0] ?? '');
      renderMarkdownCached(all[5] ?? '');
      expect(render).not.toHaveBeenCalled();
      renderMarkdownCached(all[2] ?? '');
      expect(render).toHaveBeenCalled();
    } finally {
      render.mockRestore();
    }
  });
});
