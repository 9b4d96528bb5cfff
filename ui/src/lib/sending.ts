// Starting an answer and following it to its end: a new message, or an earlier one asked
// again (regenerated, edited, or put to another model). The thread shows the user's message
// at once and the answer as it streams; once the run ends, what the backend stored replaces
// what was folded from its events.
import { afterNextFrame, HIDDEN_WAIT_MS } from './frames';
import { AppError, ipc } from './ipc';
import type { Notes } from './notes.svelte';
import type { ReasoningChoice } from './reasoning-choice.svelte';
import { DRAFT, type SessionParts } from './session-types';
import type { SeveralLevels } from './several.svelte';
import { localUserMessage, type LiveRun } from './stream';
import type { AttachedFile } from './ipc-generated';
import type { Choice, ConversationView, ModelView, ReasoningSettings, StreamEvent } from './types';

interface ModelSwitch {
  provider: string;
  model: string;
}

/** What a conversation's next or running turn still owes, kept until the backend answers. */
export interface PendingTurn {
  /** The user's message as shown before the backend stored it: the stored id replaces it
   * when the run starts. */
  localId: string | null;
  /** A model switch not yet saved on the conversation (the backend saves it on send). */
  model: ModelSwitch | null;
  /** Levels to ask at besides the first, once the backend has stored the question. */
  alsoAt: Choice[];
  /** A tool loop stores each step as its own message, and an answer asked again replaces
   * what followed: either way the thread is read again when the run ends. */
  reload: boolean;
}

/** The part of the session a turn reads and writes: the thread it adds to, the model and
 * level it goes with, and the composer's text an edit that could not start gives back. */
export interface SendingHost {
  current: ConversationView | null;
  readonly provider: string | null;
  readonly model: string | null;
  readonly reasoning: ReasoningSettings;
  readonly running: boolean;
  input: string;
  readonly notes: Pick<Notes, 'addError' | 'move'>;
  readonly choice: Pick<ReasoningChoice, 'once' | 'clearOnce'>;
  readonly several: Pick<SeveralLevels, 'begin' | 'firstEnded'>;
}

type StartOver = 'regenerate' | 'edit' | 'rerun';

export class Sending {
  private readonly pending = new Map<string, PendingTurn>();

  constructor(
    private readonly host: SendingHost,
    private readonly parts: Pick<SessionParts, 'runs' | 'conversations'>,
  ) {}

  /** A conversation's record, made empty the first time. Records are never dropped, so one
   * held across an await is still the conversation's when the backend answers. */
  private turn(key: string): PendingTurn {
    let turn = this.pending.get(key);
    if (!turn) {
      turn = { localId: null, model: null, alsoAt: [], reload: false };
      this.pending.set(key, turn);
    }
    return turn;
  }

  /** The model switch a conversation still waits to have saved, if any. */
  switchedModel(key: string): ModelSwitch | null {
    return this.pending.get(key)?.model ?? null;
  }

  switchModel(key: string, model: ModelView): void {
    this.turn(key).model = { provider: model.provider, model: model.id };
  }

  private beginRun(key: string, choice: Choice | null, model: ModelView | null = null): LiveRun {
    return this.parts.runs.begin(key, { provider: model?.provider ?? this.host.provider, model: model?.id ?? this.host.model, choice });
  }

  private onEvent(key: string, event: StreamEvent): void {
    const host = this.host;
    const next = this.parts.runs.fold(key, event);
    if (!next) return;
    const turn = this.turn(key);
    if (event.type === 'started') {
      const { localId, alsoAt } = turn;
      if (localId !== null && host.current?.id === key) {
        host.current = {
          ...host.current,
          messages: host.current.messages.map((m) => (m.id === localId ? { ...m, id: event.userMessageId } : m)),
        };
      }
      turn.localId = null;
      turn.alsoAt = [];
      if (alsoAt.length && next.message.provider && next.message.model) {
        host.several.begin(key, event.userMessageId, event.messageId, next.message.provider, next.message.model, next.message.choice ?? 'default', alsoAt);
      }
    }
    if (event.type === 'nextStep') turn.reload = true;
    if (next.closed) void this.finish(key, next);
  }

  private async finish(key: string, run: LiveRun): Promise<void> {
    const host = this.host;
    const turn = this.turn(key);
    turn.localId = null;
    if (host.current?.id === key) {
      const messages = host.current.messages.filter((m) => m.id !== run.message.id);
      // The header's cost takes in the new answer's at once (a reload below recounts it all).
      const added = run.message.cost;
      const cost = added === null || added === undefined ? host.current.cost : (host.current.cost ?? 0) + added;
      host.current = { ...host.current, messages: [...messages, run.message], cost };
    }
    this.parts.runs.drop(key);
    if (key !== DRAFT) turn.model = null;
    const reload = turn.reload;
    turn.reload = false;
    if (reload && host.current?.id === key) {
      try {
        const view = await ipc.getConversation(key);
        if (host.current?.id === key && !this.parts.runs.get(key)) host.current = view;
      } catch {
        // What we folded is shown; the next open reloads it.
      }
    }
    // The list's new order and title wait for the frame that shows the answer's end: made in
    // it, they made it longer.
    await afterNextFrame(HIDDEN_WAIT_MS);
    await this.refreshTitle(key);
    host.several.firstEnded(key);
  }

  /** The list names a conversation from its first message; show that name here too. */
  private async refreshTitle(key: string): Promise<void> {
    const { conversations } = this.parts;
    await conversations.refreshTop();
    const summary = conversations.find(key);
    const current = this.host.current;
    if (summary?.title && current?.id === key && current.title !== summary.title) {
      this.host.current = { ...current, title: summary.title };
    }
  }

  /** Starts a run for `text`, and then at the levels `alsoAt`; false when it could not
   * start (the caller keeps the text). */
  async send(text: string, alsoAt: Choice[] = [], files: readonly AttachedFile[] = [], pdfAsText = false): Promise<boolean> {
    const host = this.host;
    const { provider, model } = host;
    if (!provider || !model) return false;
    let conversation = host.current;
    if (!conversation) {
      try {
        conversation = await ipc.createConversation(provider, model, host.reasoning);
        host.current = { ...conversation, messages: conversation.messages ?? [] };
        host.notes.move(DRAFT, conversation.id);
        this.parts.conversations.add(conversation);
      } catch (raw) {
        host.notes.addError(AppError.from(raw));
        return false;
      }
    }
    const key = conversation.id;
    const once = host.choice.once;
    const localId = `local-${Date.now()}`;
    host.current = { ...conversation, messages: [...(host.current?.messages ?? []), localUserMessage(localId, text, files)] };
    const turn = this.turn(key);
    turn.localId = localId;
    // Set on every send: levels of an earlier send whose answer never started must not carry over.
    turn.alsoAt = alsoAt;
    this.beginRun(key, once ?? host.reasoning.choice);
    try {
      const started = await ipc.sendMessage(
        {
          conversationId: key,
          text,
          provider,
          model,
          choice: host.reasoning.choice,
          once,
          files: files.map(({ sha256, name }) => ({ sha256, name })),
          pdfAsText,
        },
        (event) => this.onEvent(key, event),
      );
      // The override was for this message only.
      host.choice.clearOnce();
      this.parts.runs.started(key, started.runId);
      // The first message names the conversation; show the name while the answer streams.
      void this.refreshTitle(key);
      return true;
    } catch (raw) {
      const err = AppError.from(raw);
      this.parts.runs.drop(key);
      turn.localId = null;
      turn.alsoAt = [];
      if (host.current?.id === key) {
        host.current = { ...host.current, messages: host.current.messages.filter((m) => m.id !== localId) };
      }
      host.notes.addError(err, { actions: err.code === 'missingKey' || err.code === 'auth' ? [{ kind: 'addKey', provider }] : [] });
      return false;
    }
  }

  /** Asks for a message's answer again: as it was, after an edit of the question, or from
   * another model and level (`rerun`), as another version to compare. */
  async startOver(kind: StartOver, messageId: string, text = '', rerun: { model: ModelView; choice: Choice } | null = null): Promise<void> {
    const host = this.host;
    const current = host.current;
    if (!current || host.running) return;
    const key = current.id;
    const at = current.messages.findIndex((m) => m.id === messageId);
    if (at < 0) return;
    const kept = current.messages.slice(0, at);
    const localId = `local-${Date.now()}`;
    host.current = { ...current, messages: kind === 'edit' ? [...kept, localUserMessage(localId, text)] : kept };
    const turn = this.turn(key);
    if (kind === 'edit') turn.localId = localId;
    turn.reload = true;
    this.beginRun(key, rerun?.choice ?? host.reasoning.choice, rerun?.model ?? null);
    try {
      const onEvent = (event: StreamEvent) => this.onEvent(key, event);
      const started =
        kind === 'edit'
          ? await ipc.editAndResend(messageId, text, onEvent)
          : kind === 'rerun' && rerun
            ? await ipc.rerun({ messageId, provider: rerun.model.provider, model: rerun.model.id, choice: rerun.choice, shows: 'new' }, onEvent)
            : await ipc.regenerate(messageId, onEvent);
      this.parts.runs.started(key, started.runId);
    } catch (raw) {
      this.parts.runs.drop(key);
      turn.reload = false;
      turn.localId = null;
      if (host.current?.id === key) host.current = current;
      host.notes.addError(AppError.from(raw));
      if (kind === 'edit') host.input = text;
    }
  }
}
