// The list of conversations in the sidebar, and search across them.
import { importSummary } from './format';
import { AppError, ipc } from './ipc';
import { markFirst } from './perf';
import type { ImportProgress } from './ipc-generated';
import type { ConversationSummary, ConversationView, SearchHit } from './types';
import type { Ui } from './ui.svelte';

/** How many conversations are read first, before the rest: more than a tall window shows. */
export const FIRST_LISTED = 200;

export class ConversationsState {
  list = $state.raw<ConversationSummary[]>([]);
  /** Whether the list was read once (even empty, even failed). */
  read = $state(false);
  /** The import under way, from its first report until it ends. */
  importing = $state.raw<ImportProgress | null>(null);
  /** Cancel was asked for; the import stops after the conversation it is reading. */
  cancelling = $state(false);

  constructor(private readonly ui: Ui) {}

  find(id: string): ConversationSummary | undefined {
    return this.list.find((c) => c.id === id);
  }

  /** Reads the whole list again. */
  async refresh(): Promise<void> {
    await this.readList(null);
  }

  /**
   * Reads the list's start only, `FIRST_LISTED` of it: what a window shows at start-up, long
   * before a history of a hundred thousand conversations (tens of megabytes of summaries)
   * would have been read and sent. True when that was all of it; `readRest` reads the rest.
   */
  async refreshFirst(): Promise<boolean> {
    const read = await this.readList(FIRST_LISTED);
    return read !== null && read < FIRST_LISTED;
  }

  /** Reads the whole list, unless the start read was all of it. */
  async readRest(whole: boolean): Promise<void> {
    if (!whole) await this.readList(null);
    markFirst('ponder:start:list-whole');
  }

  /**
   * After an answer: its conversation moved to the top and may have a new title. Only the
   * list's start is read again; the rest keeps its order, less what is now in that start
   * (all of it older than that start, so the two stay in order without sorting again).
   */
  async refreshTop(): Promise<void> {
    try {
      const top = await ipc.listConversations(false, FIRST_LISTED);
      const ids = new Set(top.map((c) => c.id));
      // A start shorter than asked for is the whole list.
      this.list = top.length < FIRST_LISTED ? top : [...top, ...this.list.filter((c) => !ids.has(c.id))];
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
  }

  /** How many conversations were read, or null if reading failed. */
  private async readList(first: number | null): Promise<number | null> {
    let count: number | null = null;
    try {
      const list = await ipc.listConversations(false, first);
      markFirst('ponder:start:list-read');
      // In the list's order already: a hundred thousand are not sorted again.
      this.list = Array.isArray(list) ? list : [];
      count = this.list.length;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    }
    this.read = true;
    return count;
  }

  /** A conversation just created, listed before the backend is asked again. */
  add(view: ConversationView): void {
    this.list = sortConversations([summaryOf(view), ...this.list]);
  }

  async rename(id: string, title: string): Promise<boolean> {
    try {
      await ipc.renameConversation(id, title);
      this.list = this.list.map((c) => (c.id === id ? { ...c, title } : c));
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }

  async remove(id: string): Promise<boolean> {
    try {
      await ipc.deleteConversation(id);
      this.list = this.list.filter((c) => c.id !== id);
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }

  async pin(id: string, pinned: boolean): Promise<boolean> {
    try {
      await ipc.pinConversation(id, pinned);
      this.list = sortConversations(this.list.map((c) => (c.id === id ? { ...c, pinned } : c)));
      return true;
    } catch (raw) {
      this.ui.error = AppError.from(raw);
      return false;
    }
  }

  async importFile(): Promise<void> {
    if (this.importing) return;
    this.cancelling = false;
    try {
      const report = await ipc.importFile((progress) => (this.importing = progress));
      if (!report) return;
      this.ui.say(report.cancelled ? `Import cancelled. ${importSummary(report)}` : importSummary(report), 8000);
    } catch (raw) {
      this.ui.error = AppError.from(raw);
    } finally {
      this.importing = null;
      this.cancelling = false;
    }
    // A failure or a cancel keeps the conversations read before it: the list shows them.
    await this.refresh();
  }

  async cancelImport(): Promise<void> {
    if (!this.importing || this.cancelling) return;
    this.cancelling = true;
    try {
      await ipc.cancelImport();
    } catch (raw) {
      this.cancelling = false;
      this.ui.error = AppError.from(raw);
    }
  }
}

/** Search across the stored conversations (and, when asked, their thoughts). */
export class SearchState {
  query = $state('');
  inThoughts = $state(false);
  hits = $state.raw<SearchHit[] | null>(null);
  searching = $state(false);
  private seq = 0;

  constructor(private readonly ui: Ui) {}

  async run(): Promise<void> {
    const query = this.query.trim();
    const seq = ++this.seq;
    if (!query) {
      this.hits = null;
      this.searching = false;
      return;
    }
    this.searching = true;
    try {
      const hits = await ipc.search(query, this.inThoughts);
      if (seq === this.seq) this.hits = hits;
    } catch (raw) {
      if (seq === this.seq) {
        this.hits = [];
        this.ui.error = AppError.from(raw);
      }
    } finally {
      if (seq === this.seq) this.searching = false;
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
    // Only a new conversation is listed from its view: it is in no project.
    project: null,
  };
}

/** Pinned first, then newest first. */
export function sortConversations(list: readonly ConversationSummary[]): ConversationSummary[] {
  return [...list].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt - a.updatedAt);
}
