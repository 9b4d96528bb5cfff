// The conversations, the one on screen, the model and level chosen for it, and the runs
// streaming into it. Runs are folded by the pure `foldEvent` (stream.ts); this class only
// keeps the results and talks to the backend through `ipc`.
import { applySetting, describeSetting, HELP, messageFromText, mistypedLevel, parseCommand, type Command } from './commands';
import { choiceLabel } from './format';
import { AppError, ipc } from './ipc';
import { foldEvent, newRun, type LiveRun } from './stream';
import {
  defaultReasoningSettings,
  type AppSettings,
  type Choice,
  type ConversationSummary,
  type ConversationView,
  type ExportFormat,
  type ExportThoughts,
  type IpcErrorView,
  type KeyringStatus,
  type MessageView,
  type NewCustomProvider,
  type ModelView,
  type ProviderView,
  type PurgeReport,
  type ReasoningSettings,
  type SearchHit,
  type StreamEvent,
  type Theme,
} from './types';
import type { Ui } from './ui.svelte';

/** The key of the conversation not yet created ("New chat"). */
export const DRAFT = '';

export interface Note {
  id: string;
  tone: 'info' | 'success' | 'warning' | 'error';
  /** The first line is the headline; the rest are shown below it. */
  lines: string[];
  /** An error card instead of a plain line. */
  error?: IpcErrorView;
  /** The message the note follows in the thread; null before the first. */
  after: string | null;
  /** Fixes offered on the note. */
  actions?: NoteAction[];
}

export type NoteAction = { kind: 'addKey'; provider: string } | { kind: 'openPicker' };

export type ThreadItem =
  | { kind: 'message'; key: string; message: MessageView; run: LiveRun | null }
  | { kind: 'note'; key: string; note: Note };

const SETTING_SENTENCES: Record<string, (s: ReasoningSettings) => string> = {
  enabled: (s) => (s.enabled ? 'The model is asked to think.' : 'No reasoning parameters are sent; thoughts a model returns anyway are still kept.'),
  includeInContext: (s) =>
    s.includeInContext ? 'Earlier thoughts are sent back with the next request.' : 'Earlier thoughts stay out of the next request.',
  includeInResponse: (s) => (s.includeInResponse ? 'Thoughts are shown in this conversation.' : 'Thoughts are hidden here; they are still stored.'),
  format: (s) => (s.format === 'native' ? "Thoughts go back as the provider's own blocks." : 'Thoughts go back in the reasoning_content field.'),
  stripFromContext: (s) =>
    ({ all: 'Every earlier thought is dropped first.', allButLast: "Only the last answer's thoughts are kept.", none: 'No earlier thought is dropped.' })[
      s.stripFromContext
    ],
  maxOutputTokens: (s) =>
    s.maxOutputTokens
      ? 'Each answer, thinking included, holds at most that many tokens; a thinking budget is cut to leave room for the answer.'
      : "Each answer may be as long as the level and the model's limit allow.",
  longContextCut: (s) =>
    s.longContextCut
      ? 'Past 150,000 tokens of conversation, thinking budgets are cut to 10,000.'
      : 'Budgets stay as the level sets them however long the conversation.',
  effort: () => 'The thinking level for this conversation.',
};

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
  };
}

/** Fills what an older backend leaves out of its settings. */
export function normalizeSettings(raw: Partial<AppSettings> | null | undefined): AppSettings {
  return { ...defaultSettings(), ...(raw ?? {}) };
}

function errorView(err: AppError): IpcErrorView {
  return { code: err.code, message: err.message, retryAfterMs: err.retryAfterMs };
}

interface PendingUser {
  localId: string;
}

export class ChatState {
  settings = $state<AppSettings>(defaultSettings());
  models = $state.raw<ModelView[]>([]);
  providers = $state.raw<ProviderView[]>([]);
  keyring = $state<KeyringStatus | null>(null);
  conversations = $state.raw<ConversationSummary[]>([]);
  current = $state.raw<ConversationView | null>(null);
  loading = $state(false);
  loaded = $state(false);
  /** The last thing that failed outside a conversation, for the status line. */
  error = $state<AppError | null>(null);

  /** The model and level for the conversation on screen (or the new chat). */
  provider = $state<string | null>(null);
  model = $state<string | null>(null);
  reasoning = $state.raw<ReasoningSettings>(defaultReasoningSettings());
  /** The one-message override: used by the next send only. */
  once = $state<Choice | null>(null);

  /** The composer's text; kept here so a failed send or an error fix can put it back. */
  input = $state('');
  runs = $state.raw<Record<string, LiveRun>>({});
  notes = $state.raw<Record<string, Note[]>>({});
  /** A message to bring into view (a search hit). */
  reveal = $state<{ id: string; token: number } | null>(null);

  search = $state('');
  searchThoughts = $state(false);
  hits = $state.raw<SearchHit[] | null>(null);
  searching = $state(false);

  /** Ticks while something is thinking, for the live timers. */
  now = $state(Date.now());
  private ticker: ReturnType<typeof setInterval> | undefined;
  private noteSeq = 0;
  private searchSeq = 0;
  private cancelWanted = new Set<string>();
  private reloadAfter = new Set<string>();
  private pendingUser = new Map<string, PendingUser>();
  /** Model switches not yet saved on a conversation (the backend saves them on send). */
  private pendingModel = new Map<string, { provider: string; model: string }>();

  constructor(private readonly ui: Ui) {}

  // ---- derived ----

  get key(): string {
    return this.current?.id ?? DRAFT;
  }

  get run(): LiveRun | null {
    return this.runs[this.key] ?? null;
  }

  get running(): boolean {
    const run = this.run;
    return run !== null && !run.closed;
  }

  get selectedModel(): ModelView | null {
    return this.models.find((m) => m.provider === this.provider && m.id === this.model) ?? null;
  }

  get profileNames(): string[] {
    return Object.keys(this.settings.profiles ?? {}).sort();
  }

  /** Why Send is not possible, or null when it is. */
  get disabledReason(): string | null {
    if (!this.model || !this.provider) return 'No model chosen yet.';
    return null;
  }

  get items(): ThreadItem[] {
    const messages = this.current?.messages ?? [];
    const run = this.run;
    const list = run ? messages.filter((m) => m.id !== run.message.id) : messages;
    const notes = this.notes[this.key] ?? [];
    const byAfter = new Map<string | null, Note[]>();
    const ids = new Set(list.map((m) => m.id));
    if (run) ids.add(run.message.id);
    for (const note of notes) {
      const after = note.after === null || ids.has(note.after) ? note.after : '\u0000end';
      byAfter.set(after, [...(byAfter.get(after) ?? []), note]);
    }
    const out: ThreadItem[] = [];
    const pushNotes = (after: string | null) => {
      for (const note of byAfter.get(after) ?? []) out.push({ kind: 'note', key: `note-${note.id}`, note });
    };
    pushNotes(null);
    for (const message of list) {
      out.push({ kind: 'message', key: message.id, message, run: null });
      pushNotes(message.id);
    }
    if (run) {
      out.push({ kind: 'message', key: run.message.id, message: run.message, run });
      pushNotes(run.message.id);
    }
    pushNotes('\u0000end');
    return out;
  }

  // ---- loading ----

  /** Loads everything the chat needs; `settings` comes from the shell, which asked already. */
  async load(settingsLoaded: Promise<Partial<AppSettings> | null>): Promise<void> {
    this.loading = true;
    const [settings, models, providers, conversations, keyring] = await Promise.allSettled([
      settingsLoaded,
      ipc.listModels(),
      ipc.listProviders(),
      ipc.listConversations(false),
      ipc.keyringStatus(),
    ]);
    const fail = (r: PromiseSettledResult<unknown>) => {
      if (r.status === 'rejected') this.error ??= AppError.from(r.reason);
    };
    if (settings.status === 'fulfilled' && settings.value && typeof settings.value === 'object') this.applySettings(settings.value);
    const list = <T,>(r: PromiseSettledResult<T[]>): T[] => (r.status === 'fulfilled' && Array.isArray(r.value) ? r.value : []);
    this.models = list(models);
    this.providers = list(providers);
    this.conversations = sortConversations(list(conversations));
    if (keyring.status === 'fulfilled' && keyring.value && typeof keyring.value === 'object') this.keyring = keyring.value;
    [models, providers, conversations].forEach(fail);
    if (!this.current) this.useDefaults();
    this.loading = false;
    this.loaded = true;
    void this.refreshLive();
  }

  /** Merges the providers' live model lists in, quietly: the catalog is enough without them. */
  async refreshLive(): Promise<void> {
    try {
      await ipc.refreshModels();
      await this.refreshCatalog();
    } catch {
      // No network or no keys yet: the catalog stands.
    }
  }

  applySettings(raw: Partial<AppSettings>): void {
    this.settings = normalizeSettings(raw);
    this.ui.thoughts.visibility = this.settings.thoughtVisibility;
  }

  async refreshConversations(): Promise<void> {
    try {
      const list = await ipc.listConversations(false);
      this.conversations = sortConversations(Array.isArray(list) ? list : []);
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async refreshCatalog(): Promise<void> {
    const [models, providers] = await Promise.allSettled([ipc.listModels(), ipc.listProviders()]);
    if (models.status === 'fulfilled' && Array.isArray(models.value)) this.models = models.value;
    if (providers.status === 'fulfilled' && Array.isArray(providers.value)) this.providers = providers.value;
  }

  private useDefaults(): void {
    const { defaultProvider, defaultModel, defaultChoice } = this.settings;
    const model = this.models.find((m) => m.id === defaultModel && (!defaultProvider || m.provider === defaultProvider));
    this.provider = model?.provider ?? null;
    this.model = model?.id ?? null;
    this.reasoning = { ...defaultReasoningSettings(), choice: defaultChoice ?? 'default' };
  }

  // ---- conversations ----

  newChat(): void {
    this.current = null;
    this.once = null;
    this.useDefaults();
    this.notes = { ...this.notes, [DRAFT]: [] };
    this.ui.focusComposer += 1;
  }

  async open(id: string, revealId: string | null = null): Promise<void> {
    try {
      const view = await ipc.getConversation(id);
      this.current = view;
      const pending = this.pendingModel.get(id);
      this.provider = pending?.provider ?? view.provider;
      this.model = pending?.model ?? view.model;
      this.reasoning = { ...defaultReasoningSettings(), ...view.settings };
      this.once = null;
      if (revealId) this.reveal = { id: revealId, token: Date.now() };
      this.ui.focusComposer += 1;
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) return;
    try {
      await ipc.renameConversation(id, clean);
      this.conversations = this.conversations.map((c) => (c.id === id ? { ...c, title: clean } : c));
      if (this.current?.id === id) this.current = { ...this.current, title: clean };
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async remove(id: string): Promise<void> {
    try {
      await ipc.deleteConversation(id);
      this.conversations = this.conversations.filter((c) => c.id !== id);
      if (this.current?.id === id) this.newChat();
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async pin(id: string, pinned: boolean): Promise<void> {
    try {
      await ipc.pinConversation(id, pinned);
      this.conversations = sortConversations(this.conversations.map((c) => (c.id === id ? { ...c, pinned } : c)));
      if (this.current?.id === id) this.current = { ...this.current, pinned };
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  // ---- notes in the thread ----

  note(lines: string[], tone: Note['tone'] = 'info', extra: Partial<Note> = {}): Note {
    const key = this.key;
    const messages = this.current?.messages ?? [];
    const run = this.runs[key];
    const after = run?.message.id ?? messages.at(-1)?.id ?? null;
    const note: Note = { id: String(++this.noteSeq), tone, lines, after, ...extra };
    this.notes = { ...this.notes, [key]: [...(this.notes[key] ?? []), note] };
    return note;
  }

  dismissNote(id: string): void {
    const key = this.key;
    this.notes = { ...this.notes, [key]: (this.notes[key] ?? []).filter((n) => n.id !== id) };
  }

  private errorNote(err: AppError, extra: Partial<Note> = {}): void {
    this.note([err.message], 'error', { error: errorView(err), ...extra });
  }

  // ---- model and level ----

  /** The feedback lines for a model or level change: the engine's, or our own if it cannot say. */
  private async feedback(model: ModelView, choice: Choice, settings: ReasoningSettings, once: boolean): Promise<void> {
    const prefix = once ? 'For the next message only: ' : '';
    try {
      const preview = await ipc.translatePreview(model.provider, model.id, choice, settings, this.current?.id ?? null);
      const lines = preview.feedback.split('\n').map((l) => l.trim()).filter(Boolean);
      if (lines.length && prefix) lines[0] = `${prefix}${lines[0]}`;
      this.note(lines, preview.warnings.length ? 'warning' : 'success');
    } catch {
      const level = model.levels.find((l) => l.choice === choice);
      this.note([`${prefix}✓ Switched to ${model.providerName} ${model.id}`, `Thinking: ${level?.label ?? choiceLabel(choice)}`], 'success');
    }
    if (model.needsKey) {
      this.note([`${model.providerName} needs an API key before you can send.`], 'warning', {
        actions: [{ kind: 'addKey', provider: model.provider }],
      });
    }
  }

  /** Sets the model and level (from the picker or /model), saves the level, and says what it means. */
  async choose(model: ModelView, choice: Choice, once = false): Promise<void> {
    const sameModel = model.provider === this.provider && model.id === this.model;
    if (!sameModel) {
      this.provider = model.provider;
      this.model = model.id;
      if (this.current) {
        this.pendingModel.set(this.current.id, { provider: model.provider, model: model.id });
        // Saved at once, so the choice survives a restart before the next message.
        ipc.setConversationModel(this.current.id, model.provider, model.id).catch(() => {});
      }
    }
    if (once) {
      this.once = choice;
      if (!sameModel && !model.levels.some((l) => l.available && l.choice === this.reasoning.choice)) {
        await this.saveReasoning({ ...this.reasoning, choice: 'default' }, false);
      }
    } else {
      this.once = null;
      await this.saveReasoning({ ...this.reasoning, choice }, false);
    }
    await this.feedback(model, choice, this.reasoning, once);
  }

  clearOnce(): void {
    this.once = null;
  }

  /** Saves reasoning settings on the conversation (or keeps them for the new chat). */
  async saveReasoning(next: ReasoningSettings, announce = true, key?: string): Promise<boolean> {
    const previous = this.reasoning;
    this.reasoning = next;
    if (this.current) {
      try {
        const view = await ipc.setConversationSettings(this.current.id, next);
        if (this.current) this.current = { ...this.current, settings: view?.settings ?? next };
      } catch (raw) {
        this.reasoning = previous;
        this.errorNote(AppError.from(raw));
        return false;
      }
    }
    if (announce && key) {
      const sentence = SETTING_SENTENCES[key]?.(next) ?? '';
      this.note([`✓ ${describeSetting(next, key as never)}`, ...(sentence ? [sentence] : [])], 'success');
    }
    return true;
  }

  findModel(name: string): ModelView | null {
    const lower = name.toLowerCase();
    const candidates = this.models.filter((m) => m.id.toLowerCase() === lower || m.name.toLowerCase() === lower);
    return candidates.find((m) => m.provider === this.provider) ?? candidates.find((m) => !m.needsKey) ?? candidates[0] ?? null;
  }

  // ---- commands ----

  /** Runs a slash command. True when the composer may clear; false keeps the text to fix. */
  async command(command: Command): Promise<boolean> {
    switch (command.kind) {
      case 'help':
        this.note([HELP]);
        return true;
      case 'unknown':
        this.note([`Unknown command /${command.name}.`, HELP], 'warning');
        return false;
      case 'invalid':
        this.note([command.message], 'error');
        return false;
      case 'model': {
        if (!command.model) {
          this.ui.openPicker();
          return true;
        }
        const model = this.findModel(command.model);
        if (!model) {
          const level = mistypedLevel(command.model, (id) => this.findModel(id) !== null);
          if (level) {
            this.note([level], 'error');
            return false;
          }
          this.note([`No model named "${command.model}". Type /model and a few letters to see the list.`], 'error');
          return false;
        }
        let choice = command.choice;
        if (choice === null) {
          const keep = model.levels.some((l) => l.available && l.choice === this.reasoning.choice);
          choice = keep ? this.reasoning.choice : 'default';
        }
        if (model.levels.length === 0) choice = 'default';
        await this.choose(model, choice);
        return true;
      }
      case 'set': {
        if (!command.key) {
          const keys = ['enabled', 'includeInContext', 'includeInResponse', 'format', 'stripFromContext', 'maxOutputTokens', 'longContextCut', 'effort'] as const;
          this.note(['Reasoning settings for this conversation:', ...keys.map((k) => describeSetting(this.reasoning, k))]);
          return true;
        }
        if (command.value === null) {
          this.note([describeSetting(this.reasoning, command.key)]);
          return true;
        }
        const result = applySetting(this.reasoning, command.key, command.value);
        if (!result.ok) {
          this.note([result.error], 'error');
          return false;
        }
        if (command.key === 'effort' && this.selectedModel) {
          this.once = null;
          await this.saveReasoning(result.value, false);
          await this.feedback(this.selectedModel, result.value.choice, result.value, false);
          return true;
        }
        return this.saveReasoning(result.value, true, command.key);
      }
      case 'profile':
        return this.profile(command.action, command.name);
    }
  }

  async profile(action: 'save' | 'load' | 'delete' | 'list', name: string | null): Promise<boolean> {
    const profiles = { ...(this.settings.profiles ?? {}) };
    if (action === 'list' || !name) {
      const names = Object.keys(profiles).sort();
      this.note([names.length ? `Profiles: ${names.join(', ')}` : 'No profiles yet. Save this conversation\'s settings with /profile save NAME.']);
      return true;
    }
    if (action === 'load') {
      const profile = profiles[name];
      if (!profile) {
        this.note([`No profile named "${name}".`, `Profiles: ${Object.keys(profiles).sort().join(', ') || 'none yet'}`], 'error');
        return false;
      }
      const ok = await this.saveReasoning({ ...defaultReasoningSettings(), ...profile }, false);
      if (ok) this.note([`✓ Loaded profile ${name}`, `Thinking: ${choiceLabel(profile.choice)} · thoughts ${profile.includeInContext ? 'sent back' : 'kept out of context'} · ${profile.includeInResponse ? 'shown' : 'hidden'}`], 'success');
      return ok;
    }
    if (action === 'save') profiles[name] = { ...this.reasoning };
    else if (!(name in profiles)) {
      this.note([`No profile named "${name}".`], 'error');
      return false;
    } else delete profiles[name];
    try {
      this.applySettings(await ipc.updateSettings({ profiles }));
      this.note([action === 'save' ? `✓ Saved profile ${name}` : `✓ Deleted profile ${name}`], 'success');
      return true;
    } catch (raw) {
      this.errorNote(AppError.from(raw));
      return false;
    }
  }

  // ---- sending ----

  /** Sends the composer's text, or runs it as a command. */
  async submit(): Promise<void> {
    const text = this.input;
    if (!text.trim()) return;
    const command = parseCommand(text);
    if (command) {
      this.input = '';
      const clear = await this.command(command);
      if (!clear && this.input === '') this.input = text;
      return;
    }
    if (this.running || this.disabledReason) return;
    this.input = '';
    const sent = await this.send(messageFromText(text));
    // The user's text is never lost: a send that could not start puts it back.
    if (!sent && this.input === '') this.input = text;
  }

  private startTicker(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      this.now = Date.now();
      if (Object.values(this.runs).every((r) => r.closed)) {
        clearInterval(this.ticker);
        this.ticker = undefined;
      }
    }, 250);
  }

  private beginRun(key: string, choice: Choice | null): LiveRun {
    const run = newRun({ provider: this.provider, model: this.model, choice }, Date.now());
    this.runs = { ...this.runs, [key]: run };
    this.now = Date.now();
    this.startTicker();
    return run;
  }

  private dropRun(key: string): void {
    const { [key]: _gone, ...rest } = this.runs;
    void _gone;
    this.runs = rest;
  }

  private onEvent(key: string, event: StreamEvent): void {
    const run = this.runs[key];
    if (!run || run.closed) return;
    const next = foldEvent(run, event, Date.now());
    this.runs = { ...this.runs, [key]: next };
    if (event.type === 'started') {
      const pending = this.pendingUser.get(key);
      if (pending && this.current?.id === key) {
        this.current = {
          ...this.current,
          messages: this.current.messages.map((m) => (m.id === pending.localId ? { ...m, id: event.userMessageId } : m)),
        };
      }
      this.pendingUser.delete(key);
      if (this.cancelWanted.has(key)) void this.cancel(key);
    }
    if (next.closed) void this.finish(key, next);
  }

  private async finish(key: string, run: LiveRun): Promise<void> {
    this.cancelWanted.delete(key);
    this.pendingUser.delete(key);
    if (this.current?.id === key) {
      const messages = this.current.messages.filter((m) => m.id !== run.message.id);
      this.current = { ...this.current, messages: [...messages, run.message] };
    }
    this.dropRun(key);
    if (key !== DRAFT) this.pendingModel.delete(key);
    if (this.reloadAfter.delete(key) && this.current?.id === key) {
      try {
        const view = await ipc.getConversation(key);
        if (this.current?.id === key && !this.runs[key]) this.current = view;
      } catch {
        // What we folded is shown; the next open reloads it.
      }
    }
    await this.refreshConversations();
    // The backend titles a conversation from its first message.
    const summary = this.conversations.find((c) => c.id === key);
    if (summary && this.current?.id === key && this.current.title !== summary.title) {
      this.current = { ...this.current, title: summary.title };
    }
  }

  private userMessage(id: string, text: string): MessageView {
    return {
      id,
      role: 'user',
      status: 'complete',
      notes: [],
      parts: [{ type: 'text', text }],
      provider: null,
      model: null,
      choice: null,
      usage: {},
      thinkingMs: null,
      stop: null,
      error: null,
      createdAt: Date.now(),
    };
  }

  /** Starts a run for `text`; false when it could not start (the caller keeps the text). */
  async send(text: string): Promise<boolean> {
    const provider = this.provider;
    const model = this.model;
    if (!provider || !model) return false;
    let conversation = this.current;
    if (!conversation) {
      try {
        conversation = await ipc.createConversation(provider, model, this.reasoning);
        const draftNotes = this.notes[DRAFT] ?? [];
        this.current = { ...conversation, messages: conversation.messages ?? [] };
        this.notes = { ...this.notes, [DRAFT]: [], [conversation.id]: draftNotes };
        this.conversations = sortConversations([summaryOf(conversation), ...this.conversations]);
      } catch (raw) {
        this.errorNote(AppError.from(raw));
        return false;
      }
    }
    const key = conversation.id;
    const once = this.once;
    const localId = `local-${Date.now()}`;
    this.current = { ...conversation, messages: [...(this.current?.messages ?? []), this.userMessage(localId, text)] };
    this.pendingUser.set(key, { localId });
    this.beginRun(key, once ?? this.reasoning.choice);
    try {
      const started = await ipc.sendMessage(
        { conversationId: key, text, provider, model, choice: this.reasoning.choice, once },
        (event) => this.onEvent(key, event),
      );
      // The override was for this message only.
      this.once = null;
      const run = this.runs[key];
      if (run && !run.runId && started.runId) this.runs = { ...this.runs, [key]: { ...run, runId: started.runId } };
      if (this.cancelWanted.has(key)) void this.cancel(key);
      // The first message names the conversation; show the name while the answer streams.
      void this.refreshConversations().then(() => {
        const summary = this.conversations.find((c) => c.id === key);
        if (summary?.title && this.current?.id === key && this.current.title !== summary.title) {
          this.current = { ...this.current, title: summary.title };
        }
      });
      return true;
    } catch (raw) {
      const err = AppError.from(raw);
      this.dropRun(key);
      this.pendingUser.delete(key);
      if (this.current?.id === key) {
        this.current = { ...this.current, messages: this.current.messages.filter((m) => m.id !== localId) };
      }
      this.errorNote(err, { actions: err.code === 'missingKey' || err.code === 'auth' ? [{ kind: 'addKey', provider }] : [] });
      return false;
    }
  }

  private async startOver(kind: 'regenerate' | 'edit', messageId: string, text = ''): Promise<void> {
    const current = this.current;
    if (!current || this.running) return;
    const key = current.id;
    const at = current.messages.findIndex((m) => m.id === messageId);
    if (at < 0) return;
    const kept = current.messages.slice(0, at);
    const localId = `local-${Date.now()}`;
    this.current = { ...current, messages: kind === 'edit' ? [...kept, this.userMessage(localId, text)] : kept };
    if (kind === 'edit') this.pendingUser.set(key, { localId });
    this.reloadAfter.add(key);
    this.beginRun(key, this.reasoning.choice);
    try {
      const onEvent = (event: StreamEvent) => this.onEvent(key, event);
      const started = kind === 'edit' ? await ipc.editAndResend(messageId, text, onEvent) : await ipc.regenerate(messageId, onEvent);
      const run = this.runs[key];
      if (run && !run.runId && started.runId) this.runs = { ...this.runs, [key]: { ...run, runId: started.runId } };
    } catch (raw) {
      this.dropRun(key);
      this.reloadAfter.delete(key);
      this.pendingUser.delete(key);
      if (this.current?.id === key) this.current = current;
      this.errorNote(AppError.from(raw));
      if (kind === 'edit') this.input = text;
    }
  }

  regenerate(messageId: string): Promise<void> {
    return this.startOver('regenerate', messageId);
  }

  editAndResend(messageId: string, text: string): Promise<void> {
    return this.startOver('edit', messageId, text);
  }

  /** Stops the answer streaming into the conversation on screen (Esc). */
  stop(): void {
    if (this.running) void this.cancel(this.key);
  }

  private async cancel(key: string): Promise<void> {
    const run = this.runs[key];
    if (!run || run.closed) return;
    if (!run.runId) {
      // Not started yet: cancel as soon as the backend names the run.
      this.cancelWanted.add(key);
      return;
    }
    this.cancelWanted.delete(key);
    try {
      await ipc.cancelRun(run.runId);
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  /** The user text an assistant message answered, for "Start a new conversation". */
  promptBefore(messageId: string): string {
    const messages = this.current?.messages ?? [];
    const at = messages.findIndex((m) => m.id === messageId);
    for (let i = (at < 0 ? messages.length : at) - 1; i >= 0; i--) {
      const m = messages[i];
      if (m?.role === 'user') return m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    }
    return '';
  }

  /** "Start a new conversation" from an error: a new chat with the same model and the text. */
  startFresh(text: string): void {
    const provider = this.provider;
    const model = this.model;
    const reasoning = this.reasoning;
    this.newChat();
    this.provider = provider;
    this.model = model;
    this.reasoning = { ...reasoning };
    this.input = text;
  }

  // ---- search ----

  async runSearch(): Promise<void> {
    const query = this.search.trim();
    const seq = ++this.searchSeq;
    if (!query) {
      this.hits = null;
      this.searching = false;
      return;
    }
    this.searching = true;
    try {
      const hits = await ipc.search(query, this.searchThoughts);
      if (seq === this.searchSeq) this.hits = hits;
    } catch (raw) {
      if (seq === this.searchSeq) {
        this.hits = [];
        this.error = AppError.from(raw);
      }
    } finally {
      if (seq === this.searchSeq) this.searching = false;
    }
  }

  // ---- settings ----

  async updateSettings(patch: Partial<AppSettings>): Promise<boolean> {
    try {
      this.applySettings(await ipc.updateSettings(patch));
      return true;
    } catch (raw) {
      this.error = AppError.from(raw);
      return false;
    }
  }

  /** The theme goes through `set_theme`, as the status line's switch does. */
  syncTheme(theme: Theme): void {
    this.settings = { ...this.settings, theme };
  }

  async setProvider(id: string, change: Partial<{ enabled: boolean; baseUrl: string | null }>): Promise<void> {
    const view = this.providers.find((p) => p.id === id);
    const saved = this.settings.providers?.[id];
    const entry = {
      enabled: change.enabled ?? saved?.enabled ?? view?.enabled ?? true,
      baseUrl: change.baseUrl !== undefined ? change.baseUrl : (saved?.baseUrl ?? null),
      models: saved?.models ?? [],
    };
    if (await this.updateSettings({ providers: { ...this.settings.providers, [id]: entry } })) await this.refreshCatalog();
  }

  /** Hides one thought of an answer, or shows it again; the stored message comes back. */
  async setThoughtHidden(messageId: string, index: number, hidden: boolean): Promise<void> {
    try {
      const view = await ipc.setThoughtHidden(messageId, index, hidden);
      if (this.current) {
        this.current = { ...this.current, messages: this.current.messages.map((m) => (m.id === view.id ? view : m)) };
      }
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  /** Adds a server of the user's own; null when it was added, else why not. */
  async addCustomProvider(provider: NewCustomProvider): Promise<string | null> {
    try {
      await ipc.addCustomProvider(provider);
      this.settings = await ipc.getSettings();
      await this.refreshCatalog();
      void this.refreshLive();
      return null;
    } catch (raw) {
      return AppError.from(raw).message;
    }
  }

  async removeCustomProvider(id: string): Promise<void> {
    try {
      await ipc.removeCustomProvider(id);
      this.settings = await ipc.getSettings();
      await this.refreshCatalog();
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  /** Adds a model id the user typed to a provider; returns it as the picker shows it. */
  async addModel(provider: string, id: string): Promise<ModelView | null> {
    try {
      const model = await ipc.addModel(provider, id);
      this.settings = await ipc.getSettings();
      await this.refreshCatalog();
      return this.models.find((m) => m.provider === model.provider && m.id === model.id) ?? model;
    } catch (raw) {
      this.error = AppError.from(raw);
      return null;
    }
  }

  async setKey(provider: string, key: string): Promise<boolean> {
    try {
      const view = await ipc.setApiKey(provider, key);
      this.providers = this.providers.map((p) => (p.id === provider ? view : p));
      await this.refreshCatalog();
      // With a key the provider can be asked for its own list.
      void this.refreshLive();
      return true;
    } catch (raw) {
      this.error = AppError.from(raw);
      return false;
    }
  }

  async clearKey(provider: string): Promise<void> {
    try {
      const view = await ipc.clearApiKey(provider);
      this.providers = this.providers.map((p) => (p.id === provider ? view : p));
      await this.refreshCatalog();
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async purge(days: number): Promise<PurgeReport | null> {
    try {
      const report = await ipc.purgeThoughts(days);
      if (this.current) await this.open(this.current.id);
      return report;
    } catch (raw) {
      this.error = AppError.from(raw);
      return null;
    }
  }

  async exportCurrent(format: ExportFormat, thoughts: ExportThoughts): Promise<void> {
    if (!this.current) return;
    try {
      const { path } = await ipc.exportConversation(this.current.id, format, thoughts);
      if (path) this.ui.say(`Exported to ${path}`, 6000);
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }

  async importFile(): Promise<void> {
    try {
      const report = await ipc.importFile();
      if (!report) return;
      this.ui.say(`Imported ${report.conversations} conversation${report.conversations === 1 ? '' : 's'} with ${report.messages} messages`, 6000);
      await this.refreshConversations();
    } catch (raw) {
      this.error = AppError.from(raw);
    }
  }
}

function summaryOf(view: ConversationView): ConversationSummary {
  return {
    id: view.id,
    title: view.title,
    updatedAt: view.updatedAt,
    provider: view.provider,
    model: view.model,
    pinned: view.pinned,
    archived: view.archived,
    messageCount: view.messages?.length ?? 0,
  };
}

/** Pinned first, then newest first. */
export function sortConversations(list: readonly ConversationSummary[]): ConversationSummary[] {
  return [...list].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt - a.updatedAt);
}
