// The state of the app shell: what the backend told us about itself, and the theme.
import { AppError, ipc } from './ipc';
import { applyTheme, isTheme, rememberedTheme } from './theme';
import type { About, AppSettings, StartupProblem, Theme } from './types';

export class Shell {
  /** Images the user asked for, by address: fetched once, however often they are shown. */
  #images = new Map<string, Promise<string>>();
  about = $state<About | null>(null);
  theme = $state<Theme>(rememberedTheme());
  error = $state<AppError | null>(null);
  /** Files Ponder could not use at start-up; null until asked. */
  problems = $state<StartupProblem[] | null>(null);
  /** Why the last attempt to resolve a problem failed. */
  problemError = $state<string | null>(null);

  /**
   * Asks the backend which files it could not use; the window shows them first. With none,
   * `whenNone` runs before the window is made for them (its reads go out meanwhile).
   */
  async checkProblems(whenNone?: () => void): Promise<StartupProblem[]> {
    let problems: StartupProblem[];
    try {
      problems = await ipc.startupProblems();
    } catch (raw) {
      this.error = AppError.from(raw);
      problems = [];
    }
    if (problems.length === 0) whenNone?.();
    this.problems = problems;
    return problems;
  }

  async resolveProblem(problem: StartupProblem, remedy: StartupProblem['remedy']): Promise<void> {
    this.problemError = null;
    try {
      const left = await ipc.resolveStartupProblem(problem.file, remedy);
      const same = left.find((p) => p.file === problem.file);
      if (same && remedy === 'retry') this.problemError = `Still not usable: ${same.message}`;
      this.problems = left;
    } catch (raw) {
      this.problemError = AppError.from(raw).message;
    }
  }

  /** Opens a web link in the system's browser; the app's own window never navigates. */
  openExternal(url: string): Promise<null> {
    return ipc.openExternal(url);
  }

  /**
   * An image from a message, as a `data:` URL: the window loads none from the network itself
   * (its CSP), so the app fetches it, and only once the user has clicked. A failed one is
   * forgotten, to be asked for again.
   */
  loadImage(url: string): Promise<string> {
    let image = this.#images.get(url);
    if (!image) {
      image = ipc.loadImage(url);
      this.#images.set(url, image);
      image.catch(() => this.#images.delete(url));
    }
    return image;
  }

  async quit(): Promise<void> {
    try {
      await ipc.quit();
    } catch (raw) {
      this.problemError = AppError.from(raw).message;
    }
  }

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
