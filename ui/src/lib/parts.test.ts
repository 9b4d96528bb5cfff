import { describe, expect, it } from 'vitest';

import { answerTexts, attachmentsOf, groupParts } from './parts';
import type { PartView } from './types';

const thought = (text: string) => ({ type: 'thinking', text, source: null, summary: false, redacted: false, hidden: false, durationMs: null, tokenEstimate: null }) as unknown as PartView;
const text = (t: string) => ({ type: 'text', text: t }) as PartView;
const call = (id: string) => ({ type: 'toolCall', id, name: 'search', arguments: '{}' }) as unknown as PartView;
const result = (callId: string) => ({ type: 'toolResult', callId, content: 'ok', isError: false }) as unknown as PartView;

describe('groupParts', () => {
  it('puts consecutive thoughts in one pane and consecutive text in one answer, numbering the thoughts', () => {
    const groups = groupParts([thought('a'), thought('b'), text('One '), text('two'), call('c1'), thought('c'), text('three')]);
    expect(groups.map((g) => g.kind)).toEqual(['thinking', 'text', 'tool', 'thinking', 'text']);
    expect(groups[0]).toMatchObject({ kind: 'thinking', first: 0 });
    expect(groups[0]?.kind === 'thinking' && groups[0].parts).toHaveLength(2);
    expect(groups[1]).toEqual({ kind: 'text', text: 'One two' });
    expect(groups[3]).toMatchObject({ kind: 'thinking', first: 2 });
  });

  it("joins a tool's result to its call's card, and gives a result without its call a card of its own", () => {
    const groups = groupParts([call('c1'), call('c2'), result('c2'), result('c1'), result('gone')]);
    expect(groups).toHaveLength(3);
    expect(groups.map((g) => (g.kind === 'tool' ? [g.call && 'id' in g.call ? g.call.id : null, g.result && 'callId' in g.result ? g.result.callId : null] : null))).toEqual([
      ['c1', 'c1'],
      ['c2', 'c2'],
      [null, 'gone'],
    ]);
  });
});

describe('answerTexts', () => {
  it("is the Markdown each of the message's answers shows", () => {
    expect(answerTexts([thought('a'), text('One '), text('two'), call('c1'), result('c1'), text('three')])).toEqual(['One two', 'three']);
    expect(answerTexts([thought('only thinking')])).toEqual([]);
  });

  it("shows a message's files with its words, never as a card or an answer", () => {
    const file = (name: string) => ({ type: 'attachment', sha256: name.padEnd(64, '0'), kind: 'pdf', name, bytes: 2048 }) as PartView;
    const parts = [file('a.pdf'), file('b.pdf'), text('What do they say?')];
    expect(groupParts(parts)).toEqual([{ kind: 'text', text: 'What do they say?' }]);
    expect(attachmentsOf(parts).map((f) => f.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(attachmentsOf([text('no files')])).toEqual([]);
  });
});
