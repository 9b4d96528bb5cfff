// Every version of a message is kept: moving between them (the ‹ 2 / 3 › switcher), deleting
// one with what followed it, and bringing it back (Undo). Each swaps the thread for the path
// the backend shows afterwards.
import { AppError, ipc } from './ipc';
import type { Notes } from './notes.svelte';
import type { ConversationView } from './types';
import type { Ui } from './ui.svelte';

/** The part of the session a version change swaps: the thread (never while an answer streams
 * into it), and the notes that offer Undo. */
export interface VersionsHost {
  current: ConversationView | null;
  readonly running: boolean;
  readonly notes: Pick<Notes, 'add' | 'dismiss'>;
}

export class Versions {
  constructor(
    private readonly session: VersionsHost,
    private readonly ui: Ui,
  ) {}

  /** Shows another version of a message. */
  async show(messageId: string): Promise<void> {
    await this.replace(() => ipc.showVersion(messageId));
  }

  /** Deletes one version and what followed it, with Undo on the note that says so. */
  async delete(messageId: string): Promise<void> {
    if (await this.replace(() => ipc.deleteBranch(messageId))) {
      this.session.notes.add(['Deleted that version and everything after it.'], 'info', { actions: [{ kind: 'undoDelete', messageId }] });
    }
  }

  async restore(messageId: string, noteId: string | null = null): Promise<void> {
    if ((await this.replace(() => ipc.restoreBranch(messageId))) && noteId) this.session.notes.dismiss(noteId);
  }

  /** Not while an answer streams into the thread. */
  private async replace(change: () => Promise<ConversationView>): Promise<boolean> {
    if (!this.session.current || this.session.running) return false;
    try {
      const view = await change();
      if (this.session.current?.id === view.id) this.session.current = view;
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }
}
