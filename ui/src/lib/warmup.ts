// A question and an answer that use every kind of text a thread shows: the thread draws them
// once, hidden, while a new window idles (see Thread). The first layout of each font the
// thread uses (every size, weight, style and the code font) costs the web view a few
// milliseconds; a thread's first rows use a dozen of them, which made the first conversation
// opened in a window ~50 ms slower to show than the next.
import type { MessageView } from './types';

const BASE = {
  status: 'complete',
  provider: null,
  choice: null,
  usage: {},
  thinkingMs: null,
  stop: null,
  error: null,
  notes: [],
  createdAt: 0,
  versions: [],
  cost: null,
} satisfies Partial<MessageView>;

const PROSE = [
  '# A heading',
  '## A smaller heading',
  '### The smallest heading',
  'A paragraph with **bold**, *italic*, ***both***, `inline code`, ~~struck~~ and [a link](https://example.com).',
  '- a list item\n- another\n  1. a numbered one',
  '> A quotation.',
  '| a table | head |\n|---|---|\n| a | cell |',
].join('\n\n');

const CODE = ['```python\ndef check(n):\n    return n % 2 == 0  # a comment\n```', '```\nplain code\n```'].join('\n\n');

const answer = (id: string, text: string): MessageView => ({
  ...BASE,
  id,
  role: 'assistant',
  model: 'a model',
  parts: [{ type: 'text', text }],
});

/**
 * What is drawn, a step a frame (each step's layout is a few dozen milliseconds on a cold
 * web view: in one piece it would hold the window for over a hundred). Their ids never reach
 * the backend.
 */
export const WARMUP_STEPS: readonly (readonly MessageView[])[] = [
  [
    { ...BASE, id: 'warmup-question', role: 'user', model: null, parts: [{ type: 'text', text: 'A question?' }] },
    {
      ...BASE,
      id: 'warmup-answer',
      role: 'assistant',
      model: 'a model',
      choice: 'high',
      usage: { input: 1200, output: 3400, reasoning: 2100 },
      thinkingMs: 14_000,
      cost: 0.0123,
      notes: ['A note on how the turn was sent', '⚠ a warning'],
      parts: [
        {
          type: 'thinking',
          text: 'A first line of thought.\nA second **line**, with `code`.',
          source: null,
          summary: true,
          redacted: false,
          hidden: false,
          durationMs: 14_000,
          tokenEstimate: 2100,
          partial: false,
        },
        { type: 'text', text: 'A short answer.' },
      ],
    },
  ],
  [answer('warmup-prose', PROSE)],
  [answer('warmup-code', CODE)],
];
