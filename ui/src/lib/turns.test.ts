import { describe, expect, it } from 'vitest';

import { MergedTurns, mergeToolTurns } from './turns';
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

describe('MergedTurns', () => {
  const ask = (id: string) => message(id, 'user', [{ type: 'text', text: `Question ${id}` }]);
  const answer = (id: string) => message(id, 'assistant', [{ type: 'text', text: `Answer ${id}` }]);
  const step = (id: string) => message(id, 'assistant', [think(`Step ${id}`), call]);
  const results = (id: string) => message(id, 'tool', [result]);

  it('joins what changed at the end again, keeps the rest as the same objects, and joins as the whole would', () => {
    const merged = new MergedTurns();
    const thread = [ask('u1'), step('s1'), results('t1'), answer('a1'), ask('u2'), answer('a2')];
    const first = merged.of(thread);
    expect(first).toEqual(mergeToolTurns(thread));
    expect(first.map((m) => m.id)).toEqual(['u1', 's1', 'u2', 'a2']);
    // The same messages: the same list.
    expect(merged.of(thread)).toBe(first);

    // A question sent: the turns above are the same objects, the joined loop among them.
    const asked = [...thread, ask('u3')];
    const second = merged.of(asked);
    expect(second).toEqual(mergeToolTurns(asked));
    expect(second.slice(0, 4).every((m, i) => m === first[i])).toBe(true);

    // Its answer is a tool loop, stored step by step: joined to its own first step.
    const looped = [...asked, step('s3'), results('t3'), step('s4')];
    const third = merged.of(looped);
    expect(third).toEqual(mergeToolTurns(looped));
    expect(third.map((m) => m.id)).toEqual(['u1', 's1', 'u2', 'a2', 'u3', 's3']);
    const more = [...looped, results('t4'), answer('a4')];
    const fourth = merged.of(more);
    expect(fourth).toEqual(mergeToolTurns(more));
    expect(fourth.at(-1)?.parts.map((p) => p.type)).toEqual(['thinking', 'toolCall', 'toolResult', 'thinking', 'toolCall', 'toolResult', 'text']);
    expect(fourth[1]).toBe(first[1]);

    // The last step stored again (a reload): the loop it ends is joined again from its start.
    const reloaded = [...more.slice(0, -1), { ...answer('a4'), parts: [{ type: 'text' as const, text: 'Reloaded' }] }];
    expect(merged.of(reloaded)).toEqual(mergeToolTurns(reloaded));

    // Results with nothing before them, at the top of the rest joined above: dropped, as whole.
    const joined = [results('t0'), ask('u0'), answer('a0'), ...reloaded];
    expect(merged.of(joined)).toEqual(mergeToolTurns(joined));

    // Versions switched: another path from a message on.
    const other = [...joined.slice(0, 5), ask('u9'), answer('a9')];
    expect(merged.of(other)).toEqual(mergeToolTurns(other));
    expect(merged.of([])).toEqual([]);
  });
});
