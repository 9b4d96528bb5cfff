// The composer's slash commands: parsing, applying `/set`, and completion. Pure: no state,
// no IPC; the chat state decides what a parsed command does. The spellings mirror
// ponder-core's `Choice::from_str`, `parse_model_choice` and `ReasoningSettings::set`.
import type { Choice, ModelView, ReasoningSettings } from './types';

export const VALID_SPELLINGS =
  'default, off (or none), minimal, low, medium (or med), high, max (or xhigh), or a token budget like 12000';

export const SETTING_KEYS = [
  'enabled',
  'includeInContext',
  'includeInResponse',
  'format',
  'stripFromContext',
  'maxOutputTokens',
  'longContextCut',
  'effort',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const HELP =
  'Commands: /model NAME/LEVEL (e.g. /model claude-sonnet-4-5/medium) · /set reasoning.KEY VALUE · /profile save|load|delete NAME · /tools · /help. Start with // to send a message that begins with a slash.';

export type Command =
  | { kind: 'model'; model: string | null; choice: Choice | null }
  | { kind: 'set'; key: SettingKey | null; value: string | null }
  | { kind: 'profile'; action: 'save' | 'load' | 'delete' | 'list'; name: string | null }
  | { kind: 'help' }
  | { kind: 'tools' }
  | { kind: 'unknown'; name: string }
  | { kind: 'invalid'; message: string };

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseChoice(input: string): Parsed<Choice> {
  const text = input.trim().toLowerCase();
  switch (text) {
    case 'default':
      return { ok: true, value: 'default' };
    case 'off':
    case 'none':
      return { ok: true, value: 'off' };
    case 'minimal':
      return { ok: true, value: 'minimal' };
    case 'low':
      return { ok: true, value: 'low' };
    case 'medium':
    case 'med':
      return { ok: true, value: 'medium' };
    case 'high':
      return { ok: true, value: 'high' };
    case 'max':
    case 'xhigh':
      return { ok: true, value: 'max' };
  }
  if (/^[\d_,]+$/.test(text)) {
    const digits = text.replace(/[_,]/g, '').replace(/^0+/, '');
    if (digits === '') {
      return { ok: false, error: `a thinking budget must be a whole number of tokens above zero, not "${input}"` };
    }
    const n = Number(digits);
    if (!Number.isSafeInteger(n) || n > 4_294_967_295) {
      return {
        ok: false,
        error: `a thinking budget of ${digits} tokens is too large; the largest Ponder takes is 4,294,967,295 (and each model caps it lower)`,
      };
    }
    return { ok: true, value: n };
  }
  return { ok: false, error: `unknown thinking choice "${input}"; use ${VALID_SPELLINGS}` };
}

/**
 * `MODEL/CHOICE` or a bare `MODEL`. The choice is what follows the last slash, so routed ids
 * with slashes of their own work; a last segment that is not a choice is part of the id.
 */
export function parseModelChoice(input: string): Parsed<{ model: string; choice: Choice | null }> {
  const text = input.trim();
  const slash = text.lastIndexOf('/');
  if (slash >= 0) {
    const model = text.slice(0, slash);
    const last = text.slice(slash + 1);
    if (model === '') return { ok: false, error: `"${text}" names no model; use MODEL or MODEL/CHOICE, e.g. claude-sonnet-4-5/med` };
    const choice = parseChoice(last);
    if (choice.ok) return { ok: true, value: { model, choice: choice.value } };
    if (/^[\d_,]+$/.test(last.trim())) return choice;
    // `vendor/model/bogus`: two slashes mean the last part was meant as a choice.
    if (model.includes('/')) return { ok: false, error: `unknown thinking choice "${last}"; use ${VALID_SPELLINGS}` };
  }
  return { ok: true, value: { model: text, choice: null } };
}

/**
 * For a `/model` target that names no model: when what comes before its last slash is a
 * model we know, the last part was meant as a level (`claude-sonnet-4-5/ultra`), and this is
 * the error to show; null otherwise. Mirrors ponder-core's `Catalog::parse_target`.
 */
export function mistypedLevel(target: string, isModel: (id: string) => boolean): string | null {
  const slash = target.lastIndexOf('/');
  if (slash <= 0 || !isModel(target.slice(0, slash))) return null;
  const choice = parseChoice(target.slice(slash + 1));
  return choice.ok ? null : choice.error;
}

/** Parses composer text; null when it is a message, not a command (`//x` sends `/x`). */
export function parseCommand(text: string): Command | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/') || trimmed.startsWith('//')) return null;
  const [head = '', ...rest] = trimmed.slice(1).split(/\s+/);
  const name = head.toLowerCase();
  const args = rest.filter(Boolean);
  switch (name) {
    case 'model':
    case 'm': {
      if (args.length === 0) return { kind: 'model', model: null, choice: null };
      const parsed = parseModelChoice(args.join(' '));
      if (!parsed.ok) return { kind: 'invalid', message: parsed.error };
      return { kind: 'model', ...parsed.value };
    }
    case 'set': {
      if (args.length === 0) return { kind: 'set', key: null, value: null };
      const rawKey = args[0] ?? '';
      const key = rawKey.startsWith('reasoning.') ? rawKey.slice('reasoning.'.length) : rawKey;
      // `maxTokens` is the older name of the answer cap; `choice` and `level` are the effort.
      const known = (SETTING_KEYS as readonly string[]).includes(key) || ['choice', 'level', 'maxTokens'].includes(key);
      if (!known) {
        return { kind: 'invalid', message: `unknown reasoning setting "${key}"; settings are ${SETTING_KEYS.join(', ')}` };
      }
      const normal = (key === 'choice' || key === 'level' ? 'effort' : key === 'maxTokens' ? 'maxOutputTokens' : key) as SettingKey;
      if (args.length < 2) return { kind: 'set', key: normal, value: null };
      return { kind: 'set', key: normal, value: args.slice(1).join(' ') };
    }
    case 'profile':
    case 'profiles': {
      const action = (args[0] ?? 'list').toLowerCase();
      if (action !== 'save' && action !== 'load' && action !== 'delete' && action !== 'list') {
        return { kind: 'invalid', message: `/profile takes save, load, delete or list, not "${args[0]}"` };
      }
      const name = args.slice(1).join(' ') || null;
      if (action !== 'list' && !name) return { kind: 'invalid', message: `/profile ${action} needs a NAME` };
      return { kind: 'profile', action, name };
    }
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'tools':
      return { kind: 'tools' };
    default:
      return { kind: 'unknown', name: head };
  }
}

/** The message to send for text that is not a command: `//x` loses one slash. */
export function messageFromText(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('//') ? trimmed.slice(1) : trimmed;
}

function flag(value: string): boolean | null {
  switch (value.toLowerCase()) {
    case 'true':
    case 'on':
    case 'yes':
      return true;
    case 'false':
    case 'off':
    case 'no':
      return false;
    default:
      return null;
  }
}

/** Applies `/set reasoning.KEY VALUE`; returns new settings or the reason it cannot. */
export function applySetting(settings: ReasoningSettings, key: SettingKey, value: string): Parsed<ReasoningSettings> {
  const bad = (expected: string): Parsed<ReasoningSettings> => ({
    ok: false,
    error: `reasoning.${key} cannot be "${value}": ${expected}`,
  });
  const next = { ...settings };
  switch (key) {
    case 'enabled':
    case 'includeInContext':
    case 'includeInResponse':
    case 'longContextCut': {
      const on = flag(value);
      if (on === null) return bad('true or false');
      next[key] = on;
      break;
    }
    case 'format':
      if (value !== 'native' && value !== 'field') return bad('native or field');
      next.format = value;
      break;
    case 'stripFromContext':
      if (value !== 'all' && value !== 'allButLast' && value !== 'none') return bad('all, allButLast or none');
      next.stripFromContext = value;
      break;
    case 'maxOutputTokens':
      if (value === 'unset' || value === 'none' || value === 'default') next.maxOutputTokens = null;
      else if (/^\d+$/.test(value) && Number(value) > 0 && Number(value) <= 4_294_967_295) next.maxOutputTokens = Number(value);
      else return bad('a number of tokens above zero, or unset');
      break;
    case 'effort': {
      const choice = parseChoice(value);
      if (!choice.ok) return bad('default, off, minimal, low, medium, high, max or a budget');
      next.choice = choice.value;
      break;
    }
  }
  return { ok: true, value: next };
}

/** How a setting reads back to the user: `reasoning.maxOutputTokens = 8000`. */
export function describeSetting(settings: ReasoningSettings, key: SettingKey): string {
  const value = key === 'effort' ? settings.choice : settings[key];
  return `reasoning.${key} = ${value === null || value === undefined ? 'unset' : String(value)}`;
}

// ---- completion ----

export interface Completion {
  /** The whole composer text after accepting this item. */
  text: string;
  label: string;
  detail?: string;
}

export interface CompletionContext {
  models: readonly Pick<ModelView, 'id' | 'providerName' | 'levels'>[];
  profiles: readonly string[];
}

const COMMANDS: Completion[] = [
  { text: '/model ', label: '/model', detail: 'NAME/LEVEL — switch model and thinking level' },
  { text: '/set reasoning.', label: '/set', detail: 'reasoning.KEY VALUE — change a reasoning setting' },
  { text: '/profile ', label: '/profile', detail: 'save|load|delete NAME — named reasoning settings' },
  { text: '/tools', label: '/tools', detail: 'the tools this conversation offers the model' },
  { text: '/help', label: '/help', detail: 'list the commands' },
];

const SETTING_VALUES: Record<SettingKey, string[]> = {
  enabled: ['true', 'false'],
  includeInContext: ['true', 'false'],
  includeInResponse: ['true', 'false'],
  format: ['native', 'field'],
  stripFromContext: ['all', 'allButLast', 'none'],
  maxOutputTokens: ['unset'],
  longContextCut: ['true', 'false'],
  effort: ['default', 'off', 'minimal', 'low', 'medium', 'high', 'max'],
};

const SETTING_HINTS: Record<SettingKey, string> = {
  enabled: 'ask the model to think',
  includeInContext: 'send earlier thoughts back',
  includeInResponse: 'show thoughts here',
  format: 'native blocks or the reasoning_content field',
  stripFromContext: 'which earlier thoughts to drop',
  maxOutputTokens: 'cap on each answer, thinking included',
  longContextCut: 'smaller budgets past 150,000 tokens',
  effort: 'the thinking level',
};

function matches(candidate: string, typed: string): boolean {
  return candidate.toLowerCase().startsWith(typed.toLowerCase());
}

function modelCompletions(arg: string, ctx: CompletionContext): Completion[] {
  const lower = arg.toLowerCase();
  // The longest model id followed by a slash: the rest is the level being typed.
  const owner = [...ctx.models]
    .filter((m) => lower.startsWith(`${m.id.toLowerCase()}/`))
    .sort((a, b) => b.id.length - a.id.length)[0];
  if (owner) {
    const typed = arg.slice(owner.id.length + 1);
    return owner.levels
      .filter((l) => l.available && matches(String(l.choice), typed))
      .map((l) => ({ text: `/model ${owner.id}/${l.choice}`, label: `${owner.id}/${l.choice}`, detail: l.label }));
  }
  const seen = new Set<string>();
  const byId = ctx.models.filter((m) => {
    if (seen.has(m.id) || !m.id.toLowerCase().includes(lower)) return false;
    seen.add(m.id);
    return true;
  });
  byId.sort((a, b) => Number(!matches(a.id, arg)) - Number(!matches(b.id, arg)));
  const items: Completion[] = byId.map((m) => ({ text: `/model ${m.id}`, label: m.id, detail: m.providerName }));
  // A model typed in full also offers its levels straight away.
  const exact = ctx.models.find((m) => m.id.toLowerCase() === lower);
  if (exact) {
    for (const l of exact.levels.filter((level) => level.available)) {
      items.push({ text: `/model ${exact.id}/${l.choice}`, label: `${exact.id}/${l.choice}`, detail: l.label });
    }
  }
  return items;
}

/** Completions for what is typed so far (the caret at the end); empty when none apply. */
export function complete(text: string, ctx: CompletionContext): Completion[] {
  if (!text.startsWith('/') || text.startsWith('//') || text.includes('\n')) return [];
  const space = text.indexOf(' ');
  if (space < 0) return COMMANDS.filter((c) => matches(c.label, text) && c.text.trim() !== text);
  const name = text.slice(1, space).toLowerCase();
  const arg = text.slice(space + 1);
  if (name === 'model' || name === 'm') return modelCompletions(arg.trimStart(), ctx).filter((c) => c.text !== text);
  if (name === 'set') {
    const parts = arg.split(' ');
    if (parts.length === 1) {
      const typed = (parts[0] ?? '').replace(/^reasoning\./, '');
      return SETTING_KEYS.filter((k) => matches(k, typed) && `reasoning.${k}` !== parts[0]).map((k) => ({
        text: `/set reasoning.${k} `,
        label: `reasoning.${k}`,
        detail: SETTING_HINTS[k],
      }));
    }
    const key = (parts[0] ?? '').replace(/^reasoning\./, '') as SettingKey;
    const typed = parts.slice(1).join(' ');
    return (SETTING_VALUES[key] ?? [])
      .filter((v) => matches(v, typed) && v !== typed)
      .map((v) => ({ text: `/set reasoning.${key} ${v}`, label: v }));
  }
  if (name === 'profile') {
    const parts = arg.split(' ');
    if (parts.length === 1) {
      return ['save', 'load', 'delete', 'list']
        .filter((a) => matches(a, parts[0] ?? '') && a !== parts[0])
        .map((a) => ({ text: `/profile ${a}${a === 'list' ? '' : ' '}`, label: a }));
    }
    const action = parts[0];
    if (action !== 'load' && action !== 'delete' && action !== 'save') return [];
    const typed = parts.slice(1).join(' ');
    return ctx.profiles
      .filter((p) => matches(p, typed) && p !== typed)
      .map((p) => ({ text: `/profile ${action} ${p}`, label: p }));
  }
  return [];
}

const SETTING_SENTENCES: Record<string, (s: ReasoningSettings) => string> = {
  enabled: (s) => (s.enabled ? 'The model is asked to think.' : 'No reasoning parameters are sent; thoughts a model returns anyway are still kept.'),
  includeInContext: (s) =>
    s.includeInContext ? 'Earlier thoughts are sent back with the next request.' : 'Earlier thoughts stay out of the next request.',
  includeInResponse: (s) => (s.includeInResponse ? 'Thoughts are shown in this conversation.' : 'Thoughts are hidden here; they are still stored.'),
  format: (s) => (s.format === 'native' ? "Thoughts go back as the provider's own blocks." : 'Thoughts go back in the reasoning_content field.'),
  stripFromContext: (s) =>
    ({ all: 'Every earlier thought is dropped first.', allButLast: "Only the last answer's thoughts are kept.", none: 'No earlier thought is dropped.' })[
      s.stripFromContext
    ],
  maxOutputTokens: (s) =>
    s.maxOutputTokens
      ? 'Each answer, thinking included, holds at most that many tokens; a thinking budget is cut to leave room for the answer.'
      : "Each answer may be as long as the level and the model's limit allow.",
  longContextCut: (s) =>
    s.longContextCut
      ? 'Past 150,000 tokens of conversation, thinking budgets are cut to 10,000.'
      : 'Budgets stay as the level sets them however long the conversation.',
  effort: () => 'The thinking level for this conversation.',
};

/** What a setting's new value does, in a sentence, for the note after `/set`. */
export function settingSentence(key: string, settings: ReasoningSettings): string {
  return SETTING_SENTENCES[key]?.(settings) ?? '';
}
