// The app's settings as the backend keeps them, and the reasoning profiles among them.
import { AppError, ipc } from './ipc';
import type { AppSettings, OverrideMapping, Theme } from './types';
import type { Ui } from './ui.svelte';

function defaultSettings(): AppSettings {
  return {
    theme: 'system',
    defaultProvider: null,
    defaultModel: null,
    defaultChoice: 'default',
    thoughtVisibility: 'auto',
    storeThoughts: true,
    retentionDays: null,
    stallTimeoutSecs: 60,
    providers: {},
    profiles: {},
    reasoningOverrides: { providers: {} },
    customProviders: [],
    mcpServers: [],
    alwaysAllowedTools: [],
    toolStepLimit: 25,
    toolTimeoutSecs: 60,
    prices: [],
  };
}

/** Fills what an older backend leaves out of its settings. */
export function normalizeSettings(raw: Partial<AppSettings> | null | undefined): AppSettings {
  return { ...defaultSettings(), ...(raw ?? {}) };
}

export class SettingsState {
  current = $state<AppSettings>(defaultSettings());

  constructor(private readonly ui: Ui) {}

  get profileNames(): string[] {
    return Object.keys(this.current.profiles ?? {}).sort();
  }

  apply(raw: Partial<AppSettings>): void {
    this.current = normalizeSettings(raw);
    this.ui.thoughts.visibility = this.current.thoughtVisibility;
  }

  /** Saves a change; false (with the error in the status line) when the backend refused it. */
  async update(patch: Partial<AppSettings>): Promise<boolean> {
    try {
      this.apply(await ipc.updateSettings(patch));
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }

  /** Like `update`, but the caller shows the error itself (a note in the thread). */
  async save(patch: Partial<AppSettings>): Promise<void> {
    this.apply(await ipc.updateSettings(patch));
  }

  /** Reads them again, after a command that changed them on the backend's side. */
  async reload(): Promise<void> {
    this.apply(await ipc.getSettings());
  }

  /** The theme goes through `set_theme`, as the status line's switch does. */
  syncTheme(theme: Theme): void {
    this.current = { ...this.current, theme };
  }

  /** What an override map makes of each level (minimal to high), for the editor. */
  overrideMeanings(provider: string, model: string | null, reasoning: OverrideMapping): Promise<string[]> {
    return ipc.overrideMeanings(provider, model, reasoning);
  }
}
