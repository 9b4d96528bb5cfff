import { describe, expect, it } from 'vitest';

import { foldAll, foldEvent, newRun, thinkingElapsed } from './stream';
import type { MessageView, StreamEvent } from './types';

const origin = { provider: 'anthropic', model: 'claude-sonnet-4-5', choice: 'medium' as const };

function final(over: Partial<MessageView> = {}): MessageView {
  return {
    id: 'a1',
    role: 'assistant',
    status: 'complete',
    notes: [],
    parts: [
      {
        type: 'thinking',
        text: 'Let me think. Done.',
        source: 'thinking',
        summary: false,
        redacted: false,
        hidden: false,
        durationMs: 1400,
        tokenEstimate: 6,
        partial: false,
      },
      { type: 'text', text: 'The answer is 42.' },
    ],
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    choice: 'medium',
    usage: { input: 12, output: 40, reasoning: 20 },
    thinkingMs: 1400,
    stop: { kind: 'end' },
    error: null,
    createdAt: 1000,
    versions: [],
    cost: null,
    ...over,
  };
}

const started: StreamEvent = { type: 'started', runId: 'r1', userMessageId: 'u1', messageId: 'a1' };

describe('the stream fold', () => {
  it('builds thoughts, then the answer, then settles on the final message', () => {
    let run = newRun(origin, 1000);
    run = foldEvent(run, started, 1000);
    expect(run.runId).toBe('r1');
    expect(run.userMessageId).toBe('u1');
    expect(run.message.id).toBe('a1');
    expect(run.phase).toBe('waiting');

    run = foldEvent(run, { type: 'plan', feedback: '✓ Switched', warnings: [], meaning: { kind: 'budget', tokens: 43008 }, notes: ['Thinking: medium (43,008 tokens)'] }, 1001);
    expect(run.plan?.meaning.tokens).toBe(43008);

    run = foldEvent(run, { type: 'thinkingStart', source: 'thinking' }, 1100);
    expect(run.phase).toBe('thinking');
    run = foldEvent(run, { type: 'thinkingDelta', text: 'Let me ', at: 0 }, 1200);
    run = foldEvent(run, { type: 'thinkingDelta', text: 'think.', at: 0 }, 1300);
    expect(run.message.parts).toHaveLength(1);
    expect(run.message.parts[0]).toMatchObject({ type: 'thinking', text: 'Let me think.', summary: false });
    expect(thinkingElapsed(run, 2100)).toBe(1000);

    run = foldEvent(run, { type: 'thinkingEnd' }, 2500);
    expect(run.thinkingSince).toBeNull();
    expect(run.thinkingMs).toBe(1400);
    expect(run.message.parts[0]).toMatchObject({ durationMs: 1400 });

    run = foldEvent(run, { type: 'textDelta', text: 'The answer ', at: 0 }, 2600);
    expect(run.phase).toBe('answering');
    run = foldEvent(run, { type: 'textDelta', text: 'is 42.', at: 0 }, 2700);
    expect(run.message.parts[1]).toEqual({ type: 'text', text: 'The answer is 42.' });

    run = foldEvent(run, { type: 'usage', usage: { input: 12 } }, 2750);
    run = foldEvent(run, { type: 'usage', usage: { output: 40, reasoning: 20 } }, 2760);
    expect(run.message.usage).toEqual({ input: 12, output: 40, reasoning: 20 });

    run = foldEvent(run, { type: 'done', message: final() }, 2800);
    expect(run.closed).toBe(true);
    expect(run.phase).toBe('done');
    expect(run.message.status).toBe('complete');
    expect(run.message.thinkingMs).toBe(1400);
  });

  it('never mutates the run it is given', () => {
    const run = foldEvent(newRun(origin, 0), { type: 'thinkingStart', source: 'reasoning_content' }, 0);
    const snapshot = JSON.stringify(run);
    foldEvent(run, { type: 'thinkingDelta', text: 'x', at: 0 }, 5);
    foldEvent(run, { type: 'textDelta', text: 'y', at: 0 }, 6);
    expect(JSON.stringify(run)).toBe(snapshot);
  });

  it('synthesizes a thinking start for deltas that come without one, and ends it on text', () => {
    const run = foldAll(
      newRun(origin, 0),
      [
        { type: 'thinkingDelta', text: 'hmm', at: 0 },
        { type: 'thinkingDelta', text: '…', at: 0 },
        { type: 'textDelta', text: 'Hi', at: 0 },
      ],
      (i) => [100, 200, 900][i] ?? 0,
    );
    expect(run.message.parts).toEqual([
      expect.objectContaining({ type: 'thinking', text: 'hmm…', source: null, durationMs: 800 }),
      { type: 'text', text: 'Hi' },
    ]);
    expect(run.thinkingMs).toBe(800);
  });

  it('labels summaries and records redacted thinking without text', () => {
    const run = foldAll(
      newRun(origin, 0),
      [{ type: 'thinkingStart', source: 'summary' }, { type: 'thinkingDelta', text: '**Plan**', at: 0 }, { type: 'thinkingEnd' }, { type: 'thinkingRedacted' }],
      (i) => i * 10,
    );
    expect(run.message.parts[0]).toMatchObject({ summary: true, redacted: false, text: '**Plan**' });
    expect(run.message.parts[1]).toMatchObject({ type: 'thinking', redacted: true, text: '' });
  });

  it('keeps the partial text when an error ends the run without a message', () => {
    const run = foldAll(
      newRun(origin, 0),
      [
        started,
        { type: 'thinkingStart', source: 'thinking' },
        { type: 'thinkingDelta', text: 'Considering', at: 0 },
        { type: 'textDelta', text: 'Half an ans', at: 0 },
        { type: 'error', error: { code: 'overloaded', message: 'Anthropic is overloaded (529)' }, message: null },
      ],
      (i) => i * 100,
    );
    expect(run.closed).toBe(true);
    expect(run.phase).toBe('error');
    expect(run.error?.code).toBe('overloaded');
    expect(run.message.status).toBe('error');
    expect(run.message.error?.message).toContain('529');
    expect(run.message.parts.at(-1)).toEqual({ type: 'text', text: 'Half an ans' });
  });

  it('takes the stored message an error carries, with the error on it', () => {
    const stored = final({ status: 'error', parts: [{ type: 'text', text: 'partial' }] });
    const run = foldAll(
      newRun(origin, 0),
      [started, { type: 'error', error: { code: 'network', message: 'connection reset' }, message: stored }],
      () => 5,
    );
    expect(run.message.parts).toEqual([{ type: 'text', text: 'partial' }]);
    expect(run.message.error).toEqual({ code: 'network', message: 'connection reset' });
  });

  it('settles a cancelled run, closes any open thought, and ignores what comes after', () => {
    let run = foldAll(
      newRun(origin, 0),
      [started, { type: 'thinkingStart', source: 'thinking' }, { type: 'thinkingDelta', text: 'Step 1', at: 0 }],
      (i) => i * 100,
    );
    run = foldEvent(run, { type: 'cancelled', message: final({ status: 'cancelled', thinkingMs: null, parts: [] }) }, 700);
    expect(run.phase).toBe('cancelled');
    expect(run.message.status).toBe('cancelled');
    expect(run.message.thinkingMs).toBe(600);
    const after = foldEvent(run, { type: 'textDelta', text: 'late', at: 0 }, 800);
    expect(after).toBe(run);
  });

  it('notes retries and notices, and clears the retry once output flows again', () => {
    let run = foldAll(
      newRun(origin, 0),
      [
        { type: 'notice', text: 'Thinking blocks are sent back with their signatures.' },
        { type: 'retry', attempt: 2, waitMs: 2000, message: 'rate limited' },
      ],
      () => 50,
    );
    expect(run.notices).toHaveLength(1);
    expect(run.retry).toMatchObject({ attempt: 2, waitMs: 2000, at: 50 });
    run = foldEvent(run, { type: 'textDelta', text: 'ok', at: 0 }, 60);
    expect(run.retry).toBeNull();
  });

  it('puts tool calls in order among the parts', () => {
    const run = foldAll(
      newRun(origin, 0),
      [{ type: 'thinkingStart', source: 'thinking' }, { type: 'thinkingDelta', text: 'a', at: 0 }, { type: 'toolCall', name: 'search' }, { type: 'textDelta', text: 'b', at: 0 }],
      (i) => i,
    );
    expect(run.message.parts.map((p) => p.type)).toEqual(['thinking', 'toolCall', 'text']);
  });
});

describe('a tool loop', () => {
  it('folds every step, the approval card and each result into one answer, in order', () => {
    const result = {
      type: 'toolResult' as const,
      callId: 'c1',
      name: 'echo',
      content: [{ type: 'text' as const, text: 'Echo: hi' }],
      isError: false,
      durationMs: 9,
    };
    const events: StreamEvent[] = [
      started,
      { type: 'thinkingStart', source: 'thinking' },
      { type: 'thinkingDelta', text: 'I will call echo.', at: 0 },
      { type: 'thinkingEnd' },
      { type: 'toolCall', name: 'echo' },
      { type: 'stepFinished', messageId: 'a1' },
      { type: 'toolStarted', callId: 'c1', name: 'echo', server: 'everything', arguments: '{"message":"hi"}' },
      { type: 'approvalNeeded', callId: 'c1', server: 'everything', tool: 'echo', arguments: '{\n  "message": "hi"\n}' },
    ];
    const waiting = foldAll(newRun(origin, 0), events, (i) => i * 10);
    expect(waiting.approvals).toEqual([{ callId: 'c1', server: 'everything', tool: 'echo', arguments: '{\n  "message": "hi"\n}' }]);
    expect(waiting.running).toEqual(['c1']);
    expect(waiting.message.parts.at(-1)).toEqual({ type: 'toolCall', id: 'c1', name: 'echo', arguments: '{"message":"hi"}' });

    const done = foldAll(
      waiting,
      [
        { type: 'toolFinished', result },
        { type: 'nextStep', toolMessageId: 't1', messageId: 'a2' },
        { type: 'textDelta', text: 'It said hi.', at: 0 },
        { type: 'done', message: final({ id: 'a2', parts: [{ type: 'text', text: 'It said hi.' }] }) },
      ],
      (i) => 100 + i * 10,
    );
    expect(done.approvals).toEqual([]);
    expect(done.running).toEqual([]);
    expect(done.steps).toBe(1);
    expect(done.message.parts.map((p) => p.type)).toEqual(['thinking', 'toolCall', 'toolResult', 'text']);
    expect(done.message.status).toBe('complete');
  });
});
