import { describe, expect, it } from 'vitest';

import {
  activate,
  groupModels,
  levelRows,
  modelRows,
  openLevels,
  openPicker,
  pickerKey,
  pickModel,
  setBudget,
  setQuery,
  step,
  typedModels,
  typedTokens,
} from './picker';
import type { LevelOption, ModelView, ProviderView } from './types';

function model(provider: string, providerName: string, id: string, levels: LevelOption[], needsKey = false): ModelView {
  return {
    provider,
    providerName,
    id,
    name: id,
    contextWindow: 200000,
    maxOutput: 64000,
    thinking: levels.length ? 'budget' : 'none',
    canDisable: true,
    shows: 'full',
    needsKey,
    known: true,
    rule: 'hand',
    apiChoice: false,
    source: 'catalog',
    released: null,
    listedPrice: null,
    levels,
  };
}

const budget: LevelOption[] = [
  { choice: 'default', label: 'default — the provider decides (off)', available: true },
  { choice: 'off', label: 'off — no thinking', available: true },
  { choice: 'minimal', label: 'minimal — 1,024 tokens', available: true },
  { choice: 'low', label: 'low — 22,016 tokens', available: true },
  { choice: 'medium', label: 'medium — 43,008 tokens', available: true },
  { choice: 'high', label: 'high — 64,000 tokens', available: true },
];
const gemini3: LevelOption[] = [
  { choice: 'default', label: 'default — the provider decides (high)', available: true },
  { choice: 'off', label: 'off — not available, minimum is LOW', available: false },
  { choice: 'low', label: 'low — LOW', available: true },
  { choice: 'medium', label: 'medium — same as high', available: false },
  { choice: 'high', label: 'high — HIGH', available: true },
];
const MODELS = [
  model('anthropic', 'Anthropic', 'claude-sonnet-4-5', budget),
  model('google', 'Google', 'gemma-3-27b-it', []),
  model('google', 'Google', 'gemini-3.1-pro-preview', gemini3),
  model('openai', 'OpenAI', 'o3', [{ choice: 'high', label: 'high — high effort', available: true }], true),
  model('deepseek', 'DeepSeek', 'deepseek-reasoner', [{ choice: 'default', label: 'always thinks — nothing to choose', available: true }]),
];
const none = { provider: null, model: null, choice: null };

describe('the picker, step one', () => {
  it('groups models by provider, in order, and filters on every typed word', () => {
    expect(groupModels(MODELS, '').map((g) => [g.providerName, g.models.length])).toEqual([
      ['Anthropic', 1],
      ['Google', 2],
      ['OpenAI', 1],
      ['DeepSeek', 1],
    ]);
    expect(modelRows(MODELS, 'anth sonnet').map((m) => m.id)).toEqual(['claude-sonnet-4-5']);
    expect(modelRows(MODELS, 'GOOGLE').map((m) => m.id)).toEqual(['gemma-3-27b-it', 'gemini-3.1-pro-preview']);
    expect(modelRows(MODELS, 'nothing like it')).toEqual([]);
  });

  it('opens on the current model and moves with the arrows, wrapping', () => {
    let state = openPicker(MODELS, { provider: 'google', model: 'gemini-3.1-pro-preview', choice: 'high' });
    expect(state.index).toBe(2);
    state = pickerKey(state, { key: 'ArrowDown' }, MODELS, none).state;
    state = pickerKey(state, { key: 'ArrowDown' }, MODELS, none).state;
    expect(state.index).toBe(4);
    state = pickerKey(state, { key: 'ArrowDown' }, MODELS, none).state;
    expect(state.index).toBe(0);
    state = pickerKey(state, { key: 'ArrowUp' }, MODELS, none).state;
    expect(state.index).toBe(4);
    expect(pickerKey(state, { key: 'Home' }, MODELS, none).state.index).toBe(0);
  });

  it('typing resets the highlight to the first match', () => {
    const state = setQuery(openPicker(MODELS, none), 'gemini', MODELS);
    expect(state.index).toBe(0);
    expect(modelRows(MODELS, state.query)[state.index]?.id).toBe('gemini-3.1-pro-preview');
  });

  it('Enter on a model with levels goes to step two, on the current level when it is this model', () => {
    let state = setQuery(openPicker(MODELS, none), 'gemini', MODELS);
    const result = pickerKey(state, { key: 'Enter' }, MODELS, { provider: 'google', model: 'gemini-3.1-pro-preview', choice: 'high' });
    expect(result.action).toEqual({ type: 'none' });
    state = result.state;
    expect(state.step).toBe('level');
    expect(state.model?.id).toBe('gemini-3.1-pro-preview');
    expect(state.query).toBe('');
    expect(state.index).toBe(4);
  });

  it('a model without levels, or one that always thinks, skips step two', () => {
    const noLevels = activate(setQuery(openPicker(MODELS, none), 'gemma-3', MODELS), MODELS, none);
    expect(noLevels.action).toMatchObject({ type: 'choose', choice: 'default' });
    const always = activate(setQuery(openPicker(MODELS, none), 'reasoner', MODELS), MODELS, none);
    expect(always.action).toMatchObject({ type: 'choose', choice: 'default' });
    expect(always.state.step).toBe('model');
  });

  it('a model whose provider needs a key asks for the key instead', () => {
    const result = activate(setQuery(openPicker(MODELS, none), 'o3', MODELS), MODELS, none);
    expect(result.action).toEqual({ type: 'addKey', provider: 'openai' });
  });
});

describe('the picker, step two', () => {
  const gemini = MODELS[2] as ModelView;

  it('skips unavailable levels with the arrows', () => {
    let state = openLevels(gemini, none);
    expect(state.index).toBe(0);
    state = pickerKey(state, { key: 'ArrowDown' }, MODELS, none).state;
    expect(state.index).toBe(2);
    state = pickerKey(state, { key: 'ArrowDown' }, MODELS, none).state;
    expect(state.index).toBe(4);
    state = pickerKey(state, { key: 'ArrowUp' }, MODELS, none).state;
    expect(state.index).toBe(2);
  });

  it('Enter chooses the level; Shift+Enter chooses it for the next message only', () => {
    const state = { ...openLevels(gemini, none), index: 4 };
    expect(pickerKey(state, { key: 'Enter' }, MODELS, none).action).toEqual({ type: 'choose', model: gemini, choice: 'high', once: false });
    expect(pickerKey(state, { key: 'Enter', shiftKey: true }, MODELS, none).action).toMatchObject({ once: true });
    expect(activate({ ...state, once: true }, MODELS, none).action).toMatchObject({ once: true });
  });

  it('a disabled level cannot be chosen, even by a click', () => {
    const state = openLevels(gemini, none);
    expect(activate(state, MODELS, none, 1).action).toEqual({ type: 'none' });
  });

  it('filters levels by their label', () => {
    const state = setQuery(openLevels(gemini, none), 'HIGH', MODELS);
    expect(state.index).toBe(0);
    expect(activate(state, MODELS, none).action).toMatchObject({ choice: 'high' });
  });

  it('Backspace on an empty filter goes back to step one on the same model; Esc closes', () => {
    const state = openLevels(gemini, none);
    const back = pickerKey(state, { key: 'Backspace' }, MODELS, none);
    expect(back.state.step).toBe('model');
    expect(back.state.index).toBe(2);
    expect(pickerKey(state, { key: 'Escape' }, MODELS, none).action).toEqual({ type: 'close' });
    expect(pickerKey(state, { key: 'x' }, MODELS, none).handled).toBe(false);
  });
});

describe('step', () => {
  it('returns -1 when nothing is selectable', () => {
    expect(step([], 0, 1)).toBe(-1);
    expect(step([false, false], 0, 1)).toBe(-1);
    expect(step([false, true, false], 1, 1)).toBe(1);
  });
});

describe('an id the lists do not have', () => {
  const provider = (id: string, name: string, enabled = true, needsKey = true, hasKey = true): ProviderView => ({
    id,
    name,
    protocol: 'anthropic',
    enabled,
    baseUrl: '',
    defaultBaseUrl: '',
    needsKey,
    hasKey,
    keyEnv: '',
    custom: false,
  });
  const PROVIDERS = [
    provider('anthropic', 'Anthropic'),
    provider('google', 'Google', false),
    provider('openai', 'OpenAI', true, true, false),
    provider('ollama', 'Ollama', true, false, false),
  ];

  it('is offered with each enabled provider, last, in a group of its own', () => {
    const typed = typedModels('qwen3:8b', PROVIDERS, MODELS);
    expect(typed.map((m) => [m.provider, m.name, m.needsKey])).toEqual([
      ['anthropic', 'Use “qwen3:8b” with Anthropic', false],
      ['openai', 'Use “qwen3:8b” with OpenAI', true],
      ['ollama', 'Use “qwen3:8b” with Ollama', false],
    ]);
    const groups = groupModels([...MODELS, ...typed], 'qwen3:8b');
    expect(groups.map((g) => g.providerName)).toEqual(['Another model id']);
    // Nothing that is not one id, and not where the provider already has it.
    expect(typedModels('two words', PROVIDERS, MODELS)).toEqual([]);
    expect(typedModels('x', PROVIDERS, MODELS)).toEqual([]);
    expect(typedModels('O3', PROVIDERS, MODELS).map((m) => m.provider)).toEqual(['anthropic', 'ollama']);
  });

  it('is added before it is chosen, then goes to step two like any model', () => {
    const all = [...MODELS, ...typedModels('qwen3:8b', PROVIDERS, MODELS)];
    const state = setQuery(openPicker(all, none), 'qwen3:8b', all);
    const rows = modelRows(all, state.query);
    const ollama = rows.findIndex((m) => m.provider === 'ollama');
    expect(activate(state, all, none, ollama).action).toEqual({ type: 'addModel', provider: 'ollama', id: 'qwen3:8b', once: false });
    // What the backend gives back for it.
    const added = { ...model('ollama', 'Ollama', 'qwen3:8b', budget), known: false, source: 'added' as const };
    const next = pickModel(state, added, none, false);
    expect(next.state.step).toBe('level');
    expect(pickModel(state, { ...added, levels: [] }, none, true).action).toEqual({
      type: 'choose',
      model: { ...added, levels: [] },
      choice: 'default',
      once: true,
    });
  });
});

describe('a typed budget at step two', () => {
  it('reads numbers as budgets and shows only what the engine made of one', () => {
    expect(typedTokens('12000')).toBe(12000);
    expect(typedTokens(' 12,000 ')).toBe(12000);
    expect(typedTokens('12k')).toBe(12000);
    expect(typedTokens('high')).toBeNull();
    expect(typedTokens('0')).toBeNull();
    const sonnet = model('anthropic', 'Anthropic', 'claude-sonnet-4-5', budget);
    expect(levelRows(sonnet, '12000')).toEqual([]);
    const option = { choice: 12000, label: '12,000 tokens', available: true };
    expect(levelRows(sonnet, '12000', option)).toEqual([option]);
    let state = setQuery({ step: 'level', query: '', index: 0, model: sonnet, once: false }, '12000', []);
    expect(state.budget).toBeUndefined();
    state = setBudget(state, '12000', option);
    expect(activate(state, [], none).action).toEqual({ type: 'choose', model: sonnet, choice: 12000, once: false });
    // An answer for a query since changed is dropped.
    expect(setBudget(state, '1200', null)).toBe(state);
  });
});
