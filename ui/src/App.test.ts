import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import App from './App.svelte';

const about = {
  name: 'Ponder',
  version: '0.1.0',
  dataDir: '/home/ada/.local/share/dev.ponder.desktop',
  databasePath: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
};

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  clearMocks();
});

describe('App shell', () => {
  it('shows the version and data directory from the backend', async () => {
    mockIPC((cmd) => (cmd === 'app_info' ? about : { theme: 'system' }));
    render(App);
    expect(await screen.findByTestId('status-version')).toHaveProperty('textContent', 'Ponder 0.1.0');
    expect(screen.getByTestId('status-data-dir').textContent).toBe(about.dataDir);
    expect(screen.getByTestId('sidebar-empty').textContent).toContain('No conversations yet');
    expect(screen.getByTestId('thread-empty').textContent).toContain('What are you pondering?');
  });

  it('applies the saved theme and saves a new one', async () => {
    const saved: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'app_info') return about;
      if (cmd === 'get_settings') return { theme: 'light' };
      saved.push(args);
      return { theme: (args as { theme: string }).theme };
    });
    render(App);
    await screen.findByTestId('status-version');
    expect(document.documentElement.dataset.theme).toBe('light');
    await fireEvent.click(screen.getByTestId('theme-dark'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(saved).toEqual([{ theme: 'dark' }]);
    expect(screen.getByTestId('theme-dark').getAttribute('aria-pressed')).toBe('true');
  });

  it('says what went wrong when the backend fails, and keeps the theme that was', async () => {
    mockIPC((cmd) => {
      if (cmd === 'app_info') return about;
      if (cmd === 'get_settings') return { theme: 'system' };
      throw { code: 'storage', message: 'Ponder could not read or save its settings: read-only file system' };
    });
    render(App);
    await screen.findByTestId('status-version');
    await fireEvent.click(screen.getByTestId('theme-dark'));
    const error = await screen.findByTestId('status-error');
    expect(error.textContent).toContain('read-only file system');
    expect(document.documentElement.dataset.theme).toBe('system');
  });

  it('keeps Send disabled while no model is chosen, and says why', async () => {
    mockIPC((cmd) => (cmd === 'app_info' ? about : { theme: 'system' }));
    render(App);
    const input = screen.getByTestId('composer-input');
    await fireEvent.input(input, { target: { value: 'hello' } });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    expect(screen.getByTestId('composer-hint').textContent).toBe('No model chosen yet.');
  });
});
