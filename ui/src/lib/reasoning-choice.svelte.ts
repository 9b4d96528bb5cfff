// The model and level the next message goes with, as the user changes them from the picker,
// /model, /set or the Reasoning panel: each change is saved on the conversation and told in
// the thread. The one-message override lives here too, being the level for the next send only.
import type { CatalogState } from './catalog.svelte';
import { describeSetting, settingSentence, type SettingKey } from './commands';
import { choiceLabel } from './format';
import { AppError, ipc } from './ipc';
import type { Notes } from './notes.svelte';
import type { NextRequest } from './session-types';
import type { Choice, ContextTokens, ConversationView, ModelView, ReasoningSettings, TranslatePreview } from './types';

/** The part of the session a change of model or level reads and saves into. */
export interface ChoiceHost {
  readonly provider: string | null;
  readonly model: string | null;
  reasoning: ReasoningSettings;
  current: ConversationView | null;
  readonly running: boolean;
  readonly notes: Pick<Notes, 'add' | 'addError'>;
  /** Switches to `model`; the session keeps the switch until the backend has saved it. */
  useModel(model: ModelView): void;
}

/** `once`: the level is for the next message only, and the conversation's own stays. */
export interface ChoiceOptions {
  once: boolean;
}

/** Whether a save says in the thread what the setting `key` now means: the answer to
 * `/set KEY VALUE`, where other changes are told by their own controls. */
export type SaveOptions = { announce: false } | { announce: true; key: SettingKey };

export class ReasoningChoice {
  /** The one-message override: used by the next send only. */
  once = $state<Choice | null>(null);

  constructor(
    private readonly host: ChoiceHost,
    private readonly catalog: Pick<CatalogState, 'signsIn'>,
  ) {}

  /** What the next request will send and how much context it carries. */
  async nextRequest(): Promise<NextRequest> {
    const { provider, model, reasoning } = this.host;
    const choice = this.once ?? reasoning.choice;
    const conversation = this.host.current?.id ?? null;
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
  async feedback(model: ModelView, choice: Choice, settings: ReasoningSettings, { once }: ChoiceOptions): Promise<void> {
    const { notes } = this.host;
    const prefix = once ? 'For the next message only: ' : '';
    try {
      const preview = await ipc.translatePreview(model.provider, model.id, choice, settings, this.host.current?.id ?? null);
      const lines = preview.feedback.split('\n').map((l) => l.trim()).filter(Boolean);
      if (lines.length && prefix) lines[0] = `${prefix}${lines[0]}`;
      notes.add(lines, preview.warnings.length ? 'warning' : 'success');
    } catch {
      const level = model.levels.find((l) => l.choice === choice);
      notes.add([`${prefix}✓ Switched to ${model.providerName} ${model.id}`, `Thinking: ${level?.label ?? choiceLabel(choice)}`], 'success');
    }
    // A running answer keeps its model and level to the end (a tool loop is one turn, and
    // providers refuse a change of thinking within it).
    if (this.host.running) notes.add(['The answer running now keeps its model and level; this applies from your next message.']);
    if (model.needsKey) {
      const what = this.catalog.signsIn(model.provider) ? 'you to sign in with GitHub' : 'an API key';
      notes.add([`${model.providerName} needs ${what} before you can send.`], 'warning', {
        actions: [{ kind: 'addKey', provider: model.provider }],
      });
    }
  }

  /** Sets the model and level (from the picker or /model), saves the level, and says what it means. */
  async choose(model: ModelView, choice: Choice, { once }: ChoiceOptions): Promise<void> {
    const host = this.host;
    const sameModel = model.provider === host.provider && model.id === host.model;
    if (!sameModel) host.useModel(model);
    if (once) {
      this.once = choice;
      if (!sameModel && !model.levels.some((l) => l.available && l.choice === host.reasoning.choice)) {
        await this.saveReasoning({ ...host.reasoning, choice: 'default' }, { announce: false });
      }
    } else {
      this.once = null;
      await this.saveReasoning({ ...host.reasoning, choice }, { announce: false });
    }
    await this.feedback(model, choice, host.reasoning, { once });
  }

  clearOnce(): void {
    this.once = null;
  }

  /** Saves reasoning settings on the conversation (or keeps them for the new chat). */
  async saveReasoning(next: ReasoningSettings, options: SaveOptions): Promise<boolean> {
    const host = this.host;
    const previous = host.reasoning;
    host.reasoning = next;
    if (host.current) {
      try {
        const view = await ipc.setConversationSettings(host.current.id, next);
        if (host.current) host.current = { ...host.current, settings: view?.settings ?? next };
      } catch (raw) {
        host.reasoning = previous;
        host.notes.addError(AppError.from(raw));
        return false;
      }
    }
    if (options.announce) {
      const sentence = settingSentence(options.key, next);
      host.notes.add([`✓ ${describeSetting(next, options.key)}`, ...(sentence ? [sentence] : [])], 'success');
    }
    return true;
  }
}
