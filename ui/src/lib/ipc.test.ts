import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { afterEach, describe, expect, it } from 'vitest';

import { AppError, ipc } from './ipc';

afterEach(() => clearMocks());

describe('ipc', () => {
  it('calls the app_info command and returns what the backend said', async () => {
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      return { name: 'Ponder', version: '9.8.7', dataDir: '/d', databasePath: '/d/ponder.sqlite3' };
    });
    const about = await ipc.appInfo();
    expect(calls).toEqual(['app_info']);
    expect(about.version).toBe('9.8.7');
    expect(about.dataDir).toBe('/d');
  });

  it('passes the theme as a named argument', async () => {
    let seen: unknown;
    mockIPC((cmd, args) => {
      seen = { cmd, args };
      return { theme: 'dark' };
    });
    await expect(ipc.setTheme('dark')).resolves.toEqual({ theme: 'dark' });
    expect(seen).toEqual({ cmd: 'set_theme', args: { theme: 'dark' } });
  });

  it('turns a backend error into an AppError with its code', async () => {
    mockIPC(() => {
      throw { code: 'storage', message: 'Ponder could not save its settings: disk full' };
    });
    const err = await ipc.getSettings().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('storage');
    expect((err as AppError).message).toContain('disk full');
  });
});

describe('AppError.from', () => {
  it('maps unknown codes to internal and keeps the message', () => {
    const err = AppError.from({ code: 'martian', message: 'odd' });
    expect(err.code).toBe('internal');
    expect(err.message).toBe('odd');
  });

  it('accepts plain strings and Errors', () => {
    expect(AppError.from('boom').message).toBe('boom');
    expect(AppError.from(new Error('bang')).message).toBe('bang');
    expect(AppError.from(undefined).message).toBe('Something went wrong.');
  });
});
