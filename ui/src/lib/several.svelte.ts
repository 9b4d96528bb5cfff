// "Ask at several levels": one question answered by one model at two to four levels at once.
// The first level runs as the conversation's own answer (the thread shows it streaming); the
// others run beside it as other versions of that answer, each started as soon as the backend
// has stored the question. A note under the answer follows them and, once every one has
// ended, offers the compare view. Nothing here is per token: the note changes only when a
// run starts thinking, starts answering or ends.
import { choiceLabel, seconds } from './format';
import { AppError, ipc } from './ipc';
import type { Notes } from './notes.svelte';
import type { NoteAction } from './thread';
import type { Choice, StreamEvent } from './types';

type Phase = 'starting' | 'thinking' | 'answering' | 'done' | 'stopped' | 'failed';

interface Level {
  choice: Choice;
  runId: string | null;
  phase: Phase;
  startedAt: number;
  endedAt: number | null;
  problem: string | null;
  /** Stop was asked for before the backend named the run. */
  stopWanted: boolean;
}

interface Batch {
  noteId: string;
  /** The conversation's own answer, at the first level. */
  answerId: string;
  first: Choice;
  firstEnded: boolean;
  others: Level[];
}

const ENDED: Phase[] = ['done', 'stopped', 'failed'];

/** The part of the session the levels use: the note that follows them, and the thread's end
 * read again once they end, to show the versions they added. */
export interface SeveralHost {
  readonly notes: Pick<Notes, 'add' | 'update'>;
  /** Reads the conversation again, if it is the one on screen. */
  refreshView(key: string, atEnd: boolean): Promise<void>;
}

export class SeveralLevels {
  /** Per conversation; the note on screen is what shows them. */
  private batches = new Map<string, Batch>();
  /** Bumped at each change, so that `running` is read again where it is shown. */
  private changes = $state(0);

  constructor(private readonly session: SeveralHost) {}

  /** Whether other levels are still running for the conversation. */
  running(key: string): boolean {
    void this.changes;
    return this.batches.get(key)?.others.some((l) => !ENDED.includes(l.phase)) ?? false;
  }

  /** The question is stored and its first answer started: the other levels start now. */
  begin(key: string, question: string, answerId: string, provider: string, model: string, first: Choice, rest: Choice[]): void {
    const others = rest.map((choice): Level => ({ choice, runId: null, phase: 'starting', startedAt: Date.now(), endedAt: null, problem: null, stopWanted: false }));
    const note = this.session.notes.add([''], 'info');
    const batch: Batch = { noteId: note.id, answerId, first, firstEnded: false, others };
    this.batches.set(key, batch);
    this.show(key, batch);
    for (const level of others) void this.start(key, batch, level, question, provider, model);
  }

  /** The conversation's own answer ended (the session's run). */
  firstEnded(key: string): void {
    const batch = this.batches.get(key);
    if (!batch) return;
    batch.firstEnded = true;
    void this.settle(key, batch);
  }

  /** Stops the other levels still running (Esc stops them all). */
  stop(key: string): void {
    for (const level of this.batches.get(key)?.others ?? []) {
      if (ENDED.includes(level.phase)) continue;
      if (level.runId) void ipc.cancelRun(level.runId).catch(() => {});
      else level.stopWanted = true;
    }
  }

  private async start(key: string, batch: Batch, level: Level, question: string, provider: string, model: string): Promise<void> {
    try {
      const request = { messageId: question, provider, model, choice: level.choice, shows: 'current' } as const;
      const sent = await ipc.rerun(request, (event) => this.onEvent(key, batch, level, event));
      level.runId = sent.runId;
      if (level.stopWanted && !ENDED.includes(level.phase)) await ipc.cancelRun(sent.runId).catch(() => {});
    } catch (raw) {
      this.end(key, batch, level, 'failed', AppError.from(raw).message);
    }
  }

  private onEvent(key: string, batch: Batch, level: Level, event: StreamEvent): void {
    if (ENDED.includes(level.phase)) return;
    if (event.type === 'thinkingStart' && level.phase === 'starting') this.move(key, batch, level, 'thinking');
    else if (event.type === 'textDelta' && level.phase !== 'answering') this.move(key, batch, level, 'answering');
    else if (event.type === 'done') this.end(key, batch, level, 'done');
    else if (event.type === 'cancelled') this.end(key, batch, level, 'stopped');
    else if (event.type === 'error') this.end(key, batch, level, 'failed', event.error.message);
  }

  private move(key: string, batch: Batch, level: Level, phase: Phase): void {
    level.phase = phase;
    this.show(key, batch);
  }

  private end(key: string, batch: Batch, level: Level, phase: Phase, problem: string | null = null): void {
    level.phase = phase;
    level.endedAt = Date.now();
    level.problem = problem;
    void this.settle(key, batch);
  }

  /** Once every level has ended, the thread reads the versions in and the note offers the
   * compare view (when at least two answers came). */
  private async settle(key: string, batch: Batch): Promise<void> {
    const done = batch.firstEnded && batch.others.every((l) => ENDED.includes(l.phase));
    if (!done) {
      this.show(key, batch);
      return;
    }
    this.batches.delete(key);
    // The versions were added at the thread's end: only that is read again.
    await this.session.refreshView(key, true);
    this.show(key, batch);
  }

  private show(key: string, batch: Batch): void {
    this.changes += 1;
    const all = [batch.first, ...batch.others.map((l) => l.choice)].map(choiceLabel);
    const list = all.length === 2 ? all.join(' and ') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
    const ended = batch.firstEnded && batch.others.every((l) => ENDED.includes(l.phase));
    const answered = 1 + batch.others.filter((l) => l.phase === 'done').length;
    const lines = [
      ended ? `Asked at ${list}: each answer is a version of this one.` : `Asking at ${list} at once…`,
      `${choiceLabel(batch.first)} — the answer shown`,
      ...batch.others.map((l) => `${choiceLabel(l.choice)} — ${this.phaseLine(l)}`),
    ];
    const actions: NoteAction[] = ended && answered >= 2 ? [{ kind: 'compare', messageId: batch.answerId }] : [];
    this.session.notes.update(key, batch.noteId, lines, actions);
  }

  private phaseLine(level: Level): string {
    const took = level.endedAt ? ` in ${seconds(level.endedAt - level.startedAt)}` : '';
    switch (level.phase) {
      case 'starting':
        return 'starting…';
      case 'thinking':
        return 'thinking…';
      case 'answering':
        return 'answering…';
      case 'done':
        return `answered${took}`;
      case 'stopped':
        return 'stopped; what came is kept';
      case 'failed':
        return `failed: ${level.problem ?? 'unknown error'}`;
    }
  }
}
