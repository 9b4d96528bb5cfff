import { describe, expect, it } from 'vitest';

import { applySetting, complete, messageFromText, mistypedLevel, parseChoice, parseCommand, parseModelChoice } from './commands';
import { defaultReasoningSettings, type ModelView } from './types';

const levels = [
  { choice: 'default' as const, label: 'default — the provider decides (off)', available: true },
  { choice: 'off' as const, label: 'off — no thinking', available: true },
  { choice: 'low' as const, label: 'low — 22,016 tokens', available: true },
  { choice: 'medium' as const, label: 'medium — 43,008 tokens', available: true },
  { choice: 'max' as const, label: 'max — same as high', available: false },
];
const models = [
  { id: 'claude-sonnet-4-5', providerName: 'Anthropic', levels },
  { id: 'o3', providerName: 'OpenAI', levels: [{ choice: 'high' as const, label: 'high — high effort', available: true }] },
  { id: 'anthropic/claude-sonnet-4.5', providerName: 'OpenRouter', levels },
] as unknown as ModelView[];
const ctx = { models, profiles: ['deep', 'quick'] };

describe('choices', () => {
  it('accepts the spellings the engine accepts', () => {
    expect(parseChoice('med')).toEqual({ ok: true, value: 'medium' });
    expect(parseChoice('NONE')).toEqual({ ok: true, value: 'off' });
    expect(parseChoice('xhigh')).toEqual({ ok: true, value: 'max' });
    expect(parseChoice('12,000')).toEqual({ ok: true, value: 12000 });
    expect(parseChoice('0').ok).toBe(false);
    expect(parseChoice('loud')).toMatchObject({ ok: false, error: expect.stringContaining('unknown thinking choice') });
  });

  it('splits MODEL/CHOICE at the last slash, keeping routed ids whole', () => {
    expect(parseModelChoice('claude-sonnet-4-5/med')).toEqual({ ok: true, value: { model: 'claude-sonnet-4-5', choice: 'medium' } });
    expect(parseModelChoice('anthropic/claude-sonnet-4.5/high')).toEqual({
      ok: true,
      value: { model: 'anthropic/claude-sonnet-4.5', choice: 'high' },
    });
    expect(parseModelChoice('openai/o3')).toEqual({ ok: true, value: { model: 'openai/o3', choice: null } });
    expect(parseModelChoice('o3')).toEqual({ ok: true, value: { model: 'o3', choice: null } });
    expect(parseModelChoice('/med').ok).toBe(false);
    expect(parseModelChoice('o3/0').ok).toBe(false);
    expect(parseModelChoice('openai/o3/loud').ok).toBe(false);
  });
});

describe('parseCommand', () => {
  it('leaves plain messages alone, and // sends a leading slash', () => {
    expect(parseCommand('hello')).toBeNull();
    expect(parseCommand('//etc/hosts')).toBeNull();
    expect(messageFromText('//etc/hosts is a file')).toBe('/etc/hosts is a file');
  });

  it('parses /model with and without a level', () => {
    expect(parseCommand('/model claude-sonnet-4-5/high')).toEqual({ kind: 'model', model: 'claude-sonnet-4-5', choice: 'high' });
    expect(parseCommand('/model o3')).toEqual({ kind: 'model', model: 'o3', choice: null });
    expect(parseCommand('/model')).toEqual({ kind: 'model', model: null, choice: null });
    expect(parseCommand('/model o3/loud/x')).toMatchObject({ kind: 'invalid' });
  });

  it('parses /set with or without the reasoning. prefix and rejects unknown keys', () => {
    expect(parseCommand('/set reasoning.includeInContext true')).toEqual({ kind: 'set', key: 'includeInContext', value: 'true' });
    // The older spelling of the answer cap still works.
    expect(parseCommand('/set maxTokens 8000')).toEqual({ kind: 'set', key: 'maxOutputTokens', value: '8000' });
    expect(parseCommand('/set reasoning.maxOutputTokens 8000')).toEqual({ kind: 'set', key: 'maxOutputTokens', value: '8000' });
    expect(parseCommand('/set reasoning.level high')).toEqual({ kind: 'set', key: 'effort', value: 'high' });
    expect(parseCommand('/set reasoning.colour blue')).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('enabled, includeInContext, includeInResponse, format, stripFromContext, maxOutputTokens, longContextCut, effort'),
    });
  });

  it('parses /profile actions', () => {
    expect(parseCommand('/profile save deep')).toEqual({ kind: 'profile', action: 'save', name: 'deep' });
    expect(parseCommand('/profile load deep')).toEqual({ kind: 'profile', action: 'load', name: 'deep' });
    expect(parseCommand('/profile')).toEqual({ kind: 'profile', action: 'list', name: null });
    expect(parseCommand('/profile load')).toMatchObject({ kind: 'invalid' });
    expect(parseCommand('/profile frob x')).toMatchObject({ kind: 'invalid' });
  });

  it('names unknown commands so the help line can follow', () => {
    expect(parseCommand('/frobnicate now')).toEqual({ kind: 'unknown', name: 'frobnicate' });
    expect(parseCommand('/help')).toEqual({ kind: 'help' });
  });
});

describe('applySetting', () => {
  it('applies every /set command', () => {
    let s = defaultReasoningSettings();
    for (const [key, value] of [
      ['includeInContext', 'true'],
      ['includeInResponse', 'false'],
      ['effort', 'minimal'],
      ['maxOutputTokens', '8000'],
      ['longContextCut', 'off'],
      ['format', 'native'],
      ['stripFromContext', 'all'],
      ['enabled', 'false'],
    ] as const) {
      const result = applySetting(s, key, value);
      if (!result.ok) throw new Error(result.error);
      s = result.value;
    }
    expect(s).toEqual({
      enabled: false,
      includeInContext: true,
      includeInResponse: false,
      format: 'native',
      stripFromContext: 'all',
      maxOutputTokens: 8000,
      longContextCut: false,
      choice: 'minimal',
    });
  });

  it('says what a value must be, as the engine does', () => {
    const s = defaultReasoningSettings();
    expect(applySetting(s, 'stripFromContext', 'some')).toEqual({
      ok: false,
      error: 'reasoning.stripFromContext cannot be "some": all, allButLast or none',
    });
    expect(applySetting(s, 'maxOutputTokens', '0').ok).toBe(false);
    expect(applySetting({ ...s, maxOutputTokens: 5 }, 'maxOutputTokens', 'unset')).toMatchObject({ ok: true, value: { maxOutputTokens: null } });
    expect(applySetting(s, 'enabled', 'maybe').ok).toBe(false);
  });
});

describe('completion', () => {
  it('completes command names', () => {
    expect(complete('/', ctx).map((c) => c.label)).toEqual(['/model', '/set', '/profile', '/tools', '/help']);
    expect(complete('/mo', ctx).map((c) => c.text)).toEqual(['/model ']);
    expect(complete('hello', ctx)).toEqual([]);
    expect(parseCommand('/tools')).toEqual({ kind: 'tools' });
  });

  it('completes model names, prefix matches first', () => {
    expect(complete('/model son', ctx).map((c) => c.label)).toEqual(['claude-sonnet-4-5', 'anthropic/claude-sonnet-4.5']);
    expect(complete('/model o', ctx)[0]?.label).toBe('o3');
  });

  it('offers only the available levels of the model, with their labels', () => {
    const items = complete('/model claude-sonnet-4-5/', ctx);
    expect(items.map((c) => c.label)).toEqual([
      'claude-sonnet-4-5/default',
      'claude-sonnet-4-5/off',
      'claude-sonnet-4-5/low',
      'claude-sonnet-4-5/medium',
    ]);
    expect(items[3]?.detail).toBe('medium — 43,008 tokens');
    expect(complete('/model claude-sonnet-4-5/me', ctx).map((c) => c.text)).toEqual(['/model claude-sonnet-4-5/medium']);
    expect(complete('/model anthropic/claude-sonnet-4.5/lo', ctx).map((c) => c.text)).toEqual([
      '/model anthropic/claude-sonnet-4.5/low',
    ]);
  });

  it('offers the levels as soon as a model is typed in full', () => {
    const labels = complete('/model o3', ctx).map((c) => c.label);
    expect(labels).toContain('o3/high');
  });

  it('completes /set keys and values, and /profile names', () => {
    expect(complete('/set reasoning.str', ctx).map((c) => c.text)).toEqual(['/set reasoning.stripFromContext ']);
    expect(complete('/set reasoning.stripFromContext a', ctx).map((c) => c.label)).toEqual(['all', 'allButLast']);
    expect(complete('/profile l', ctx).map((c) => c.text)).toEqual(['/profile load ', '/profile list']);
    expect(complete('/profile load d', ctx).map((c) => c.text)).toEqual(['/profile load deep']);
  });
});

describe('a known model with an unknown level', () => {
  const known = (id: string) => ['claude-sonnet-4-5', 'o3'].includes(id);

  it('is an error naming the level, while slashed ids of unknown heads stay ids', () => {
    expect(mistypedLevel('claude-sonnet-4-5/ultra', known)).toMatch(/unknown thinking choice "ultra"/);
    expect(mistypedLevel('claude-sonnet-4-5/-5', known)).toMatch(/unknown thinking choice "-5"/);
    expect(mistypedLevel('o3/ultra', known)).toMatch(/ultra/);
    expect(mistypedLevel('anthropic/claude-sonnet-4.5', known)).toBeNull();
    expect(mistypedLevel('claude-sonnet-4-5', known)).toBeNull();
  });

  it('says a budget past the largest is too large, not that it must be above zero', () => {
    const parsed = parseChoice('99999999999');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toMatch(/too large/);
      expect(parsed.error).toMatch(/4,294,967,295/);
      expect(parsed.error).not.toMatch(/above zero/);
    }
    expect(parseChoice('4294967295')).toEqual({ ok: true, value: 4294967295 });
    expect(parseChoice('0').ok).toBe(false);
  });
});
