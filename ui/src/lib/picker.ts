// The two-step model picker's logic, without any DOM: step one lists models grouped by
// provider (typed text filters), step two the levels the chosen model supports. The
// component feeds keys in and acts on what comes out.
import type { Choice, LevelOption, ModelView, ProviderView } from './types';

/** A row of step one: a model, or "use this id" for an id the user typed. */
export type PickerModel = ModelView & { typed?: boolean };

export interface ProviderGroup {
  /** The provider's id, or `typed` for the group of typed ids. */
  provider: string;
  providerName: string;
  needsKey: boolean;
  models: PickerModel[];
}

export const TYPED_GROUP = 'typed';

export interface PickerState {
  step: 'model' | 'level';
  query: string;
  /** The highlighted row in the current step's list. */
  index: number;
  /** The model whose levels step two shows. */
  model: ModelView | null;
  /** "For the next message only". */
  once: boolean;
  /** What the number typed at step two means for the model, as the engine read it: null when
   * a budget means nothing for it, undefined while the engine has not said. */
  budget?: LevelOption | null;
}

/** The token budget a step-two query types (`12000`, `12,000`, `12k`), or null. */
export function typedTokens(query: string): number | null {
  const text = query.trim().toLowerCase().replace(/[,_\s]/g, '');
  const match = /^(\d+)(k?)$/.exec(text);
  if (!match) return null;
  const tokens = Number(match[1]) * (match[2] ? 1000 : 1);
  return Number.isSafeInteger(tokens) && tokens > 0 && tokens <= 4_294_967_295 ? tokens : null;
}

export type PickerAction =
  | { type: 'none' }
  | { type: 'close' }
  | { type: 'choose'; model: ModelView; choice: Choice; once: boolean }
  | { type: 'addKey'; provider: string }
  | { type: 'addModel'; provider: string; id: string; once: boolean };

export interface PickerCurrent {
  provider: string | null;
  model: string | null;
  choice: Choice | null;
}

function words(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * What typing a model id the lists do not have offers: "use it" with each enabled provider,
 * so a new or local model is one Enter away. Only for something that looks like one id.
 */
export function typedModels(query: string, providers: readonly ProviderView[], models: readonly ModelView[]): PickerModel[] {
  const id = query.trim();
  if (id.length < 2 || id.length > 200 || /\s/.test(id)) return [];
  return providers
    .filter((p) => p.enabled)
    .filter((p) => !models.some((m) => m.provider === p.id && m.id.toLowerCase() === id.toLowerCase()))
    .map((p) => ({
      provider: p.id,
      providerName: p.name,
      id,
      name: `Use “${id}” with ${p.name}`,
      contextWindow: 0,
      maxOutput: 0,
      thinking: 'none',
      canDisable: true,
      apiChoice: false,
      shows: 'none',
      needsKey: p.needsKey && !p.hasKey,
      known: false,
      rule: 'none',
      source: 'added',
      released: null,
      listedPrice: null,
      levels: [],
      typed: true,
    }));
}

/** Models whose provider, id or name contain every typed word, grouped by provider in order;
 * typed ids come last, in a group of their own. */
export function groupModels(models: readonly PickerModel[], query: string): ProviderGroup[] {
  const wanted = words(query);
  const groups: ProviderGroup[] = [];
  let typed: ProviderGroup | null = null;
  for (const model of models) {
    if (model.typed) {
      typed ??= { provider: TYPED_GROUP, providerName: 'Another model id', needsKey: false, models: [] };
      typed.models.push(model);
      continue;
    }
    const hay = `${model.providerName} ${model.provider} ${model.id} ${model.name}`.toLowerCase();
    if (!wanted.every((w) => hay.includes(w))) continue;
    let group = groups.find((g) => g.provider === model.provider);
    if (!group) {
      group = { provider: model.provider, providerName: model.providerName, needsKey: model.needsKey, models: [] };
      groups.push(group);
    }
    group.models.push(model);
  }
  return typed ? [...groups, typed] : groups;
}

/** The rows of step one in display order, for the keyboard. */
export function modelRows(models: readonly PickerModel[], query: string): PickerModel[] {
  return groupModels(models, query).flatMap((g) => g.models);
}

/** Step two's rows: every level the engine listed whose label matches what is typed. */
export function levelRows(model: ModelView, query: string, budget: LevelOption | null = null): LevelOption[] {
  // A number is a budget: the one row is what the engine makes of it (once it has said).
  if (typedTokens(query) !== null) return budget ? [budget] : [];
  const typed = query.trim().toLowerCase();
  // `hi` means high, even though "the provider decides (high)" also says it.
  const byName = model.levels.filter((l) => typed && String(l.choice).startsWith(typed));
  if (byName.length > 0) return byName;
  const wanted = words(query);
  return model.levels.filter((l) => wanted.every((w) => l.label.toLowerCase().includes(w)));
}

function selectable(state: PickerState, models: readonly ModelView[]): boolean[] {
  if (state.step === 'model') return modelRows(models, state.query).map(() => true);
  return state.model ? levelRows(state.model, state.query, state.budget ?? null).map((l) => l.available) : [];
}

/** The next selectable row from `from` in `delta`'s direction, wrapping; -1 when there is none. */
export function step(enabled: readonly boolean[], from: number, delta: 1 | -1): number {
  const n = enabled.length;
  if (n === 0) return -1;
  for (let i = 1; i <= n; i++) {
    const at = (((from + delta * i) % n) + n) % n;
    if (enabled[at]) return at;
  }
  return -1;
}

function firstSelectable(enabled: readonly boolean[]): number {
  return enabled.indexOf(true);
}

export function openPicker(models: readonly ModelView[], current: PickerCurrent): PickerState {
  const rows = modelRows(models, '');
  const at = rows.findIndex((m) => m.id === current.model && m.provider === current.provider);
  return { step: 'model', query: '', index: Math.max(0, at), model: null, once: false };
}

/** Opens straight on step two for `model` (e.g. "lower the level" from an error card). */
export function openLevels(model: ModelView, current: PickerCurrent): PickerState {
  return enterLevels({ step: 'model', query: '', index: 0, model: null, once: false }, model, current);
}

function enterLevels(state: PickerState, model: ModelView, current: PickerCurrent | null): PickerState {
  const levels = levelRows(model, '');
  const same = current && current.model === model.id && current.provider === model.provider;
  let index = same ? levels.findIndex((l) => l.available && l.choice === current.choice) : -1;
  if (index < 0) index = firstSelectable(levels.map((l) => l.available));
  return { ...state, step: 'level', query: '', model, index, budget: undefined };
}

/** The engine's reading of the typed budget arrived: it is the one row, highlighted. */
export function setBudget(state: PickerState, query: string, budget: LevelOption | null): PickerState {
  if (state.step !== 'level' || state.query !== query) return state;
  return { ...state, budget, index: budget?.available ? 0 : -1 };
}

export function setQuery(state: PickerState, query: string, models: readonly ModelView[]): PickerState {
  const next = { ...state, query, budget: undefined };
  return { ...next, index: Math.max(0, firstSelectable(selectable(next, models))) };
}

/** Picks the row at `index` (a click, or Enter on the highlighted row). */
export function activate(
  state: PickerState,
  models: readonly ModelView[],
  current: PickerCurrent | null,
  index = state.index,
  once = state.once,
): { state: PickerState; action: PickerAction } {
  if (state.step === 'model') {
    const model = modelRows(models, state.query)[index];
    if (!model) return { state, action: { type: 'none' } };
    if (model.needsKey) return { state, action: { type: 'addKey', provider: model.provider } };
    if (model.typed) return { state, action: { type: 'addModel', provider: model.provider, id: model.id, once } };
    return pickModel(state, model, current, once);
  }
  const model = state.model;
  const level = model ? levelRows(model, state.query, state.budget ?? null)[index] : undefined;
  if (!model || !level || !level.available) return { state, action: { type: 'none' } };
  return { state, action: { type: 'choose', model, choice: level.choice, once } };
}

/** Step one's choice made: straight to the answer when there is nothing to choose, else step two. */
export function pickModel(
  state: PickerState,
  model: ModelView,
  current: PickerCurrent | null,
  once: boolean,
): { state: PickerState; action: PickerAction } {
  // A model without thinking levels skips step two.
  if (model.levels.length === 0) return { state, action: { type: 'choose', model, choice: 'default', once } };
  const available = model.levels.filter((l) => l.available);
  if (available.length === 1 && model.levels.length === 1 && available[0]) {
    return { state, action: { type: 'choose', model, choice: available[0].choice, once } };
  }
  return { state: enterLevels(state, model, current), action: { type: 'none' } };
}

export function back(state: PickerState, models: readonly ModelView[]): PickerState {
  if (state.step !== 'level' || !state.model) return state;
  const rows = modelRows(models, '');
  const at = rows.findIndex((m) => m.id === state.model?.id && m.provider === state.model?.provider);
  return { ...state, step: 'model', query: '', model: null, index: Math.max(0, at) };
}

export interface PickerKey {
  key: string;
  shiftKey?: boolean;
}

/** What a key does. Keys it does not handle come back as `handled: false` (typing goes to the filter). */
export function pickerKey(
  state: PickerState,
  event: PickerKey,
  models: readonly ModelView[],
  current: PickerCurrent | null,
): { state: PickerState; action: PickerAction; handled: boolean } {
  const none: PickerAction = { type: 'none' };
  const enabled = selectable(state, models);
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const at = step(enabled, state.index, event.key === 'ArrowDown' ? 1 : -1);
      return { state: at < 0 ? state : { ...state, index: at }, action: none, handled: true };
    }
    case 'Home':
    case 'End': {
      const at = event.key === 'Home' ? enabled.indexOf(true) : enabled.lastIndexOf(true);
      return { state: at < 0 ? state : { ...state, index: at }, action: none, handled: true };
    }
    case 'PageDown':
    case 'PageUp': {
      let at = state.index;
      for (let i = 0; i < 8; i++) {
        const next = step(enabled, at, event.key === 'PageDown' ? 1 : -1);
        if (next < 0 || (event.key === 'PageDown' ? next < at : next > at)) break;
        at = next;
      }
      return { state: { ...state, index: at }, action: none, handled: true };
    }
    case 'Enter': {
      const result = activate(state, models, current, state.index, state.once || Boolean(event.shiftKey));
      return { ...result, handled: true };
    }
    case 'Escape':
      return { state, action: { type: 'close' }, handled: true };
    case 'Backspace':
    case 'ArrowLeft':
      if (state.step === 'level' && state.query === '') return { state: back(state, models), action: none, handled: true };
      return { state, action: none, handled: false };
    default:
      return { state, action: none, handled: false };
  }
}
