import { clearMocks, mockConvertFileSrc, mockIPC } from '@tauri-apps/api/mocks';
import { afterEach, describe, expect, it } from 'vitest';

import { AppError, fileUrl, ipc } from './ipc';

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

describe('files given as bytes', () => {
  it('sends the bytes as the body and the name, percent-encoded, in a header', async () => {
    mockIPC(() => null);
    const seen: unknown[] = [];
    const internals = (window as unknown as { __TAURI_INTERNALS__: { invoke: (...a: unknown[]) => Promise<unknown> } }).__TAURI_INTERNALS__;
    internals.invoke = (cmd, args, options) => {
      seen.push({ cmd, args, options });
      return Promise.resolve({ files: [], refused: ['Notes 1/2.txt is empty.'] });
    };
    const bytes = new Uint8Array([104, 105]);
    await expect(ipc.attachBytes('Notes 1/2 – été.txt', bytes)).resolves.toEqual({ files: [], refused: ['Notes 1/2.txt is empty.'] });
    expect(seen).toEqual([{ cmd: 'attach_bytes', args: bytes, options: { headers: { 'x-ponder-name': 'Notes%201%2F2%20%E2%80%93%20%C3%A9t%C3%A9.txt' } } }]);
  });

  it('turns a rejection into an AppError', async () => {
    mockIPC(() => {
      throw { code: 'storage', message: 'This history keeps no files.' };
    });
    const err = await ipc.attachBytes('a.png', new Uint8Array([1])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('storage');
  });

  it('draws a stored image through the ponder-file scheme, as a thumbnail or whole', () => {
    mockConvertFileSrc('windows');
    const sha = 'ab'.repeat(32);
    expect(fileUrl(sha, 'thumb')).toBe(`http://ponder-file.localhost/thumb%2F${sha}`);
    expect(fileUrl(sha, 'full')).toBe(`http://ponder-file.localhost/full%2F${sha}`);
    mockConvertFileSrc('linux');
    expect(fileUrl(sha, 'thumb')).toBe(`ponder-file://localhost/thumb%2F${sha}`);
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
