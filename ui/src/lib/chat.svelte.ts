// The conversation on screen: its messages and the notes between them, the model and level
// chosen for it, the composer's text and slash commands, and sending. The other concerns
// live beside it — settings, the catalog of models, the conversation list, the runs — and
// this class only ties them together for one conversation.
import { tick, untrack } from 'svelte';

import type { CatalogState } from './catalog.svelte';
import { describeSetting, messageFromText, parseCommand, settingSentence } from './commands';
import type { ConversationsState } from './conversations.svelte';
import { choiceLabel } from './format';
import { afterNextFrame, HIDDEN_WAIT_MS } from './frames';
import { AppError, ipc } from './ipc';
import type { RunsState } from './runs.svelte';
import type { SettingsState } from './settings.svelte';
import type { ToolsState } from './tools.svelte';
import { SeveralLevels } from './several.svelte';
import { StoredAnswers } from './stored';
import { SlashCommands } from './slash';
import { Versions } from './versions';
import { markStep } from './perf';
import { localUserMessage, type LiveRun } from './stream';
import { threadItems, type Note, type NoteAction, type ThreadItem } from './thread';
import { mergeToolTurns } from './turns';
import {
  defaultReasoningSettings,
  type AppSettings,
  type Choice,
  type ContextTokens,
  type ConversationView,
  type IpcErrorView,
  type ModelView,
  type ReasoningSettings,
  type StreamEvent,
  type ToolDecision,
  type TranslatePreview,
} from './types';
import type { Ui } from './ui.svelte';

/** The key of the conversation not yet created ("New chat"). */
export const DRAFT = '';

function errorView(err: AppError): IpcErrorView {
  return { code: err.code, message: err.message, retryAfterMs: err.retryAfterMs };
}

interface PendingUser {
  localId: string;
}


/** The pieces a session works with, made once by the app. */
export interface SessionParts {
  ui: Ui;
  settings: SettingsState;
  catalog: CatalogState;
  conversations: ConversationsState;
  runs: RunsState;
  tools: ToolsState;
}

/** What the next request will be, for the reasoning panel. */
export interface NextRequest {
  preview: TranslatePreview | null;
  error: string | null;
  context: ContextTokens | null;
}

/** How many messages a conversation is opened with before the rest is read: more than a tall
 * window shows of short messages, so the first screen is whole. */
const FIRST_READ = 40;

export class ChatSession {
  current = $state.raw<ConversationView | null>(null);
  /** The stored messages with each tool loop joined into one answer; recomputed only when
   * they change, not on every batch of a streaming answer. */
  private readonly shown = $derived(mergeToolTurns(this.current?.messages ?? []));
  loading = $state(false);
  loaded = $state(false);

  /** The model and level for the conversation on screen (or the new chat). */
  provider = $state<string | null>(null);
  model = $state<string | null>(null);
  reasoning = $state.raw<ReasoningSettings>(defaultReasoningSettings());
  /** The one-message override: used by the next send only. */
  once = $state<Choice | null>(null);

  /** The composer's text; kept here so a failed send or an error fix can put it back. */
  input = $state('');
  notes = $state.raw<Record<string, Note[]>>({});
  /** A message to bring into view (a search hit). */
  reveal = $state<{ id: string; token: number } | null>(null);

  private noteSeq = 0;
  private reloadAfter = new Set<string>();
  private pendingUser = new Map<string, PendingUser>();
  /** Model switches not yet saved on a conversation (the backend saves them on send). */
  private pendingModel = new Map<string, { provider: string; model: string }>();

  private readonly ui: Ui;
  private readonly settings: SettingsState;
  private readonly catalog: CatalogState;
  private readonly conversations: ConversationsState;
  private readonly runs: RunsState;
  private readonly slash: SlashCommands;
  /** Moving between, deleting and bringing back versions of a message. */
  readonly versions: Versions;
  /** One question asked at several levels at once. */
  readonly several: SeveralLevels;
  /** Thoughts hidden or purged, and exports, of the stored answers. */
  readonly stored: StoredAnswers;
  /** Levels to ask at besides the first, once the backend has stored the question. */
  private alsoAt = new Map<string, Choice[]>();

  constructor(parts: SessionParts) {
    this.ui = parts.ui;
    this.settings = parts.settings;
    this.catalog = parts.catalog;
    this.conversations = parts.conversations;
    this.runs = parts.runs;
    this.slash = new SlashCommands(this, parts);
    this.versions = new Versions(this, parts.ui);
    this.several = new SeveralLevels(this);
    this.stored = new StoredAnswers(this, parts.ui);
  }

  // ---- derived ----

  get key(): string {
    return this.current?.id ?? DRAFT;
  }

  get run(): LiveRun | null {
    return this.runs.get(this.key);
  }

  get running(): boolean {
    return this.runs.isRunning(this.key);
  }

  /** An answer is running here, or other levels of one. */
  get busy(): boolean {
    return this.running || this.several.running(this.key);
  }

  get selectedModel(): ModelView | null {
    return this.catalog.find(this.provider, this.model);
  }

  /** Why Send is not possible, or null when it is. */
  get disabledReason(): string | null {
    if (!this.model || !this.provider) return 'No model chosen yet.';
    return null;
  }

  get items(): ThreadItem[] {
    return this.rows;
  }

  /** The streaming answer's id: it changes when a run starts or ends, not with each batch. */
  private readonly liveId = $derived(this.run?.message.id ?? null);
  /** Made again when the messages, the notes or the running answer change; a batch of tokens
   * changes only the live row (Thread reads the run for it), so a long thread's thousands
   * of rows are not rebuilt, measured and windowed again every frame of a stream. */
  private readonly rows = $derived.by(() => {
    const live = this.liveId === null ? null : untrack(() => this.run?.message ?? null);
    return threadItems(this.shown, live, this.notes[this.key] ?? []);
  });

  // ---- loading ----

  /**
   * Loads everything the chat needs: the conversation list alone first, and the rest (the
   * shell's about box and settings, through `loadShell`, and the catalog) once the list is
   * drawn. Asked for together, their answers (the model list alone is about 150 KB) kept the
   * window busy while the list waited for its frame: on the page's clock, the list was drawn
   * at 215–305 ms; the list first, at 170–210 ms.
   */
  async load(loadShell: () => Promise<Partial<AppSettings> | null>): Promise<void> {
    this.loading = true;
    await this.conversations.refresh();
    await afterNextFrame(HIDDEN_WAIT_MS);
    const [settings] = await Promise.allSettled([loadShell(), this.catalog.load()]);
    if (settings.status === 'fulfilled' && settings.value && typeof settings.value === 'object') this.settings.apply(settings.value);
    if (!this.current) this.useDefaults();
    this.loading = false;
    this.loaded = true;
    void this.catalog.refreshLive();
  }

  private useDefaults(): void {
    const { defaultProvider, defaultModel, defaultChoice } = this.settings.current;
    const model = this.catalog.models.find((m) => m.id === defaultModel && (!defaultProvider || m.provider === defaultProvider));
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
      // A long thread opens at its end: its last screenful is read, sent and drawn first and
      // the rest joins above it right after. A message to reveal may be anywhere: all of it.
      const view = await ipc.getConversation(id, revealId ? null : FIRST_READ);
      markStep('ponder:open:read');
      this.current = view;
      void tick().then(() => {
        markStep('ponder:open:rendered');
        if (view.earlier > 0) void this.readEarlier(view);
      });
      const pending = this.pendingModel.get(id);
      this.provider = pending?.provider ?? view.provider;
      this.model = pending?.model ?? view.model;
      this.reasoning = { ...defaultReasoningSettings(), ...view.settings };
      this.once = null;
      if (revealId) this.reveal = { id: revealId, token: Date.now() };
      this.ui.focusComposer += 1;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** Joins the rest of a thread opened at its end above what is shown, once that is drawn,
   * unless the view changed meanwhile (another conversation, or a whole view read since). */
  private async readEarlier(view: ConversationView): Promise<void> {
    const first = view.messages[0]?.id;
    if (!first) return;
    // After the frame that shows the end, so reading the rest never delays it.
    await afterNextFrame();
    try {
      const earlier = await ipc.earlierMessages(first);
      const current = this.current;
      if (current?.id !== view.id || current.earlier === 0 || current.messages[0]?.id !== first) return;
      this.current = { ...current, messages: [...earlier, ...current.messages], earlier: 0 };
      void tick().then(() => markStep('ponder:open:whole'));
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** Reads the conversation on screen again (its costs after a price change, the versions
   * other levels added), unless an answer is streaming into it. */
  async refreshView(key: string | null = null): Promise<void> {
    const id = this.current?.id;
    if (!id || (key !== null && key !== id) || this.running) return;
    try {
      const view = await ipc.getConversation(id);
      if (this.current?.id === id && !this.running) this.current = view;
    } catch {
      // What is on screen stays; the next open reads it again.
    }
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) return;
    if ((await this.conversations.rename(id, clean)) && this.current?.id === id) this.current = { ...this.current, title: clean };
  }

  async remove(id: string): Promise<void> {
    if ((await this.conversations.remove(id)) && this.current?.id === id) this.newChat();
  }

  async pin(id: string, pinned: boolean): Promise<void> {
    if ((await this.conversations.pin(id, pinned)) && this.current?.id === id) this.current = { ...this.current, pinned };
  }

  /** The list names a conversation from its first message; show that name here too. */
  private async refreshTitle(key: string): Promise<void> {
    await this.conversations.refresh();
    const summary = this.conversations.find(key);
    if (summary?.title && this.current?.id === key && this.current.title !== summary.title) {
      this.current = { ...this.current, title: summary.title };
    }
  }

  // ---- notes in the thread ----

  note(lines: string[], tone: Note['tone'] = 'info', extra: Partial<Note> = {}): Note {
    const key = this.key;
    const messages = this.current?.messages ?? [];
    const run = this.runs.get(key);
    const after = run?.message.id ?? messages.at(-1)?.id ?? null;
    const note: Note = { id: String(++this.noteSeq), tone, lines, after, ...extra };
    this.notes = { ...this.notes, [key]: [...(this.notes[key] ?? []), note] };
    return note;
  }

  /** Changes a note's lines and actions, in whichever conversation it is. */
  updateNote(key: string, id: string, lines: string[], actions: NoteAction[] = []): void {
    const list = this.notes[key];
    if (!list?.some((n) => n.id === id)) return;
    this.notes = { ...this.notes, [key]: list.map((n) => (n.id === id ? { ...n, lines, actions } : n)) };
  }

  dismissNote(id: string): void {
    const key = this.key;
    this.notes = { ...this.notes, [key]: (this.notes[key] ?? []).filter((n) => n.id !== id) };
  }

  errorNote(err: AppError, extra: Partial<Note> = {}): void {
    this.note([err.message], 'error', { error: errorView(err), ...extra });
  }

  // ---- model and level ----

  /** What the next request will send and how much context it carries. */
  async nextRequest(): Promise<NextRequest> {
    const { provider, model, reasoning } = this;
    const choice = this.once ?? reasoning.choice;
    const conversation = this.current?.id ?? null;
    if (!provider || !model) return { preview: null, error: null, context: null };
    let preview: TranslatePreview | null = null;
    let error: string | null = null;
    try {
      preview = await ipc.translatePreview(provider, model, choice, reasoning, conversation);
    } catch (raw) {
      error = AppError.from(raw).message;
    }
    let context: ContextTokens | null = preview?.contextTokens ?? null;
    if (!context && conversation) context = await ipc.contextTokens(conversation, provider, model).catch(() => null);
    return { preview, error, context };
  }

  /** The feedback lines for a model or level change: the engine's, or our own if it cannot say. */
  async feedback(model: ModelView, choice: Choice, settings: ReasoningSettings, once: boolean): Promise<void> {
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
    // A running answer keeps its model and level to the end (a tool loop is one turn, and
    // providers refuse a change of thinking within it).
    if (this.running) this.note(['The answer running now keeps its model and level; this applies from your next message.']);
    if (model.needsKey) {
      const what = this.catalog.signsIn(model.provider) ? 'you to sign in with GitHub' : 'an API key';
      this.note([`${model.providerName} needs ${what} before you can send.`], 'warning', {
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
      const sentence = settingSentence(key, next);
      this.note([`✓ ${describeSetting(next, key as never)}`, ...(sentence ? [sentence] : [])], 'success');
    }
    return true;
  }

  /** Saves or applies a reasoning profile (`/profile`, the Reasoning panel, Settings). */
  profile(action: 'save' | 'load' | 'delete' | 'list', name: string | null): Promise<boolean> {
    return this.slash.profile(action, name);
  }

  // ---- sending ----

  /** Sends the composer's text, or runs it as a command. */
  async submit(): Promise<void> {
    const text = this.input;
    if (!text.trim()) return;
    const command = parseCommand(text);
    if (command) {
      this.input = '';
      const clear = await this.slash.run(command);
      if (!clear && this.input === '') this.input = text;
      return;
    }
    if (this.busy || this.disabledReason) return;
    this.input = '';
    const sent = await this.send(messageFromText(text));
    // The user's text is never lost: a send that could not start puts it back.
    if (!sent && this.input === '') this.input = text;
  }

  private beginRun(key: string, choice: Choice | null, model: ModelView | null = null): LiveRun {
    return this.runs.begin(key, { provider: model?.provider ?? this.provider, model: model?.id ?? this.model, choice });
  }

  private onEvent(key: string, event: StreamEvent): void {
    const next = this.runs.fold(key, event);
    if (!next) return;
    if (event.type === 'started') {
      const pending = this.pendingUser.get(key);
      if (pending && this.current?.id === key) {
        this.current = {
          ...this.current,
          messages: this.current.messages.map((m) => (m.id === pending.localId ? { ...m, id: event.userMessageId } : m)),
        };
      }
      this.pendingUser.delete(key);
      const rest = this.alsoAt.get(key);
      this.alsoAt.delete(key);
      if (rest?.length && next.message.provider && next.message.model) {
        this.several.begin(key, event.userMessageId, event.messageId, next.message.provider, next.message.model, next.message.choice ?? 'default', rest);
      }
    }
    // A tool loop stores each step as its own message: the thread reloads the turn after.
    if (event.type === 'nextStep') this.reloadAfter.add(key);
    if (next.closed) void this.finish(key, next);
  }

  /** The user's answer on a tool call's approval card. */
  async answerToolCall(callId: string, decision: ToolDecision): Promise<void> {
    const runId = this.run?.runId;
    if (!runId) return;
    try {
      await ipc.answerToolCall(runId, callId, decision);
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  private async finish(key: string, run: LiveRun): Promise<void> {
    this.pendingUser.delete(key);
    if (this.current?.id === key) {
      const messages = this.current.messages.filter((m) => m.id !== run.message.id);
      // The header's cost takes in the new answer's at once (a reload below recounts it all).
      const added = run.message.cost;
      const cost = added === null || added === undefined ? this.current.cost : (this.current.cost ?? 0) + added;
      this.current = { ...this.current, messages: [...messages, run.message], cost };
    }
    this.runs.drop(key);
    if (key !== DRAFT) this.pendingModel.delete(key);
    if (this.reloadAfter.delete(key) && this.current?.id === key) {
      try {
        const view = await ipc.getConversation(key);
        if (this.current?.id === key && !this.runs.get(key)) this.current = view;
      } catch {
        // What we folded is shown; the next open reloads it.
      }
    }
    // The list's new order and title wait for the frame that shows the answer's end: made in
    // it, they made it longer.
    await afterNextFrame(HIDDEN_WAIT_MS);
    await this.refreshTitle(key);
    this.several.firstEnded(key);
  }

  /** Asks the composer's text at each of `choices` (two to four levels of the model chosen),
   * all at once: the first is the answer shown, the others its versions. */
  async askAtLevels(choices: Choice[]): Promise<void> {
    const text = this.input;
    if (!text.trim() || parseCommand(text) || this.busy || this.disabledReason || choices.length < 2) return;
    const [first, ...rest] = choices.slice(0, 4);
    this.input = '';
    this.once = first ?? null;
    const sent = await this.send(messageFromText(text), rest);
    if (!sent && this.input === '') this.input = text;
  }

  /** Starts a run for `text`, and then at the levels `alsoAt`; false when it could not
   * start (the caller keeps the text). */
  async send(text: string, alsoAt: Choice[] = []): Promise<boolean> {
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
        this.conversations.add(conversation);
      } catch (raw) {
        this.errorNote(AppError.from(raw));
        return false;
      }
    }
    const key = conversation.id;
    const once = this.once;
    const localId = `local-${Date.now()}`;
    this.current = { ...conversation, messages: [...(this.current?.messages ?? []), localUserMessage(localId, text)] };
    this.pendingUser.set(key, { localId });
    if (alsoAt.length) this.alsoAt.set(key, alsoAt);
    this.beginRun(key, once ?? this.reasoning.choice);
    try {
      const started = await ipc.sendMessage(
        { conversationId: key, text, provider, model, choice: this.reasoning.choice, once },
        (event) => this.onEvent(key, event),
      );
      // The override was for this message only.
      this.once = null;
      this.runs.started(key, started.runId);
      // The first message names the conversation; show the name while the answer streams.
      void this.refreshTitle(key);
      return true;
    } catch (raw) {
      const err = AppError.from(raw);
      this.runs.drop(key);
      this.pendingUser.delete(key);
      this.alsoAt.delete(key);
      if (this.current?.id === key) {
        this.current = { ...this.current, messages: this.current.messages.filter((m) => m.id !== localId) };
      }
      this.errorNote(err, { actions: err.code === 'missingKey' || err.code === 'auth' ? [{ kind: 'addKey', provider }] : [] });
      return false;
    }
  }

  private async startOver(kind: 'regenerate' | 'edit' | 'rerun', messageId: string, text = '', rerun: { model: ModelView; choice: Choice } | null = null): Promise<void> {
    const current = this.current;
    if (!current || this.running) return;
    const key = current.id;
    const at = current.messages.findIndex((m) => m.id === messageId);
    if (at < 0) return;
    const kept = current.messages.slice(0, at);
    const localId = `local-${Date.now()}`;
    this.current = { ...current, messages: kind === 'edit' ? [...kept, localUserMessage(localId, text)] : kept };
    if (kind === 'edit') this.pendingUser.set(key, { localId });
    this.reloadAfter.add(key);
    this.beginRun(key, rerun?.choice ?? this.reasoning.choice, rerun?.model ?? null);
    try {
      const onEvent = (event: StreamEvent) => this.onEvent(key, event);
      const started =
        kind === 'edit'
          ? await ipc.editAndResend(messageId, text, onEvent)
          : kind === 'rerun' && rerun
            ? await ipc.rerun(messageId, rerun.model.provider, rerun.model.id, rerun.choice, onEvent)
            : await ipc.regenerate(messageId, onEvent);
      this.runs.started(key, started.runId);
    } catch (raw) {
      this.runs.drop(key);
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

  /** Answers the question again with another model and level, as another version to compare. */
  rerun(messageId: string, model: ModelView, choice: Choice): Promise<void> {
    return this.startOver('rerun', messageId, '', { model, choice });
  }

  editAndResend(messageId: string, text: string): Promise<void> {
    return this.startOver('edit', messageId, text);
  }

  /** Stops the answer streaming into the conversation on screen (Esc). */
  stop(): void {
    if (this.running) void this.runs.cancel(this.key);
    this.several.stop(this.key);
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
}
