// An answer's rendered Markdown kept in the page block by block. While an answer streams, its
// last block (a paragraph, a list, a code block) grows at every render. Made again from its
// HTML, the whole block was laid out again too: for a long paragraph that was most of a
// 30–45 ms frame. Here a block whose HTML changed is brought to its new HTML node by node,
// so text that only grew is appended to the text node it was in, and every other node stays.

/** The top-level nodes one block's HTML made, and that HTML. */
export interface KeptBlock {
  html: string;
  nodes: Node[];
}

/**
 * Makes `root`'s children show `blocks` (HTML, already sanitised), given what `kept` says
 * they show now; `kept` is updated. `root` must hold nothing else.
 */
export function showBlocks(root: Element, kept: KeptBlock[], blocks: string[]): void {
  for (const gone of kept.splice(blocks.length)) {
    for (const node of gone.nodes) node.parentNode?.removeChild(node);
  }
  blocks.forEach((html, i) => {
    const old = kept[i];
    if (old?.html === html) return;
    const fresh = parse(html);
    if (!old) {
      kept.push({ html, nodes: Array.from(fresh.childNodes) });
      root.appendChild(fresh);
      return;
    }
    old.nodes = morphChildren(root, old.nodes, fresh, firstNodeAfter(kept, i, old));
    old.html = html;
  });
}

function parse(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/** Where block `i`'s new nodes go when it has none left to follow: before the next block's. */
function firstNodeAfter(kept: KeptBlock[], i: number, block: KeptBlock): Node | null {
  const last = block.nodes.at(-1);
  if (last) return last.nextSibling;
  return kept.slice(i + 1).find((b) => b.nodes.length > 0)?.nodes[0] ?? null;
}

/**
 * Brings the sibling nodes `old` (in `parent`) to `like`'s children, the ones they run short
 * of put before `after`; returns the nodes now shown.
 */
function morphChildren(parent: Node, old: Node[], like: Node, after: Node | null): Node[] {
  const wanted = Array.from(like.childNodes);
  const shown = wanted.map((next, i) => {
    const was = old[i];
    if (was && morph(was, next)) return was;
    if (was) parent.replaceChild(next, was);
    else parent.insertBefore(next, after);
    return next;
  });
  for (const extra of old.slice(wanted.length)) parent.removeChild(extra);
  return shown;
}

/** Makes `node` equal to `like` in place; false when it cannot be (another kind or tag). */
function morph(node: Node, like: Node): boolean {
  if (node.nodeType !== like.nodeType) return false;
  if (node instanceof CharacterData) {
    const was = node.data;
    const now = (like as CharacterData).data;
    // Appended, the text keeps its laid-out lines; only the new ones are laid out.
    if (now !== was) {
      if (now.startsWith(was)) node.appendData(now.slice(was.length));
      else node.data = now;
    }
    return true;
  }
  if (!(node instanceof Element) || !(like instanceof Element)) return false;
  if (node.namespaceURI !== like.namespaceURI || node.localName !== like.localName) return false;
  for (const attr of Array.from(node.attributes)) {
    if (!like.hasAttributeNS(attr.namespaceURI, attr.localName)) node.removeAttributeNode(attr);
  }
  for (const attr of Array.from(like.attributes)) {
    if (node.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
      node.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
    }
  }
  morphChildren(node, Array.from(node.childNodes), like, null);
  return true;
}
