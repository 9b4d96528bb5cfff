// What the user does with the stored answers of the conversation on screen: read a long
// thought whole, hide a thought (or show it again), purge old thoughts, export the
// conversation.
import { AppError, ipc } from './ipc';
import type { ConversationView, ExportFormat, ExportThoughts, PurgeReport } from './types';
import type { Ui } from './ui.svelte';

/** The part of the session stored answers change: the thread shown, opened again after a purge
 * so the thoughts it removed leave the screen. */
export interface StoredHost {
  current: ConversationView | null;
  open(id: string): Promise<void>;
}

export class StoredAnswers {
  constructor(
    private readonly session: StoredHost,
    private readonly ui: Ui,
  ) {}

  /** Hides one thought of an answer, or shows it again; the stored message comes back. */
  async setThoughtHidden(messageId: string, index: number, hidden: boolean): Promise<void> {
    try {
      const view = await ipc.setThoughtHidden(messageId, index, hidden);
      const current = this.session.current;
      if (current) this.session.current = { ...current, messages: current.messages.map((m) => (m.id === view.id ? view : m)) };
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** The whole text of a long thought, for its pane; null (and the error shown) on failure. */
  async thoughtText(messageId: string, index: number): Promise<string | null> {
    try {
      return await ipc.thoughtText(messageId, index);
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return null;
    }
  }

  async purge(days: number): Promise<PurgeReport | null> {
    try {
      const report = await ipc.purgeThoughts(days);
      if (this.session.current) await this.session.open(this.session.current.id);
      return report;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return null;
    }
  }

  /** `everyVersion`: Markdown and HTML hold every version after the path shown (JSON
   * always does). */
  async exportCurrent(format: ExportFormat, thoughts: ExportThoughts, tools = true, everyVersion = false): Promise<void> {
    const current = this.session.current;
    if (!current) return;
    try {
      const { path } = await ipc.exportConversation(current.id, format, thoughts, tools, everyVersion);
      if (path) this.ui.say(`Exported to ${path}`, 6000);
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }
}
