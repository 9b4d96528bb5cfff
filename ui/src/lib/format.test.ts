import { describe, expect, it } from 'vitest';

import { storedMeaning } from './format';

describe('storedMeaning', () => {
  it.each([
    [['Thinking: high (64,000 tokens)'], 'high — 64,000 tokens'],
    [['⚠ a warning', 'Thinking: medium (43,008 tokens, capped to 40,000 to leave room for the answer)'], 'medium — 43,008 tokens, capped to 40,000 to leave room for the answer'],
    [['Thinking: off'], 'off'],
    [['Thinking: 12,000 tokens (12,000 tokens)'], '12,000 tokens (12,000 tokens)'],
    [['History: 3 messages left out'], null],
    [[], null],
  ])('%j → %j', (notes, want) => {
    expect(storedMeaning(notes)).toBe(want);
  });
});
