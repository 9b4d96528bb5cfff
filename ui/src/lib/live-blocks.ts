// A thought streaming live, as what to do to the page for each new stretch of text: append
// characters to the block being written, or start a new block. The page only ever appends
// to a text node (so a selection anywhere in the thought survives the next token, and the
// web view lays out only the block being written), and each update reads only the text added
// since the last one, so a thought half a megabyte long costs a token what a short one does.

/** About how many characters a block holds before the next line starts a new one. */
export const BLOCK_CHARS = 4096;

export type LiveOp =
  /** Empty the area: the text is not the last one with more at its end. */
  | { type: 'reset' }
  /** Add these characters to the last block (a new one if there is none). */
  | { type: 'append'; text: string }
  /** What follows goes into a new block. */
  | { type: 'block' };

const NBSP = '\u00a0';

export class LiveCutter {
  /** The text as last seen, to tell an append from a text that changed. */
  private seen = '';
  /** Characters in the block being written. */
  private block = 0;
  /** At the start of a line, or still in its indent. */
  private indent = true;

  update(text: string): LiveOp[] {
    const ops: LiveOp[] = [];
    // Only ever appended to while it streams; anything else starts over. A prefix is checked
    // by its length and its last characters: O(1).
    const n = this.seen.length;
    const appended = text.length >= n && text.slice(Math.max(0, n - 32), n) === this.seen.slice(-32);
    let from = n;
    if (!appended) {
      ops.push({ type: 'reset' });
      this.block = 0;
      this.indent = true;
      from = 0;
    }
    this.seen = text;
    let out = '';
    const flush = (): void => {
      if (out) ops.push({ type: 'append', text: out });
      out = '';
    };
    const endBlock = (): void => {
      flush();
      ops.push({ type: 'block' });
      this.block = 0;
    };
    const len = text.length;
    let i = from;
    // Line by line, not character by character: half a megabyte may come at once.
    while (i < len) {
      if (this.indent) {
        // The area collapses runs of spaces (see `.live-area`), so a line's indent is kept as
        // no-break spaces: a list or code the model writes in its thoughts keeps its shape.
        let j = i;
        while (j < len && (text[j] === ' ' || text[j] === '\t')) j++;
        out += text.slice(i, j).replaceAll('\t', '    ').replaceAll(' ', NBSP);
        this.block += j - i;
        i = j;
        if (i === len) break;
        this.indent = false;
      }
      const newline = text.indexOf('\n', i);
      const end = newline < 0 ? len : newline + 1;
      // In a line that runs on for four blocks' worth, a block ends after a space there (the
      // line then shows broken in two: a paragraph that long is rare, and laying it out
      // again for each token is not).
      const space = this.block + (end - i) >= 4 * BLOCK_CHARS ? text.indexOf(' ', Math.max(i, i + 4 * BLOCK_CHARS - this.block - 1)) : -1;
      // (Not the space just before a line break: that line ends here anyway.)
      if (space >= 0 && space < (newline < 0 ? end : end - 1)) {
        out += text.slice(i, space + 1);
        i = space + 1;
        endBlock();
        continue;
      }
      out += text.slice(i, end);
      this.block += end - i;
      i = end;
      if (newline >= 0) {
        this.indent = true;
        // A block ends after the first line break past its size.
        if (this.block >= BLOCK_CHARS) endBlock();
      }
    }
    flush();
    return ops;
  }
}

/** Applies `ops` to `area`, whose children are the blocks, each a div holding one text node. */
export function applyLiveOps(area: HTMLElement, ops: readonly LiveOp[]): void {
  for (const op of ops) {
    if (op.type === 'reset') area.replaceChildren();
    else if (op.type === 'block') area.append(newBlock(area.ownerDocument));
    else {
      let last = area.lastElementChild;
      if (!last) {
        last = newBlock(area.ownerDocument);
        area.append(last);
      }
      (last.firstChild as Text).appendData(op.text);
    }
  }
}

function newBlock(doc: Document): HTMLElement {
  const div = doc.createElement('div');
  div.append(doc.createTextNode(''));
  return div;
}
