// The providers, their keys and the models they offer: what the picker and Settings list.
import { AppError, ipc } from './ipc';
import type { SettingsState } from './settings.svelte';
import type { KeyringStatus, ModelView, NewCustomProvider, ProviderView } from './types';
import type { Ui } from './ui.svelte';

export class CatalogState {
  /** What the picker offers. */
  models = $state.raw<ModelView[]>([]);
  /** Models the providers have retired: never offered, but a conversation that used one still shows it. */
  retired = $state.raw<ModelView[]>([]);
  providers = $state.raw<ProviderView[]>([]);
  keyring = $state<KeyringStatus | null>(null);

  constructor(
    private readonly ui: Ui,
    private readonly settings: SettingsState,
  ) {}

  /** The first load; a failure of one list leaves the others standing. */
  async load(): Promise<void> {
    const [models, providers, keyring] = await Promise.allSettled([ipc.listModels(), ipc.listProviders(), ipc.keyringStatus()]);
    const list = <T,>(r: PromiseSettledResult<T[]>): T[] => (r.status === 'fulfilled' && Array.isArray(r.value) ? r.value : []);
    this.setModels(list(models));
    this.providers = list(providers);
    if (keyring.status === 'fulfilled' && keyring.value && typeof keyring.value === 'object') this.keyring = keyring.value;
    for (const r of [models, providers]) if (r.status === 'rejected') this.ui.error ??= AppError.from(r.reason);
  }

  /** Reads the lists again, and whether the keyring answers (it may have come up since). */
  async refresh(): Promise<void> {
    const [models, providers, keyring] = await Promise.allSettled([ipc.listModels(), ipc.listProviders(), ipc.keyringStatus()]);
    if (models.status === 'fulfilled' && Array.isArray(models.value)) this.setModels(models.value);
    if (providers.status === 'fulfilled' && Array.isArray(providers.value)) this.providers = providers.value;
    if (keyring.status === 'fulfilled' && keyring.value && typeof keyring.value === 'object') this.keyring = keyring.value;
  }

  /** Merges the providers' live model lists in, quietly: the catalog is enough without them. */
  async refreshLive(): Promise<void> {
    try {
      await ipc.refreshModels();
      await this.refresh();
    } catch {
      // No network or no keys yet: the catalog stands.
    }
  }

  /** The models grouped by provider, in the catalog's order, for a grouped select. */
  get groups(): [string, { name: string; models: ModelView[] }][] {
    const groups = new Map<string, { name: string; models: ModelView[] }>();
    for (const m of this.models) {
      const g = groups.get(m.provider) ?? { name: m.providerName, models: [] };
      g.models.push(m);
      groups.set(m.provider, g);
    }
    return [...groups.entries()];
  }

  private setModels(all: ModelView[]): void {
    this.models = all.filter((m) => !m.retired);
    this.retired = all.filter((m) => m.retired);
  }

  /** A model by its ids: an offered one, or one retired since a conversation used it. */
  find(provider: string | null, id: string | null): ModelView | null {
    const same = (m: ModelView): boolean => m.provider === provider && m.id === id;
    return this.models.find(same) ?? this.retired.find(same) ?? null;
  }

  /** A model by the name the user typed: the given provider's first, then one that has a key. */
  findByName(name: string, preferProvider: string | null): ModelView | null {
    const lower = name.toLowerCase();
    const candidates = this.models.filter((m) => m.id.toLowerCase() === lower || m.name.toLowerCase() === lower);
    return candidates.find((m) => m.provider === preferProvider) ?? candidates.find((m) => !m.needsKey) ?? candidates[0] ?? null;
  }

  async setProvider(id: string, change: Partial<{ enabled: boolean; baseUrl: string | null }>): Promise<void> {
    const view = this.providers.find((p) => p.id === id);
    const saved = this.settings.current.providers?.[id];
    const entry = {
      enabled: change.enabled ?? saved?.enabled ?? view?.enabled ?? true,
      baseUrl: change.baseUrl !== undefined ? change.baseUrl : (saved?.baseUrl ?? null),
      models: saved?.models ?? [],
    };
    if (await this.settings.update({ providers: { ...this.settings.current.providers, [id]: entry } })) await this.refresh();
  }

  /** Adds a server of the user's own; null when it was added, else why not. */
  async addCustomProvider(provider: NewCustomProvider): Promise<string | null> {
    try {
      await ipc.addCustomProvider(provider);
      await this.settings.reload();
      await this.refresh();
      void this.refreshLive();
      return null;
    } catch (raw) {
      return AppError.from(raw).message;
    }
  }

  async removeCustomProvider(id: string): Promise<void> {
    try {
      await ipc.removeCustomProvider(id);
      await this.settings.reload();
      await this.refresh();
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** Adds a model id the user typed to a provider; returns it as the picker shows it. */
  async addModel(provider: string, id: string): Promise<ModelView | null> {
    try {
      const model = await ipc.addModel(provider, id);
      await this.settings.reload();
      await this.refresh();
      return this.find(model.provider, model.id) ?? model;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return null;
    }
  }

  async setKey(provider: string, key: string): Promise<boolean> {
    try {
      const view = await ipc.setApiKey(provider, key);
      this.providers = this.providers.map((p) => (p.id === provider ? view : p));
      await this.refresh();
      // With a key the provider can be asked for its own list.
      void this.refreshLive();
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }

  /** A provider one signs in to has been signed in to (the backend kept the sign-in). */
  signedIn(view: ProviderView): void {
    this.providers = this.providers.map((p) => (p.id === view.id ? view : p));
    void this.refresh().then(() => this.refreshLive());
  }

  /** Whether a provider is signed in to rather than given a key. */
  signsIn(provider: string): boolean {
    return this.providers.some((p) => p.id === provider && p.signIn);
  }

  async clearKey(provider: string): Promise<void> {
    try {
      const view = await ipc.clearApiKey(provider);
      this.providers = this.providers.map((p) => (p.id === provider ? view : p));
      await this.refresh();
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }
}
