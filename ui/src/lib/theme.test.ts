import { beforeEach, describe, expect, it } from 'vitest';

import { applyTheme, isTheme, rememberedTheme } from './theme';

beforeEach(() => localStorage.clear());

describe('theme', () => {
  it('sets data-theme on the root and remembers it', () => {
    applyTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(rememberedTheme()).toBe('dark');
  });

  it('falls back to system for missing or foreign values', () => {
    expect(rememberedTheme()).toBe('system');
    localStorage.setItem('ponder.theme', 'sepia');
    expect(rememberedTheme()).toBe('system');
  });

  it('knows exactly the three themes', () => {
    expect(['light', 'dark', 'system'].every(isTheme)).toBe(true);
    expect(isTheme('Dark')).toBe(false);
    expect(isTheme(null)).toBe(false);
  });
});
