// The only module that talks to the Rust side. Everything else imports these wrappers,
// so a rejected call always arrives as an AppError with a code the UI can branch on.
import { invoke } from '@tauri-apps/api/core';

import type { About, ErrorCode, Settings, Theme } from './types';

const KNOWN_CODES: ReadonlySet<string> = new Set<ErrorCode>(['invalidInput', 'storage', 'internal']);

export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
  }

  static from(raw: unknown): AppError {
    if (raw instanceof AppError) return raw;
    if (typeof raw === 'object' && raw !== null && 'message' in raw) {
      const { code, message } = raw as { code?: unknown; message?: unknown };
      const known = typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : 'internal';
      return new AppError(known, String(message));
    }
    if (raw instanceof Error) return new AppError('internal', raw.message);
    return new AppError('internal', typeof raw === 'string' ? raw : 'Something went wrong.');
  }
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (raw) {
    throw AppError.from(raw);
  }
}

export const ipc = {
  appInfo: () => call<About>('app_info'),
  getSettings: () => call<Settings>('get_settings'),
  setTheme: (theme: Theme) => call<Settings>('set_theme', { theme }),
};
