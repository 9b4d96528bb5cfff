import { afterEach, describe, expect, it, vi } from 'vitest';

import { hintGarbage } from './collector';

/** The frames put into the page, watched as they come and go. */
function watchFrames(): { added: HTMLIFrameElement[]; stop: () => void } {
  const added: HTMLIFrameElement[] = [];
  const watcher = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof HTMLIFrameElement) added.push(node);
  });
  watcher.observe(document.body, { childList: true });
  return { added, stop: () => watcher.disconnect() };
}

describe('hintGarbage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts an empty, sandboxed, hidden frame in and takes it out in the next task', () => {
    vi.useFakeTimers();
    hintGarbage();
    const frame = document.body.querySelector('iframe');
    expect(frame).not.toBeNull();
    expect(frame?.getAttribute('sandbox')).toBe('');
    expect(frame?.getAttribute('src')).toBeNull();
    expect(frame?.getAttribute('aria-hidden')).toBe('true');
    expect(frame?.tabIndex).toBe(-1);
    expect(frame?.style.display).toBe('none');
    vi.advanceTimersToNextTimer();
    expect(document.body.querySelector('iframe')).toBeNull();
    vi.runAllTimers();
  });

  it('gives the sign again two seconds later, once for hints close together', async () => {
    vi.useFakeTimers();
    const frames = watchFrames();
    hintGarbage();
    vi.advanceTimersByTime(500);
    hintGarbage();
    await Promise.resolve();
    expect(frames.added).toHaveLength(2);
    vi.advanceTimersByTime(1900);
    await Promise.resolve();
    expect(frames.added).toHaveLength(2);
    vi.advanceTimersByTime(100);
    await Promise.resolve();
    expect(frames.added).toHaveLength(3);
    vi.runAllTimers();
    await Promise.resolve();
    expect(frames.added).toHaveLength(3);
    expect(document.body.querySelector('iframe')).toBeNull();
    frames.stop();
  });

  it('runs the app\'s whole collection instead of the sign where the page has it, now and again later', async () => {
    vi.useFakeTimers();
    const frames = watchFrames();
    const collect = vi.fn();
    globalThis.__ponderCollectGarbage = collect;
    try {
      hintGarbage();
      expect(collect).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(2000);
      expect(collect).toHaveBeenCalledTimes(2);
      vi.runAllTimers();
      expect(collect).toHaveBeenCalledTimes(2);
      await Promise.resolve();
      expect(frames.added).toHaveLength(0);
    } finally {
      delete globalThis.__ponderCollectGarbage;
      frames.stop();
    }
  });

  it('asks WebKit to release its memory first where the page has that, and collects again later', async () => {
    vi.useFakeTimers();
    const frames = watchFrames();
    const calls: string[] = [];
    globalThis.__ponderCollectGarbage = () => void calls.push('collect');
    globalThis.__ponderReleaseMemory = () => void calls.push('release');
    try {
      hintGarbage();
      expect(calls).toEqual(['release']);
      vi.advanceTimersByTime(2000);
      expect(calls).toEqual(['release', 'collect']);
      // Left again before the second call: the release comes first again, one second call.
      hintGarbage();
      vi.advanceTimersByTime(1000);
      hintGarbage();
      vi.runAllTimers();
      expect(calls).toEqual(['release', 'collect', 'release', 'release', 'collect']);
      await Promise.resolve();
      expect(frames.added).toHaveLength(0);
    } finally {
      delete globalThis.__ponderCollectGarbage;
      delete globalThis.__ponderReleaseMemory;
      frames.stop();
    }
  });
});
