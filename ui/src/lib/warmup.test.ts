import { describe, expect, it } from 'vitest';

import { renderMarkdown } from './markdown';
import { WARMUP_STEPS } from './warmup';

const messages = WARMUP_STEPS.flat();

describe('the warm-up sample', () => {
  it('has every kind of text an answer shows', () => {
    const root = document.createElement('div');
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      for (const part of message.parts) if (part.type === 'text') root.innerHTML += renderMarkdown(part.text);
    }
    for (const tag of ['h1', 'h2', 'h3', 'p', 'strong', 'em', 'del', 'a', 'ul', 'ol', 'blockquote', 'table', 'th', 'td', 'code', 'pre']) {
      expect(root.querySelector(tag), tag).not.toBeNull();
    }
    // Highlighted code, and code without a language.
    expect(root.querySelector('pre code.language-python .hljs-keyword')).not.toBeNull();
    expect([...root.querySelectorAll('.code-lang')].map((el) => el.textContent)).toEqual(['python', 'text']);
  });

  it('has a question and an answer that thought, with the figures under it', () => {
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
    const thought = messages.find((m) => m.parts.some((p) => p.type === 'thinking' && !p.hidden && p.text.length > 0));
    expect(thought?.model && thought.usage.output && thought.cost && thought.notes.length).toBeTruthy();
  });

  it('gives each message an id of its own', () => {
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
  });
});
