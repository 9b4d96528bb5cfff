// Folds the events of one run into the assistant message the thread shows while it streams.
// Pure: `foldEvent(run, event, now)` returns a new run and never touches its input, so the
// fold can be replayed in tests and a Svelte state can hold the result as it is.
import type {
  Choice,
  IpcErrorView,
  Meaning,
  MessageView,
  PartView,
  StreamEvent,
  ThinkingPart,
  ThoughtSource,
  Usage,
} from './types';
import { isSummarySource } from './types';
import type * as Ipc from './ipc-generated';

export type RunPhase = 'waiting' | 'thinking' | 'answering' | 'done' | 'error' | 'cancelled';

export interface RunPlan {
  feedback: string;
  warnings: string[];
  meaning: Meaning;
  /** The turn's note line: how the level was read, warnings and notes. */
  notes: string[];
}

export interface RunRetry {
  attempt: number;
  waitMs: number;
  message: string;
  /** When the retry was announced, to count down from. */
  at: number;
}

export interface LiveRun {
  runId: string | null;
  userMessageId: string | null;
  phase: RunPhase;
  /** The assistant message as far as it has arrived; the final one after a terminal event. */
  message: MessageView;
  plan: RunPlan | null;
  notices: string[];
  retry: RunRetry | null;
  startedAt: number;
  /** Start of the thinking block now streaming, if one is. */
  thinkingSince: number | null;
  /** Thinking time of the blocks that have ended. */
  thinkingMs: number;
  error: IpcErrorView | null;
  /** A terminal event arrived; later events are ignored. */
  closed: boolean;
  /** Tool calls waiting for the user's answer, in the order they asked. */
  approvals: ToolApproval[];
  /** Ids of the calls running now. */
  running: string[];
  /** Model steps finished before the one streaming (a tool loop). */
  steps: number;
}

/** A tool call that waits for the user: what the approval card shows. */
export interface ToolApproval {
  callId: string;
  server: string;
  tool: string;
  /** The arguments, pretty-printed JSON. */
  arguments: string;
}

export interface RunOrigin {
  provider: string | null;
  model: string | null;
  choice: Choice | null;
}

export const TERMINAL = new Set<StreamEvent['type']>(['done', 'error', 'cancelled']);

export function newRun(origin: RunOrigin, now: number, id = `pending-${now}`): LiveRun {
  return {
    runId: null,
    userMessageId: null,
    phase: 'waiting',
    message: {
      id,
      role: 'assistant',
      status: 'streaming',
      notes: [],
      parts: [],
      provider: origin.provider,
      model: origin.model,
      choice: origin.choice,
      usage: {},
      thinkingMs: null,
      stop: null,
      error: null,
      createdAt: now,
      versions: [],
      cost: null,
    },
    plan: null,
    notices: [],
    retry: null,
    startedAt: now,
    thinkingSince: null,
    thinkingMs: 0,
    error: null,
    closed: false,
    approvals: [],
    running: [],
    steps: 0,
  };
}

/** The user's message as the thread shows it until the backend has stored it. */
export function localUserMessage(id: string, text: string, files: readonly Ipc.AttachedFile[] = []): MessageView {
  return {
    id,
    role: 'user',
    status: 'complete',
    notes: [],
    parts: [...files.map((f) => ({ type: 'attachment' as const, ...f })), { type: 'text', text }],
    provider: null,
    model: null,
    choice: null,
    usage: {},
    thinkingMs: null,
    stop: null,
    error: null,
    createdAt: Date.now(),
    versions: [],
    cost: null,
  };
}

/** Thinking time so far, counting the block still streaming up to `now`. */
export function thinkingElapsed(run: LiveRun, now: number): number {
  return run.thinkingMs + (run.thinkingSince === null ? 0 : Math.max(0, now - run.thinkingSince));
}

function thinkingPart(source: ThoughtSource | null, redacted = false): ThinkingPart {
  return {
    type: 'thinking',
    text: '',
    source,
    summary: isSummarySource(source),
    redacted,
    hidden: false,
    durationMs: null,
    tokenEstimate: null,
    partial: false,
  };
}

export function mergeUsage(earlier: Usage, later: Usage): Usage {
  const out: Usage = { ...earlier };
  for (const key of ['input', 'output', 'reasoning', 'cached'] as const) {
    const value = later[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

/** Ends the thinking block that is streaming, if any, stamping its duration. */
function endThinking(run: LiveRun, parts: PartView[], now: number): Pick<LiveRun, 'thinkingSince' | 'thinkingMs'> {
  if (run.thinkingSince === null) return { thinkingSince: null, thinkingMs: run.thinkingMs };
  const spent = Math.max(0, now - run.thinkingSince);
  const last = parts.at(-1);
  if (last?.type === 'thinking' && last.durationMs === null) {
    parts[parts.length - 1] = { ...last, durationMs: spent };
  }
  return { thinkingSince: null, thinkingMs: run.thinkingMs + spent };
}

/**
 * The final message from the backend, with what the fold knew filled in where it said
 * nothing. After a tool loop the backend's message is the last step only: the thread keeps
 * every step's parts until it reloads the stored turn.
 */
function settle(run: LiveRun, final: MessageView | null, now: number): MessageView {
  const parts = [...run.message.parts];
  const timing = endThinking(run, parts, now);
  const base = final ? (run.steps > 0 ? { ...final, parts } : final) : { ...run.message, parts };
  return {
    ...base,
    thinkingMs: base.thinkingMs ?? (timing.thinkingMs > 0 ? timing.thinkingMs : null),
    usage: final ? mergeUsage(run.message.usage, final.usage ?? {}) : run.message.usage,
  };
}

export function foldEvent(run: LiveRun, event: StreamEvent, now: number): LiveRun {
  if (run.closed) return run;
  switch (event.type) {
    case 'started':
      return {
        ...run,
        runId: event.runId,
        userMessageId: event.userMessageId,
        message: { ...run.message, id: event.messageId },
      };
    case 'plan':
      return { ...run, plan: { feedback: event.feedback, warnings: event.warnings, meaning: event.meaning, notes: event.notes ?? [] } };
    case 'notice':
      return { ...run, notices: [...run.notices, event.text] };
    case 'retry':
      return { ...run, retry: { attempt: event.attempt, waitMs: event.waitMs, message: event.message, at: now } };
    case 'thinkingStart': {
      const parts = [...run.message.parts];
      const timing = endThinking(run, parts, now);
      parts.push(thinkingPart(event.source));
      return { ...run, ...timing, retry: null, phase: 'thinking', thinkingSince: now, message: { ...run.message, parts } };
    }
    case 'thinkingDelta': {
      const parts = [...run.message.parts];
      let { thinkingSince } = run;
      let last = parts.at(-1);
      // Deltas without a start (some providers send none): open the block here.
      if (last?.type !== 'thinking' || thinkingSince === null) {
        last = thinkingPart(null);
        parts.push(last);
        thinkingSince = now;
      }
      parts[parts.length - 1] = { ...last, text: last.text + event.text };
      return { ...run, retry: null, phase: 'thinking', thinkingSince, message: { ...run.message, parts } };
    }
    case 'thinkingEnd': {
      const parts = [...run.message.parts];
      const timing = endThinking(run, parts, now);
      return { ...run, ...timing, message: { ...run.message, parts } };
    }
    case 'thinkingRedacted': {
      const parts = [...run.message.parts];
      const timing = endThinking(run, parts, now);
      parts.push(thinkingPart('thinking', true));
      return { ...run, ...timing, message: { ...run.message, parts } };
    }
    case 'textDelta': {
      const parts = [...run.message.parts];
      const timing = endThinking(run, parts, now);
      const last = parts.at(-1);
      if (last?.type === 'text') parts[parts.length - 1] = { ...last, text: last.text + event.text };
      else parts.push({ type: 'text', text: event.text });
      return { ...run, ...timing, retry: null, phase: 'answering', message: { ...run.message, parts } };
    }
    case 'toolCall': {
      const parts = [...run.message.parts];
      const timing = endThinking(run, parts, now);
      parts.push({ type: 'toolCall', id: '', name: event.name, arguments: '' });
      return { ...run, ...timing, message: { ...run.message, parts } };
    }
    case 'stepFinished':
      return { ...run, phase: 'waiting' };
    case 'toolStarted': {
      // The call streamed by name only; now it has its id and arguments.
      const parts = [...run.message.parts];
      const at = parts.findIndex((p) => p.type === 'toolCall' && p.id === '' && p.name === event.name);
      const call: PartView = { type: 'toolCall', id: event.callId, name: event.name, arguments: event.arguments };
      if (at >= 0) parts[at] = call;
      else parts.push(call);
      return { ...run, running: [...run.running, event.callId], message: { ...run.message, parts } };
    }
    case 'approvalNeeded':
      return {
        ...run,
        approvals: [...run.approvals, { callId: event.callId, server: event.server, tool: event.tool, arguments: event.arguments }],
      };
    case 'toolFinished': {
      const result = event.result;
      const callId = result.type === 'toolResult' ? result.callId : '';
      return {
        ...run,
        approvals: run.approvals.filter((a) => a.callId !== callId),
        running: run.running.filter((id) => id !== callId),
        message: { ...run.message, parts: [...run.message.parts, result] },
      };
    }
    case 'nextStep':
      return { ...run, steps: run.steps + 1, phase: 'waiting', approvals: [], running: [] };
    case 'usage':
      return { ...run, message: { ...run.message, usage: mergeUsage(run.message.usage, event.usage) } };
    case 'done': {
      const message = settle(run, event.message, now);
      return { ...run, phase: 'done', closed: true, thinkingSince: null, retry: null, message: { ...message, status: message.status === 'streaming' ? 'complete' : message.status } };
    }
    case 'cancelled': {
      const message = settle(run, event.message, now);
      return { ...run, phase: 'cancelled', closed: true, thinkingSince: null, retry: null, message: { ...message, status: 'cancelled' } };
    }
    case 'error': {
      const message = settle(run, event.message, now);
      return {
        ...run,
        phase: 'error',
        closed: true,
        thinkingSince: null,
        retry: null,
        error: event.error,
        message: { ...message, status: 'error', error: event.error },
      };
    }
    default:
      return run;
  }
}

/** Replays a whole sequence; handy in tests and when catching up. */
export function foldAll(run: LiveRun, events: readonly StreamEvent[], clock: (i: number) => number): LiveRun {
  return events.reduce((acc, event, i) => foldEvent(acc, event, clock(i)), run);
}
