// Reasoning overrides as rows an editor can show, and back. Pure: the Settings
// section edits rows and saves what `toOverrides` makes of them; the backend validates again.
import type { OverrideMapping, OverrideScalar, ProviderOverrides, ReasoningOverrides } from './types';

export type MappingKind = 'builtin' | 'off' | 'one' | 'four';

export interface OverrideRow {
  provider: string;
  /** Empty for the provider-wide row. */
  model: string;
  kind: MappingKind;
  one: string;
  four: [string, string, string, string];
  /** Provider rows only: the lowest level that forces streaming ('' for none). */
  autoStream: string;
  /** Provider rows only: Anthropic caching ('' leaves it as it is: full). */
  caching: '' | 'full' | 'none';
  /** Whether answers stream ('' leaves it to the provider, or on for a provider row). */
  stream: '' | 'on' | 'off';
}

function streamOf(value: boolean | null | undefined): OverrideRow['stream'] {
  return value === undefined || value === null ? '' : value ? 'on' : 'off';
}

export const LEVELS = ['minimal', 'low', 'medium', 'high'] as const;

function text(value: OverrideScalar): string {
  return String(value);
}

/** A typed value: digits are a token budget, anything else an effort or level name. */
export function scalar(raw: string): OverrideScalar | null {
  const value = raw.trim();
  if (value === '') return null;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function row(provider: string, model: string, mapping: OverrideMapping | undefined, has: boolean): OverrideRow {
  const base: OverrideRow = { provider, model, kind: 'builtin', one: '', four: ['', '', '', ''], autoStream: '', caching: '', stream: '' };
  if (!has) return base;
  if (mapping === null || mapping === undefined) return { ...base, kind: 'off' };
  if (Array.isArray(mapping)) return { ...base, kind: 'four', four: mapping.map(text) as OverrideRow['four'] };
  return { ...base, kind: 'one', one: text(mapping) };
}

export function toRows(overrides: ReasoningOverrides | undefined): OverrideRow[] {
  const rows: OverrideRow[] = [];
  for (const [provider, scope] of Object.entries(overrides?.providers ?? {})) {
    if (!scope) continue;
    rows.push({
      ...row(provider, '', scope.reasoning, 'reasoning' in scope),
      autoStream: scope.reasoningAutoStreamLevel ?? '',
      caching: scope.caching ?? '',
      stream: streamOf(scope.stream),
    });
    for (const [model, entry] of Object.entries(scope.models ?? {})) {
      if (!entry) continue;
      rows.push({ ...row(provider, model, entry.reasoning, 'reasoning' in entry), stream: streamOf(entry.stream) });
    }
  }
  return rows;
}

/** The mapping a row sends, `undefined` for the built-in rule, or an error to show. */
export function rowMapping(r: OverrideRow): { ok: true; value: OverrideMapping | undefined } | { ok: false; error: string } {
  switch (r.kind) {
    case 'builtin':
      return { ok: true, value: undefined };
    case 'off':
      return { ok: true, value: null };
    case 'one': {
      const value = scalar(r.one);
      return value === null ? { ok: false, error: 'Give a level name or a token budget.' } : { ok: true, value };
    }
    case 'four': {
      const values = r.four.map(scalar);
      const missing = values.findIndex((v) => v === null);
      if (missing >= 0) return { ok: false, error: `Give a value for ${LEVELS[missing]}.` };
      return { ok: true, value: values as [OverrideScalar, OverrideScalar, OverrideScalar, OverrideScalar] };
    }
  }
}

/** The overrides the rows stand for, or the first row's error. */
export function toOverrides(rows: readonly OverrideRow[]): { ok: true; value: ReasoningOverrides } | { ok: false; error: string; index: number } {
  const providers: Record<string, ProviderOverrides> = {};
  for (const [index, r] of rows.entries()) {
    const mapping = rowMapping(r);
    if (!mapping.ok) return { ok: false, error: mapping.error, index };
    const scope = (providers[r.provider] ??= {});
    const stream = r.stream === '' ? {} : { stream: r.stream === 'on' };
    if (r.model.trim()) {
      const models = (scope.models ??= {});
      models[r.model.trim()] = mapping.value === undefined ? { ...stream } : { reasoning: mapping.value, ...stream };
    } else {
      if (mapping.value !== undefined) scope.reasoning = mapping.value;
      if (r.autoStream) scope.reasoningAutoStreamLevel = r.autoStream as (typeof LEVELS)[number];
      if (r.caching) scope.caching = r.caching;
      Object.assign(scope, stream);
    }
  }
  return { ok: true, value: { providers } };
}
