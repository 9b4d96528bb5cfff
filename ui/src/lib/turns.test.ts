import { describe, expect, it } from 'vitest';

import { mergeToolTurns } from './turns';
import type { MessageView, PartView } from './types';

function message(id: string, role: MessageView['role'], parts: PartView[], extra: Partial<MessageView> = {}): MessageView {
  return {
    id,
    role,
    status: 'complete',
    notes: [],
    parts,
    provider: role === 'assistant' ? 'anthropic' : null,
    model: role === 'assistant' ? 'claude-sonnet-4-5' : null,
    choice: null,
    usage: {},
    thinkingMs: null,
    stop: null,
    error: null,
    createdAt: 0,
    versions: [],
    cost: null,
    ...extra,
  };
}

const think = (text: string): PartView => ({
  type: 'thinking',
  text,
  source: 'thinking',
  summary: false,
  redacted: false,
  hidden: false,
  durationMs: 1000,
  tokenEstimate: null,
  partial: false,
});
const call: PartView = { type: 'toolCall', id: 'c1', name: 'echo', arguments: '{"message":"hi"}' };
const result: PartView = {
  type: 'toolResult',
  callId: 'c1',
  name: 'echo',
  content: [{ type: 'text', text: 'Echo: hi' }],
  isError: false,
  durationMs: 12,
};

describe('mergeToolTurns', () => {
  it('shows a stored loop as one answer, in order, with the turn ending as its last step', () => {
    const merged = mergeToolTurns([
      message('u1', 'user', [{ type: 'text', text: 'Say hi through the tool.' }]),
      message('a1', 'assistant', [think('I will call echo.'), call], { usage: { input: 10, output: 5 }, thinkingMs: 1000, notes: ['Thinking: high'] }),
      message('t1', 'tool', [result]),
      message('a2', 'assistant', [think('It answered.'), { type: 'text', text: 'It said hi.' }], {
        usage: { input: 30, output: 7 },
        thinkingMs: 500,
        notes: ['Thinking: high'],
        stop: { kind: 'end' },
      }),
      message('u2', 'user', [{ type: 'text', text: 'Thanks.' }]),
    ]);
    expect(merged.map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
    const turn = merged[1]!;
    expect(turn.parts.map((p) => p.type)).toEqual(['thinking', 'toolCall', 'toolResult', 'thinking', 'text']);
    expect(turn.usage).toEqual({ input: 40, output: 12 });
    expect(turn.thinkingMs).toBe(1500);
    expect(turn.notes).toEqual(['Thinking: high']);
    expect(turn.stop).toEqual({ kind: 'end' });
  });

  it('leaves answers without tools alone and drops results with no step before them', () => {
    const plain = [
      message('u1', 'user', [{ type: 'text', text: 'Hi' }]),
      message('a1', 'assistant', [{ type: 'text', text: 'Hello' }]),
      message('a2', 'assistant', [{ type: 'text', text: 'Again' }]),
    ];
    expect(mergeToolTurns(plain)).toEqual(plain);
    expect(mergeToolTurns([message('t0', 'tool', [result])])).toEqual([]);
  });
});
