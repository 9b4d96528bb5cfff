import { describe, expect, it } from 'vitest';

import { showBlocks, type KeptBlock } from './blockdom';

function page(): { root: HTMLDivElement; kept: KeptBlock[]; show: (blocks: string[]) => void } {
  const root = document.createElement('div');
  const kept: KeptBlock[] = [];
  return { root, kept, show: (blocks) => showBlocks(root, kept, blocks) };
}

describe('showBlocks', () => {
  it('shows the blocks in order and keeps the nodes of blocks that did not change', () => {
    const { root, show } = page();
    show(['<p>one</p>\n', '<p>two</p>\n']);
    expect(root.innerHTML).toBe('<p>one</p>\n<p>two</p>\n');
    const first = root.firstChild;
    show(['<p>one</p>\n', '<p>two, longer</p>\n', '<ul>\n<li>three</li>\n</ul>\n']);
    expect(root.innerHTML).toBe('<p>one</p>\n<p>two, longer</p>\n<ul>\n<li>three</li>\n</ul>\n');
    expect(root.firstChild).toBe(first);
  });

  it('adds text that only grew to the text node it was in', () => {
    const { root, show } = page();
    show(['<p>Hello <em>there</em> and</p>\n']);
    const paragraph = root.querySelector('p');
    const tail = paragraph?.lastChild;
    show(['<p>Hello <em>there</em> and more, much more</p>\n']);
    expect(root.querySelector('p')).toBe(paragraph);
    expect(paragraph?.lastChild).toBe(tail);
    expect(tail?.textContent).toBe(' and more, much more');
    expect(root.innerHTML).toBe('<p>Hello <em>there</em> and more, much more</p>\n');
  });

  it('replaces what changed kind and brings attributes and children to the new HTML', () => {
    const { root, show } = page();
    show(['<p>a <code>x</code> b</p>\n', '<p>Title</p>\n']);
    show(['<p>a <strong>x</strong> b</p>\n', '<h2 id="t">Title</h2>\n']);
    expect(root.innerHTML).toBe('<p>a <strong>x</strong> b</p>\n<h2 id="t">Title</h2>\n');
    show(['<p>a <strong class="k">x</strong></p>\n', '<h2 title="n">Title</h2>\n<p>after</p>\n']);
    expect(root.innerHTML).toBe('<p>a <strong class="k">x</strong></p>\n<h2 title="n">Title</h2>\n<p>after</p>\n');
    const code = '<div class="code-block"><pre><code>let a = 1;\nlet b</code></pre></div>\n';
    show([code]);
    const text = root.querySelector('code')?.firstChild;
    show([code.replace('let b', 'let b = 2;\n')]);
    expect(root.querySelector('code')?.firstChild).toBe(text);
    expect(root.innerHTML).toBe(code.replace('let b', 'let b = 2;\n'));
  });

  it('puts a grown block before the blocks after it, and drops blocks no longer there', () => {
    const { root, show } = page();
    show(['', '<p>b</p>\n', '<p>c</p>\n']);
    show(['<p>a</p>\n', '<p>b</p>\n', '<p>c</p>\n']);
    expect(root.innerHTML).toBe('<p>a</p>\n<p>b</p>\n<p>c</p>\n');
    show(['<p>a</p>\n<p>a2</p>\n', '<p>b</p>\n', '<p>c</p>\n']);
    expect(root.innerHTML).toBe('<p>a</p>\n<p>a2</p>\n<p>b</p>\n<p>c</p>\n');
    show(['<p>whole</p>\n']);
    expect(root.innerHTML).toBe('<p>whole</p>\n');
    show([]);
    expect(root.innerHTML).toBe('');
  });
});
