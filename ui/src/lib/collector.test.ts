import { afterEach, describe, expect, it, vi } from 'vitest';

import { hintGarbage } from './collector';

describe('hintGarbage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts an empty, sandboxed, hidden frame in and takes it out in the next task', () => {
    vi.useFakeTimers();
    expect(hintGarbage(10_000)).toBe(true);
    const frame = document.body.querySelector('iframe');
    expect(frame).not.toBeNull();
    expect(frame?.getAttribute('sandbox')).toBe('');
    expect(frame?.getAttribute('src')).toBeNull();
    expect(frame?.getAttribute('aria-hidden')).toBe('true');
    expect(frame?.tabIndex).toBe(-1);
    expect(frame?.style.display).toBe('none');
    vi.advanceTimersToNextTimer();
    expect(document.body.querySelector('iframe')).toBeNull();
  });

  it('gives the sign at most once in two seconds', () => {
    vi.useFakeTimers();
    expect(hintGarbage(20_000)).toBe(true);
    expect(hintGarbage(21_000)).toBe(false);
    expect(hintGarbage(21_999)).toBe(false);
    expect(hintGarbage(22_000)).toBe(true);
    vi.runAllTimers();
    expect(document.body.querySelector('iframe')).toBeNull();
  });
});
