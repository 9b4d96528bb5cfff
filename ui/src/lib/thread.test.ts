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

  it('are near an answer’s measured height', () => {
    const text = Array.from({ length: 17 }, (_, i) => paragraph(i % 3 === 0 ? 120 : 40)).join('\n');
    const thought = { type: 'thinking', text: 'x', source: null, summary: false, redacted: false, hidden: false, durationMs: null, tokenEstimate: null } as unknown as MessageView['parts'][number];
    const h = estimateRow(message('assistant', [thought, { type: 'text', text }]));
    expect(h).toBeGreaterThan(670 * 0.8);
    expect(h).toBeLessThan(670 * 1.2);
  });

  it('are worked out once per message', () => {
    const item = message('user', [{ type: 'text', text: paragraph(10) }]);
    const first = estimateRow(item);
    (item as { message: MessageView }).message.parts.push({ type: 'text', text: paragraph(500) });
    expect(estimateRow(item)).toBe(first);
  });
});
