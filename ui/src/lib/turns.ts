// A tool loop is stored as several messages — the step that called tools, a `tool` message
// with their results, the next step — and shown as one answer, in the order it happened.
// Pure, so the thread shows a stored loop exactly as it showed it while it streamed.
import type { MessageView, Usage } from './types';

function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = { ...a };
  for (const key of ['input', 'output', 'reasoning', 'cached'] as const) {
    const value = b[key];
    if (typeof value === 'number') out[key] = (out[key] ?? 0) + value;
  }
  return out;
}

/** The messages with every run of tool-loop steps (and their results) joined into one. */
export function mergeToolTurns(messages: readonly MessageView[]): MessageView[] {
  const out: MessageView[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    const continues = last?.role === 'assistant' && (message.role === 'tool' || (message.role === 'assistant' && endsInResults(last)));
    if (!continues) {
      // Results with no step before them have nothing to attach to; they show nothing new.
      if (message.role !== 'tool') out.push(message);
      continue;
    }
    out[out.length - 1] = {
      ...last,
      parts: [...last.parts, ...message.parts],
      // The turn ends as its last step did.
      status: message.role === 'assistant' ? message.status : last.status,
      stop: message.role === 'assistant' ? message.stop : last.stop,
      error: message.role === 'assistant' ? message.error : last.error,
      usage: message.role === 'assistant' ? addUsage(last.usage ?? {}, message.usage ?? {}) : last.usage,
      thinkingMs:
        message.role === 'assistant' && (last.thinkingMs !== null || message.thinkingMs !== null)
          ? (last.thinkingMs ?? 0) + (message.thinkingMs ?? 0)
          : last.thinkingMs,
      notes: [...last.notes, ...message.notes.filter((n) => !last.notes.includes(n))],
    };
  }
  return out;
}

function endsInResults(message: MessageView): boolean {
  return message.parts.at(-1)?.type === 'toolResult';
}
