// The answers streaming now, one per conversation at most, folded from their events by the
// pure `foldEvent` (stream.ts), and the clock their timers read.
import { announcement } from './announce';
import { AppError, ipc } from './ipc';
import { foldEvent, newRun, type LiveRun } from './stream';
import type { Choice, StreamEvent } from './types';
import type { Ui } from './ui.svelte';

export class RunsState {
  byKey = $state.raw<Record<string, LiveRun>>({});
  /** Ticks while something is thinking, for the live timers. */
  now = $state(Date.now());
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** Stops asked for before the backend named the run. */
  private cancelWanted = new Set<string>();

  constructor(private readonly ui: Ui) {}

  get(key: string): LiveRun | null {
    return this.byKey[key] ?? null;
  }

  isRunning(key: string): boolean {
    const run = this.byKey[key];
    return run !== undefined && !run.closed;
  }

  begin(key: string, origin: { provider: string | null; model: string | null; choice: Choice | null }): LiveRun {
    const run = newRun(origin, Date.now());
    this.byKey = { ...this.byKey, [key]: run };
    this.now = Date.now();
    this.startTicker();
    return run;
  }

  drop(key: string): void {
    const { [key]: _gone, ...rest } = this.byKey;
    void _gone;
    this.byKey = rest;
    this.cancelWanted.delete(key);
  }

  /** Folds one event into the run; null when there is no open run for it. */
  fold(key: string, event: StreamEvent): LiveRun | null {
    const run = this.byKey[key];
    if (!run || run.closed) return null;
    const next = foldEvent(run, event, Date.now());
    this.byKey = { ...this.byKey, [key]: next };
    const said = announcement(run, next, event);
    if (said) this.ui.announce(said.text, said.assertive);
    if (event.type === 'started' && this.cancelWanted.has(key)) void this.cancel(key);
    return next;
  }

  /** The backend accepted the run: remember its id, and stop it if that was asked already. */
  started(key: string, runId: string): void {
    const run = this.byKey[key];
    if (run && !run.runId && runId) this.byKey = { ...this.byKey, [key]: { ...run, runId } };
    if (this.cancelWanted.has(key)) void this.cancel(key);
  }

  async cancel(key: string): Promise<void> {
    const run = this.byKey[key];
    if (!run || run.closed) return;
    if (!run.runId) {
      // Not started yet: cancel as soon as the backend names the run.
      this.cancelWanted.add(key);
      return;
    }
    this.cancelWanted.delete(key);
    try {
      await ipc.cancelRun(run.runId);
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  private startTicker(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      this.now = Date.now();
      if (Object.values(this.byKey).every((r) => r.closed)) {
        clearInterval(this.ticker);
        this.ticker = undefined;
      }
    }, 250);
  }
}
