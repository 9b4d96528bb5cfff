// Applies the theme to the document. The choice is also kept in localStorage so the
// next start paints in the right theme before the backend has answered.
import { THEMES, type Theme } from './types';

const KEY = 'ponder.theme';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Storage can be unavailable (private mode, full disk); the theme still applies.
  }
}

export function rememberedTheme(): Theme {
  try {
    const value = localStorage.getItem(KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}
