import { afterEach, describe, expect, it } from 'vitest';

import { paintFloor } from './perf';

afterEach(() => {
  window.__ponderPaintFloor = undefined;
  document.getElementById('ponder-paint-floor')?.remove();
});

describe('paintFloor', () => {
  it('is off unless a benchmark asks for it', () => {
    expect(paintFloor()).toBeNull();
    expect(document.getElementById('ponder-paint-floor')).toBeNull();
  });

  it('shows each delta in one text node on screen', () => {
    window.__ponderPaintFloor = true;
    paintFloor()?.('first');
    const show = paintFloor();
    show?.('second');
    const boxes = document.querySelectorAll('#ponder-paint-floor');
    expect(boxes).toHaveLength(1);
    expect(boxes[0]?.childNodes).toHaveLength(1);
    expect(boxes[0]?.textContent).toBe('second');
  });
});
