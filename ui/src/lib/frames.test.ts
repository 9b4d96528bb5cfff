import { afterEach, describe, expect, it, vi } from 'vitest';

import { afterNextFrame, perFrame } from './frames';

describe('perFrame', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('hands over everything queued before a frame at once, in order', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const got: number[][] = [];
    const push = perFrame<number>((items) => got.push(items));
    push(1);
    push(2);
    push(3);
    expect(got).toEqual([]);
    expect(frames).toHaveLength(1);
    frames[0]?.(0);
    expect(got).toEqual([[1, 2, 3]]);
    push(4);
    expect(frames).toHaveLength(2);
    frames[1]?.(16);
    expect(got).toEqual([[1, 2, 3], [4]]);
  });

  it('still delivers when no frame comes (a hidden window)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 1);
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const got: string[][] = [];
    const push = perFrame<string>((items) => got.push(items));
    push('a');
    push('b');
    vi.advanceTimersByTime(99);
    expect(got).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(got).toEqual([['a', 'b']]);
    // Delivered once only, though the frame may still come.
    vi.advanceTimersByTime(500);
    expect(got).toHaveLength(1);
  });
});

describe('afterNextFrame', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('resolves in a task after the next frame, never before it', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    let done = false;
    void afterNextFrame().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toBe(false);
    frames[0]?.(16);
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('resolves within the given time when no frame comes (a hidden window)', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 1);
    let done = false;
    void afterNextFrame(100).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('with a time to wait at most, still resolves right after a frame that comes first', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    let done = false;
    void afterNextFrame(100).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    frames[0]?.(16);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });
});
