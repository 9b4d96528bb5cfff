import { describe, expect, it } from 'vitest';

import { renderMarkdown } from './markdown';
import { WARMUP_MESSAGES } from './warmup';

describe('the warm-up sample', () => {
  it('has every kind of text an answer shows', () => {
    const answer = WARMUP_MESSAGES.find((m) => m.role === 'assistant');
    const text = answer?.parts.find((p) => p.type === 'text');
    const root = document.createElement('div');
    root.innerHTML = renderMarkdown(text?.type === 'text' ? text.text : '');
    for (const tag of ['h1', 'h2', 'h3', 'p', 'strong', 'em', 'del', 'a', 'ul', 'ol', 'blockquote', 'table', 'th', 'td', 'code', 'pre']) {
      expect(root.querySelector(tag), tag).not.toBeNull();
    }
    // Highlighted code, and code without a language.
    expect(root.querySelector('pre code.language-python .hljs-keyword')).not.toBeNull();
    expect([...root.querySelectorAll('.code-lang')].map((el) => el.textContent)).toEqual(['python', 'text']);
  });

  it('has a question and an answer that thought, with the figures under it', () => {
    expect(WARMUP_MESSAGES.map((m) => m.role)).toEqual(['user', 'assistant']);
    const answer = WARMUP_MESSAGES[1];
    expect(answer?.parts.some((p) => p.type === 'thinking' && !p.hidden && p.text.length > 0)).toBe(true);
    expect(answer?.model && answer.usage.output && answer.cost && answer.notes.length).toBeTruthy();
  });
});
