import { afterEach, describe, expect, it, vi } from 'vitest';

import { runWhenIdle } from './idle';

describe('runWhenIdle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the steps in slices of at most the slice time, each in a task of its own', () => {
    vi.useFakeTimers();
    let clock = 0;
    const done: number[] = [];
    runWhenIdle(
      () => {
        done.push(done.length);
        clock += 3;
        return done.length < 5;
      },
      { busy: () => false, sliceMs: 4, now: () => clock },
    );
    expect(done).toEqual([]);
    vi.advanceTimersToNextTimer();
    // 3 ms, then 6 ms: over the slice after the second step.
    expect(done).toEqual([0, 1]);
    vi.advanceTimersToNextTimer();
    expect(done).toEqual([0, 1, 2, 3]);
    vi.advanceTimersToNextTimer();
    expect(done).toEqual([0, 1, 2, 3, 4]);
    vi.advanceTimersByTime(1000);
    expect(done).toHaveLength(5);
  });

  it('waits while the page is busy and goes on when it is not', () => {
    vi.useFakeTimers();
    let busy = true;
    let steps = 0;
    runWhenIdle(() => ++steps < 3, { busy: () => busy, retryMs: 250, sliceMs: 100 });
    vi.advanceTimersByTime(1000);
    expect(steps).toBe(0);
    busy = false;
    vi.advanceTimersByTime(249);
    expect(steps).toBe(0);
    vi.advanceTimersByTime(1);
    expect(steps).toBe(3);
  });

  it('stops when asked, between slices', () => {
    vi.useFakeTimers();
    let clock = 0;
    let steps = 0;
    const stop = runWhenIdle(
      () => {
        steps += 1;
        clock += 10;
        return true;
      },
      { busy: () => false, sliceMs: 4, now: () => clock },
    );
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    expect(steps).toBe(2);
    stop();
    vi.advanceTimersByTime(1000);
    expect(steps).toBe(2);
  });
});
