// What the thread shows, in order: the stored messages (each tool loop already joined into
// one answer), the answer streaming now, and the notes Ponder put between them.
import type { LiveRun } from './stream';
import type { IpcErrorView, MessageView } from './types';

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

export type NoteAction =
  | { kind: 'addKey'; provider: string }
  | { kind: 'openPicker' }
  | { kind: 'undoDelete'; messageId: string }
  | { kind: 'compare'; messageId: string };

export type ThreadItem =
  | { kind: 'message'; key: string; message: MessageView; run: LiveRun | null }
  | { kind: 'note'; key: string; note: Note };

/** The thread's items: each note follows the message it was written after, and one whose
 * message is gone (another version shown) goes to the end. */
export function threadItems(shown: MessageView[], run: LiveRun | null, notes: Note[]): ThreadItem[] {
  const list = run ? shown.filter((m) => m.id !== run.message.id) : shown;
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
