// What a screen reader hears about an answer while it streams: a few words when it starts,
// when its thinking ends and when it ends, never a word per token. Pure: the run before and
// after one event in, the sentence (if any) out.
import type { LiveRun } from './stream';
import type { StreamEvent } from './types';

export interface Announcement {
  text: string;
  /** Errors interrupt; everything else waits for the reader to finish what it says. */
  assertive: boolean;
}

function thoughtAlready(run: LiveRun): boolean {
  return run.message.parts.some((p) => p.type === 'thinking');
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s === 1 ? '1 second' : `${s} seconds`;
}

export function announcement(before: LiveRun, after: LiveRun, event: StreamEvent): Announcement | null {
  const polite = (text: string): Announcement => ({ text, assertive: false });
  switch (event.type) {
    case 'approvalNeeded':
      return polite(`The tool ${event.tool} of ${event.server} asks to run: allow or deny it`);
    case 'done':
      return polite('Answer done');
    case 'cancelled':
      return polite('Answer stopped');
    case 'error':
      return { text: `The answer failed: ${event.error.message}`, assertive: true };
  }
  if (before.phase === after.phase) return null;
  // Only the first step of a tool loop is announced: the steps after it are the same answer.
  if (after.steps > 0) return null;
  if (after.phase === 'thinking' && !thoughtAlready(before)) return polite('Thinking');
  if (after.phase === 'answering' && before.phase === 'thinking') {
    return polite(after.thinkingMs > 0 ? `Thought for ${seconds(after.thinkingMs)}; answering` : 'Thinking done; answering');
  }
  if (after.phase === 'answering' && !thoughtAlready(before) && before.message.parts.every((p) => p.type !== 'text')) {
    return polite('Answering');
  }
  return null;
}
