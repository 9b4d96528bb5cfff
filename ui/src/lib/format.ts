// Small formatters shared by the thread, the picker and the panels.
import type { Choice, MessageView, ThinkingPart, Usage } from './types';

// Numbers group as the engine's English labels do ("medium — 43,008 tokens"), so a figure
// reads the same in a label and beside it.
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `43008` → `43,008`, the way the engine's labels spell numbers. */
export function thousands(n: number): string {
  return WHOLE.format(Math.round(n));
}

/** US dollars: `$0.0123` below a cent, `$1.25` above; `—` when unknown. */
export function dollars(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return `$${n < 0.01 ? n.toFixed(4) : n.toFixed(2)}`;
}

/** Whole seconds for the thinking timer: `0 s`, `14 s`, `2 min 5 s`. */
export function seconds(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Byte counts for the purge report: `812 bytes`, `48 KB`, `1.2 MB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function choiceLabel(choice: Choice | null | undefined): string {
  if (choice === null || choice === undefined) return 'default';
  return typeof choice === 'number' ? `${thousands(choice)} tokens` : choice;
}

/** About four characters a token: the stated estimate while a thought streams. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The token count behind a message's thoughts, and whether it is only an estimate. */
export function thoughtTokens(parts: readonly ThinkingPart[], usage: Usage | null | undefined): { tokens: number; exact: boolean } | null {
  if (usage?.reasoning) return { tokens: usage.reasoning, exact: true };
  let tokens = 0;
  for (const part of parts) tokens += part.tokenEstimate ?? estimateTokens(part.text);
  return tokens > 0 ? { tokens, exact: false } : null;
}

export function tokenPhrase(count: { tokens: number; exact: boolean } | null): string {
  if (!count) return '';
  return `${count.exact ? '' : '~'}${thousands(count.tokens)} tokens`;
}

/** The visible text of a message: its text parts, joined. */
export function messageText(message: Pick<MessageView, 'parts'>): string {
  return message.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
}

const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
const DAY_MONTH = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** A relative date for the sidebar: `now`, `5 min`, `3 h`, `Mon`, `12 Mar`. */
export function when(ms: number, now = Date.now()): string {
  const diff = Math.max(0, now - ms);
  if (diff < 60_000) return 'now';
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)} min`;
  if (diff < 86_400_000) return `${Math.floor(diff / 3_600_000)} h`;
  // Dates in the user's own locale ("12 Mar", "Mar 12").
  if (diff < 6 * 86_400_000) return WEEKDAY.format(ms);
  return DAY_MONTH.format(ms);
}

/** Splits a search snippet (`…the [prime] numbers…`) into plain and matched runs. */
export function snippetRuns(snippet: string): { text: string; match: boolean }[] {
  const runs: { text: string; match: boolean }[] = [];
  const re = /\[([^\]]*)\]/g;
  let last = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > last) runs.push({ text: snippet.slice(last, m.index), match: false });
    runs.push({ text: m[1] ?? '', match: true });
    last = m.index + m[0].length;
  }
  if (last < snippet.length) runs.push({ text: snippet.slice(last), match: false });
  return runs;
}

/** What a level meant when an answer was asked, from the line stored with it
 * ("Thinking: high (64,000 tokens)" → "high — 64,000 tokens"); null when none was stored. */
export function storedMeaning(notes: readonly string[]): string | null {
  const said = notes.find((n) => n.startsWith('Thinking: '))?.slice('Thinking: '.length).trim();
  if (!said) return null;
  const parts = said.match(/^(\S+) \((.+)\)$/);
  return parts ? `${parts[1]} — ${parts[2]}` : said;
}

/** What an import did, in one line: the new conversations, and of an export imported before,
 * those that had new messages and those already here whole. */
export function importSummary(report: { conversations: number; messages: number; updated: number; unchanged: number }): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lines: string[] = [];
  if (report.conversations > 0 || (report.updated === 0 && report.unchanged === 0)) {
    lines.push(`Imported ${plural(report.conversations, 'conversation', 'conversations')}`);
  }
  if (report.updated > 0) lines.push(`${plural(report.updated, 'conversation', 'conversations')} already here had new messages`);
  if (report.unchanged > 0) lines.push(`${plural(report.unchanged, 'conversation', 'conversations')} already here unchanged`);
  return `${lines.join('; ')} (${plural(report.messages, 'message', 'messages')} added)`;
}
