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
  return new MergedTurns().of(messages);
}

/**
 * `mergeToolTurns` of a conversation's messages as they change: what is the same as before,
 * from the top, is kept (the same objects), and only the rest is joined again. A thread's
 * messages change at their end (a question sent, its answer stored), and each change of a
 * long thread joined again whole cost milliseconds, and new objects for every joined turn.
 */
export class MergedTurns {
  private input: readonly MessageView[] = [];
  private output: MessageView[] = [];
  /** Where each entry of `output` starts in `input`. */
  private starts: number[] = [];

  of(messages: readonly MessageView[]): MessageView[] {
    if (messages === this.input) return this.output;
    const before = this.input;
    const common = Math.min(before.length, messages.length);
    let same = 0;
    while (same < common && messages[same] === before[same]) same++;
    // The entries whose messages, and the message after them (which could have joined them),
    // are all among the same ones are kept; the joining starts again from the next.
    let kept = 0;
    while (kept + 1 < this.starts.length && (this.starts[kept + 1] ?? Infinity) < same) kept++;
    const out = this.output.slice(0, kept);
    const starts = this.starts.slice(0, kept);
    for (let i = kept === 0 ? 0 : (this.starts[kept] ?? 0); i < messages.length; i++) {
      const message = messages[i];
      if (!message) continue;
      const last = out.at(-1);
      const continues = last?.role === 'assistant' && (message.role === 'tool' || (message.role === 'assistant' && endsInResults(last)));
      if (!continues) {
        // Results with no step before them have nothing to attach to; they show nothing new.
        if (message.role !== 'tool') {
          out.push(message);
          starts.push(i);
        }
        continue;
      }
      out[out.length - 1] = joined(last, message);
    }
    this.input = messages;
    this.output = out;
    this.starts = starts;
    return out;
  }
}

/** One step of a tool loop (or its results) joined to the turn so far. */
function joined(last: MessageView, message: MessageView): MessageView {
  return {
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

function endsInResults(message: MessageView): boolean {
  return message.parts.at(-1)?.type === 'toolResult';
}
