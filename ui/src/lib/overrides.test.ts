import { describe, expect, it } from 'vitest';

import { rowMapping, scalar, toOverrides, toRows } from './overrides';
import type { ReasoningOverrides } from './types';

// The example configuration of the overrides format: a budget array for Anthropic, effort
// names for OpenAI, one value for a whole provider, null to disable.
const SEED: ReasoningOverrides = {
  providers: {
    openai: { reasoning: ['minimal', 'low', 'medium', 'high'] },
    anthropic: {
      reasoning: [1024, 8000, 16000, 32000],
      reasoningAutoStreamLevel: 'medium',
      models: { 'claude-3-opus-20250514': { reasoning: null } },
    },
    google: { models: { 'gemini-2.5-pro': { reasoning: [1024, 4096, 8192, 16384] } } },
  },
};

describe('reasoning overrides as rows', () => {
  it("reads the example configuration and writes it back unchanged", () => {
    const rows = toRows(SEED);
    expect(rows.map((r) => [r.provider, r.model, r.kind])).toEqual([
      ['openai', '', 'four'],
      ['anthropic', '', 'four'],
      ['anthropic', 'claude-3-opus-20250514', 'off'],
      ['google', '', 'builtin'],
      ['google', 'gemini-2.5-pro', 'four'],
    ]);
    expect(rows[1]?.autoStream).toBe('medium');
    expect(toOverrides(rows)).toEqual({ ok: true, value: SEED });
  });

  it('reads digits as budgets and words as names, and says what is missing', () => {
    expect(scalar(' 8000 ')).toBe(8000);
    expect(scalar('high')).toBe('high');
    expect(scalar('')).toBeNull();
    const [row] = toRows({ providers: { anthropic: { reasoning: 'high' } } });
    expect(row && rowMapping(row)).toEqual({ ok: true, value: 'high' });
    const broken = toRows(SEED);
    broken[0] = { ...broken[0]!, four: ['minimal', '', 'medium', 'high'] };
    expect(toOverrides(broken)).toEqual({ ok: false, error: 'Give a value for low.', index: 0 });
  });

  it('keeps streaming per provider and per model, and a model row on the built-in rule', () => {
    const saved: ReasoningOverrides = {
      providers: {
        openai: { stream: false, reasoningAutoStreamLevel: 'high', models: { o3: { stream: true }, 'gpt-5': {} } },
      },
    };
    const rows = toRows(saved);
    expect(rows.map((r) => [r.model, r.kind, r.stream])).toEqual([
      ['', 'builtin', 'off'],
      ['o3', 'builtin', 'on'],
      ['gpt-5', 'builtin', ''],
    ]);
    expect(toOverrides(rows)).toEqual({ ok: true, value: saved });
  });
});
