// The state of the app shell: what the backend told us about itself, and the theme.
import { AppError, ipc } from './ipc';
import { applyTheme, rememberedTheme } from './theme';
import type { About, Theme } from './types';

export class Shell {
  about = $state<About | null>(null);
  theme = $state<Theme>(rememberedTheme());
  error = $state<AppError | null>(null);

  async load(): Promise<void> {
    const [about, settings] = await Promise.allSettled([ipc.appInfo(), ipc.getSettings()]);
    if (about.status === 'fulfilled') this.about = about.value;
    else this.error = AppError.from(about.reason);
    if (settings.status === 'fulfilled') {
      this.theme = settings.value.theme;
      applyTheme(this.theme);
    } else {
      this.error ??= AppError.from(settings.reason);
    }
  }

  async setTheme(theme: Theme): Promise<void> {
    const previous = this.theme;
    this.theme = theme;
    applyTheme(theme);
    try {
      const saved = await ipc.setTheme(theme);
      this.theme = saved.theme;
    } catch (raw) {
      this.theme = previous;
      applyTheme(previous);
      this.error = AppError.from(raw);
    }
  }
}
