// The shapes that cross IPC, mirroring src-tauri (ponder-core `About`, the app's `Settings`).

export interface About {
  name: string;
  version: string;
  dataDir: string;
  databasePath: string;
}

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export interface Settings {
  theme: Theme;
}

export type ErrorCode = 'invalidInput' | 'storage' | 'internal';
