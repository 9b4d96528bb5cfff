import { describe, expect, it } from 'vitest';

import { estimateRow, type ThreadItem } from './thread';
import type { MessageView } from './types';

function message(role: 'user' | 'assistant', parts: MessageView['parts']): ThreadItem {
  const m = { id: `${role}-${Math.random()}`, role, parts } as unknown as MessageView;
  return { kind: 'message', key: m.id, message: m, live: false };
}

const paragraph = (chars: number) => 'w'.repeat(chars);

describe('row estimates', () => {
  // Heights measured in the thread (Chromium, the default window): a one-line question is 55 px,
  // one that wraps once 76 px; an answer of 17 source lines with a folded thought about 670 px.
  it('are a question’s wrapped lines', () => {
    expect(estimateRow(message('user', [{ type: 'text', text: paragraph(62) }]))).toBe(55);
    expect(estimateRow(message('user', [{ type: 'text', text: paragraph(86) }]))).toBe(76);
  });

  // Measured in the app (WebKitGTK, the default window) on the benchmark's answers: a
  // paragraph of four lines, a list of six items, a five-line code block and a closing line,
  // under a folded thought of 14 KB: 627 px.
  it('are near an answer’s measured height', () => {
    const words = (chars: number) => 'word '.repeat(Math.ceil(chars / 5)).slice(0, chars).trim();
    const text = [
      words(300),
      Array.from({ length: 6 }, (_, i) => `- **item ${i}**: ${words(55)}`).join('\n'),
      ['```python', 'def check(n):', '    for d in range(2, n):', '        if n % d == 0:', '            return d', '    return None', '```'].join('\n'),
      words(50),
    ].join('\n\n');
    const thinking = { type: 'thinking', text: Array.from({ length: 40 }, () => words(400)).join('\n\n'), source: null, summary: false, redacted: false, hidden: false, durationMs: null, tokenEstimate: null };
    const h = estimateRow(message('assistant', [thinking as unknown as MessageView['parts'][number], { type: 'text', text }]));
    expect(h).toBeGreaterThan(627 * 0.93);
    expect(h).toBeLessThan(627 * 1.02);
  });

  it('join a paragraph’s lines, as the Markdown is drawn, and keep list items apart', () => {
    const lines = Array.from({ length: 4 }, () => 'w'.repeat(30));
    const paragraph = estimateRow(message('assistant', [{ type: 'text', text: lines.join('\n') }]));
    const list = estimateRow(message('assistant', [{ type: 'text', text: lines.map((l) => `- ${l}`).join('\n') }]));
    // 4 × 30 characters joined: two wrapped lines; four items: four lines.
    expect(list - paragraph).toBe(2 * 22);
  });

  it('are worked out once per message', () => {
    const item = message('user', [{ type: 'text', text: paragraph(10) }]);
    const first = estimateRow(item);
    (item as { message: MessageView }).message.parts.push({ type: 'text', text: paragraph(500) });
    expect(estimateRow(item)).toBe(first);
  });
});
