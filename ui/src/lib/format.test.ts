import { describe, expect, it } from 'vitest';

import { importSummary, storedMeaning } from './format';

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

describe('importSummary', () => {
  it('says what was new, what grew and what was already here', () => {
    expect(importSummary({ conversations: 2, messages: 8, updated: 0, unchanged: 0 })).toBe('Imported 2 conversations (8 messages added)');
    expect(importSummary({ conversations: 0, messages: 0, updated: 0, unchanged: 3 })).toBe('3 conversations already here unchanged (0 messages added)');
    expect(importSummary({ conversations: 1, messages: 7, updated: 1, unchanged: 2 })).toBe(
      'Imported 1 conversation; 1 conversation already here had new messages; 2 conversations already here unchanged (7 messages added)',
    );
    expect(importSummary({ conversations: 0, messages: 0, updated: 0, unchanged: 0 })).toBe('Imported 0 conversations (0 messages added)');
  });
});
