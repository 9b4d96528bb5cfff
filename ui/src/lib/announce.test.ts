import { describe, expect, it } from 'vitest';

import { announcement } from './announce';
import { foldEvent, newRun } from './stream';
import type { StreamEvent } from './types';

const origin = { provider: 'anthropic', model: 'claude-sonnet-4-5', choice: 'medium' as const };
const started: StreamEvent = { type: 'started', runId: 'r1', userMessageId: 'u1', messageId: 'a1' };
const think = (text: string): StreamEvent => ({ type: 'thinkingDelta', text, at: 0 });
const say = (text: string): StreamEvent => ({ type: 'textDelta', text, at: 0 });
/** The stored answer a run ends with; what it holds does not change what is said. */
const stored = { ...newRun(origin, 0).message, id: 'a1', status: 'complete' as const };
const done: StreamEvent = { type: 'done', message: stored };
const cancelled: StreamEvent = { type: 'cancelled', message: { ...stored, status: 'cancelled' } };

/** Everything said over a run of events, one event per 1.5 s, as "polite: …" or "assertive: …". */
function heard(events: StreamEvent[]): string[] {
  let run = newRun(origin, 0);
  const out: string[] = [];
  events.forEach((event, i) => {
    const next = foldEvent(run, event, (i + 1) * 1500);
    const said = announcement(run, next, event);
    if (said) out.push(`${said.assertive ? 'assertive' : 'polite'}: ${said.text}`);
    run = next;
  });
  return out;
}

describe('what a screen reader hears of an answer', () => {
  const cases: [string, StreamEvent[], string[]][] = [
    [
      'thinking, many deltas, then an answer of many tokens',
      [started, { type: 'thinkingStart', source: 'thinking' }, think('a'), think('b'), think('c'), { type: 'thinkingEnd' }, say('x'), say('y'), say('z'), done],
      ['polite: Thinking', 'polite: Thought for 6 seconds; answering', 'polite: Answer done'],
    ],
    [
      'thoughts without a start event, straight into text',
      [started, think('a'), think('b'), say('x'), done],
      ['polite: Thinking', 'polite: Thought for 3 seconds; answering', 'polite: Answer done'],
    ],
    ['an answer without thoughts', [started, say('x'), say('y'), done], ['polite: Answering', 'polite: Answer done']],
    ['stopped by the user', [started, think('a'), cancelled], ['polite: Thinking', 'polite: Answer stopped']],
    [
      'an error, said at once and once',
      [started, say('Half an ans'), { type: 'error', error: { code: 'overloaded', message: 'Anthropic is overloaded (529)' }, message: null }, say('late')],
      ['polite: Answering', 'assertive: The answer failed: Anthropic is overloaded (529)'],
    ],
    [
      'a tool loop: the later steps say nothing until the end',
      [
        started,
        think('a'),
        { type: 'toolCall', name: 'echo' },
        { type: 'approvalNeeded', callId: 'c1', server: 'everything', tool: 'echo', arguments: '{}' },
        { type: 'stepFinished', messageId: 'a1' },
        { type: 'nextStep', toolMessageId: 't1', messageId: 'a2' },
        think('b'),
        say('x'),
        done,
      ],
      ['polite: Thinking', 'polite: The tool echo of everything asks to run: allow or deny it', 'polite: Answer done'],
    ],
  ];
  for (const [name, events, expected] of cases) {
    it(name, () => expect(heard(events)).toEqual(expected));
  }
});
