// The conversation on screen: its messages, the model and level chosen for it, and the
// composer's text. The other concerns live beside it — settings, the catalog of models, the
// conversation list, the runs — and the session's own work is split among helpers (notes,
// the reasoning choice, profiles, sending, slash commands, versions, stored answers, several
// levels). Each declares the few members of the session it uses, so none imports this file
// back; this class only ties them together for one conversation.
import { tick, untrack } from 'svelte';

import { droppedName, pastedName, storeFile, withFiles } from './attaching';
import type { CatalogState } from './catalog.svelte';
import { hintGarbage } from './collector';
import { messageFromText, parseCommand } from './commands';
import type { ConversationsState } from './conversations.svelte';
import { afterNextFrame, HIDDEN_WAIT_MS } from './frames';
import { AppError, ipc } from './ipc';
import { trimRenderedMarkdown } from './markdown';
import { Notes } from './notes.svelte';
import { markStep } from './perf';
import { Profiles } from './profiles';
import { ReasoningChoice } from './reasoning-choice.svelte';
import type { RunsState } from './runs.svelte';
import type { AttachedFile } from './ipc-generated';
import { Sending } from './sending';
import { DRAFT, type SessionParts } from './session-types';
import type { SettingsState } from './settings.svelte';
import { SeveralLevels } from './several.svelte';
import { SlashCommands } from './slash';
import { StoredAnswers } from './stored';
import type { LiveRun } from './stream';
import { joinAtEnd, ThreadRows, type ThreadItem } from './thread';
import { MergedTurns } from './turns';
import { defaultReasoningSettings, type AppSettings, type Choice, type ConversationView, type ModelView, type ReasoningSettings, type ToolDecision } from './types';
import type { Ui } from './ui.svelte';
import { Versions } from './versions';

/** How many messages a conversation is opened with before the rest is read: more than a tall
 * window shows of short messages, so the first screen is whole. */
const FIRST_READ = 40;
/** A thread this long, once left, is worth having collected (`leave`). */
const LONG_THREAD_MESSAGES = 100;

export class ChatSession {
  current = $state.raw<ConversationView | null>(null);
  private readonly merged = new MergedTurns();
  /** The stored messages with each tool loop joined into one answer; recomputed only when
   * they change (not on every batch of a streaming answer, nor with the title or the cost),
   * and then from the first message that changed. */
  private readonly shown = $derived(this.merged.of(this.current?.messages ?? []));
  loading = $state(false);
  loaded = $state(false);

  /** The model and level for the conversation on screen (or the new chat). */
  provider = $state<string | null>(null);
  model = $state<string | null>(null);
  reasoning = $state.raw<ReasoningSettings>(defaultReasoningSettings());

  /** The composer's text; kept here so a failed send or an error fix can put it back. */
  input = $state('');
  /** Files to go with the next question, stored already: the composer's chips. */
  files = $state.raw<AttachedFile[]>([]);
  /** A message to bring into view (a search hit). */
  reveal = $state<{ id: string; token: number } | null>(null);

  private readonly ui: Ui;
  private readonly settings: SettingsState;
  private readonly catalog: CatalogState;
  private readonly conversations: ConversationsState;
  private readonly runs: RunsState;
  private readonly slash: SlashCommands;
  private readonly sending: Sending;
  /** The notes between the thread's messages, per conversation. */
  readonly notes: Notes;
  /** Changes of model and level, and the one-message override. */
  readonly choice: ReasoningChoice;
  readonly profiles: Profiles;
  /** Moving between, deleting and bringing back versions of a message. */
  readonly versions: Versions;
  /** One question asked at several levels at once. */
  readonly several: SeveralLevels;
  /** Thoughts hidden or purged, and exports, of the stored answers. */
  readonly stored: StoredAnswers;

  constructor(parts: SessionParts) {
    this.ui = parts.ui;
    this.settings = parts.settings;
    this.catalog = parts.catalog;
    this.conversations = parts.conversations;
    this.runs = parts.runs;
    this.notes = new Notes(this, (text) => this.ui.announce(text, true));
    this.choice = new ReasoningChoice(this, parts.catalog);
    this.profiles = new Profiles(this, parts.settings);
    this.sending = new Sending(this, parts);
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
  private readonly threadRows = new ThreadRows();
  private readonly rows = $derived.by(() => {
    const live = this.liveId === null ? null : untrack(() => this.run?.message ?? null);
    return this.threadRows.of(this.shown, live, this.notes.of(this.key));
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
    const whole = await this.conversations.refreshFirst();
    await afterNextFrame(HIDDEN_WAIT_MS);
    const [settings] = await Promise.allSettled([loadShell(), this.catalog.load()]);
    if (settings.status === 'fulfilled' && settings.value && typeof settings.value === 'object') this.settings.apply(settings.value);
    if (!this.current) this.useDefaults();
    this.loading = false;
    this.loaded = true;
    // The rest of a long list once the window is drawn and the chat is ready.
    await afterNextFrame(HIDDEN_WAIT_MS);
    await this.conversations.readRest(whole);
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
    this.leave(null);
    this.current = null;
    this.choice.clearOnce();
    this.useDefaults();
    this.notes.clear(DRAFT);
    this.ui.focusComposer += 1;
  }

  async open(id: string, revealId: string | null = null): Promise<void> {
    try {
      // A long thread opens at its end: its last screenful is read, sent and drawn first and
      // the rest joins above it right after. A message to reveal may be anywhere: all of it.
      const view = await ipc.getConversation(id, revealId ? null : FIRST_READ);
      markStep('ponder:open:read');
      this.leave(view.id);
      this.current = view;
      void tick().then(() => {
        markStep('ponder:open:rendered');
        if (view.earlier > 0) void this.readEarlier(view);
      });
      const switched = this.sending.switchedModel(id);
      this.provider = switched?.provider ?? view.provider;
      this.model = switched?.model ?? view.model;
      this.reasoning = { ...defaultReasoningSettings(), ...view.settings };
      this.choice.clearOnce();
      if (revealId) this.reveal = { id: revealId, token: Date.now() };
      this.ui.focusComposer += 1;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** The conversation shown is left for another (`next`; null for a new chat): the Markdown
   * cache keeps only its latest answers, and a long thread, tens of megabytes the page's
   * engine would hold while the app idles, is pointed out to it (lib/collector). */
  private leave(next: string | null): void {
    const left = this.current;
    if (!left || left.id === next) return;
    trimRenderedMarkdown();
    if (left.messages.length < LONG_THREAD_MESSAGES) return;
    // Once the next conversation is drawn: the sign costs a frame's creation.
    void afterNextFrame(HIDDEN_WAIT_MS).then(() => hintGarbage());
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
   * other levels added), unless an answer is streaming into it. `atEnd`: only its end
   * changed, so only its end is read and joined below what is shown (a thread of thousands
   * of messages is not read and drawn again whole). */
  async refreshView(key: string | null = null, atEnd = false): Promise<void> {
    const id = this.current?.id;
    if (!id || (key !== null && key !== id) || this.running) return;
    try {
      const view = await ipc.getConversation(id, atEnd ? FIRST_READ : null);
      const still = (): boolean => this.current?.id === id && !this.running;
      if (!still() || !this.current) return;
      const joined = atEnd ? joinAtEnd(this.current, view) : view;
      if (joined) {
        this.current = joined;
        return;
      }
      const whole = await ipc.getConversation(id);
      if (still()) this.current = whole;
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

  // ---- model ----

  /** Switches the conversation on screen to `model`. */
  useModel(model: ModelView): void {
    this.provider = model.provider;
    this.model = model.id;
    if (!this.current) return;
    this.sending.switchModel(this.current.id, model);
    // Saved at once, so the choice survives a restart before the next message.
    ipc.setConversationModel(this.current.id, model.provider, model.id).catch(() => {});
  }

  // ---- sending ----

  /** Sends the composer's text, or runs it as a command; `pdfAsText` when the user agreed
   * that a PDF goes as its text to a model that reads none. */
  async submit({ pdfAsText = false }: { pdfAsText?: boolean } = {}): Promise<void> {
    const text = this.input;
    if (!text.trim() && this.files.length === 0) return;
    const command = parseCommand(text);
    if (command) {
      this.input = '';
      const clear = await this.slash.run(command);
      if (!clear && this.input === '') this.input = text;
      return;
    }
    if (this.busy || this.disabledReason) return;
    const files = this.files;
    this.input = '';
    this.files = [];
    const sent = await this.sending.send(messageFromText(text), [], files, pdfAsText);
    // The user's text and files are never lost: a send that could not start puts them back.
    if (!sent && this.input === '') this.input = text;
    if (!sent && this.files.length === 0) this.files = files;
  }

  /** Opens the file dialog: the files chosen join the next question; one refused is said why. */
  async attach(): Promise<void> {
    try {
      const picked = await ipc.pickAttachments();
      this.files = withFiles(this.files, picked.files);
      if (picked.refused.length > 0) this.notes.add(picked.refused, 'warning');
    } catch (raw) {
      this.notes.addError(AppError.from(raw));
    }
  }

  /** Whether files can be dropped here now: when a question could be sent (a model is chosen). */
  get canTakeFiles(): boolean {
    return this.disabledReason === null;
  }

  /**
   * Stores files pasted (`how` = 'paste') or dropped, one after another in their order: each
   * joins the next question as soon as it is stored (once, however often it is given); those
   * refused are said why together, in one note.
   */
  async attachFiles(files: readonly File[], how: 'paste' | 'drop'): Promise<void> {
    const at = new Date();
    const refused: string[] = [];
    for (const file of files) {
      const name = (how === 'paste' ? pastedName : droppedName)(file.name, file.type, at);
      try {
        const picked = await storeFile(file, name, ipc.attachBytes);
        this.files = withFiles(this.files, picked.files);
        refused.push(...picked.refused);
      } catch (raw) {
        this.notes.addError(AppError.from(raw));
      }
    }
    if (refused.length > 0) this.notes.add(refused, 'warning');
  }

  removeFile(sha256: string): void {
    this.files = this.files.filter((f) => f.sha256 !== sha256);
  }

  /** The user's answer on a tool call's approval card. */
  async answerToolCall(callId: string, decision: ToolDecision): Promise<void> {
    const runId = this.run?.runId;
    if (!runId) return;
    try {
      await ipc.answerToolCall(runId, callId, decision);
      // The card, and the button that had the focus, are gone: the focus goes to the composer.
      this.ui.focusComposer += 1;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** Asks the composer's text at each of `choices` (two to four levels of the model chosen),
   * all at once: the first is the answer shown, the others its versions. */
  async askAtLevels(choices: Choice[]): Promise<void> {
    const text = this.input;
    if (!text.trim() || parseCommand(text) || this.busy || this.disabledReason || choices.length < 2) return;
    const [first, ...rest] = choices.slice(0, 4);
    this.input = '';
    this.choice.once = first ?? null;
    const sent = await this.sending.send(messageFromText(text), rest);
    if (!sent && this.input === '') this.input = text;
  }

  regenerate(messageId: string): Promise<void> {
    return this.sending.startOver('regenerate', messageId);
  }

  /** Answers the question again with another model and level, as another version to compare. */
  rerun(messageId: string, model: ModelView, choice: Choice): Promise<void> {
    return this.sending.startOver('rerun', messageId, '', { model, choice });
  }

  editAndResend(messageId: string, text: string): Promise<void> {
    return this.sending.startOver('edit', messageId, text);
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
