// The state of the app shell: what the backend told us about itself, and the theme.
import { AppError, ipc } from './ipc';
import { applyTheme, isTheme, rememberedTheme } from './theme';
import type { About, AppSettings, Theme } from './types';

export class Shell {
  about = $state<About | null>(null);
  theme = $state<Theme>(rememberedTheme());
  error = $state<AppError | null>(null);

  /** Loads the about box and the settings; resolves to the settings (null if they failed). */
  async load(): Promise<Partial<AppSettings> | null> {
    const [about, settings] = await Promise.allSettled([ipc.appInfo(), ipc.getSettings()]);
    if (about.status === 'fulfilled') this.about = about.value;
    else this.error = AppError.from(about.reason);
    if (settings.status === 'fulfilled') {
      if (isTheme(settings.value?.theme)) {
        this.theme = settings.value.theme;
        applyTheme(this.theme);
      }
      return settings.value;
    }
    this.error ??= AppError.from(settings.reason);
    return null;
  }

  async setTheme(theme: Theme): Promise<void> {
    const previous = this.theme;
    this.theme = theme;
    applyTheme(theme);
    try {
      const saved = await ipc.setTheme(theme);
      if (isTheme(saved?.theme)) this.theme = saved.theme;
    } catch (raw) {
      this.theme = previous;
      applyTheme(previous);
      this.error = AppError.from(raw);
    }
  }
}
