// What the thread shows, in order: the stored messages (each tool loop already joined into
// one answer), the answer streaming now, and the notes Ponder put between them.
import type { ConversationView, IpcErrorView, MessageView } from './types';

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

/** A row of the thread. The streaming answer's row is `live`: its `message` is the answer as
 * it was when the row was made (for the height estimate), and the row reads the run itself,
 * so a batch of tokens redraws that row alone instead of making the thread's rows again. */
export type ThreadItem =
  | { kind: 'message'; key: string; message: MessageView; live: boolean }
  | { kind: 'note'; key: string; note: Note };

/** A stored message's row, and a note's, made once: a thread's rows are the same objects from
 * one change to the next, so the rows below (their offsets, see RowLayout) need work only
 * from the first that is new. */
const messageRows = new WeakMap<MessageView, ThreadItem>();
const noteRows = new WeakMap<Note, ThreadItem>();

function messageRow(message: MessageView): ThreadItem {
  let row = messageRows.get(message);
  if (!row) {
    row = { kind: 'message', key: message.id, message, live: false };
    messageRows.set(message, row);
  }
  return row;
}

function noteRow(note: Note): ThreadItem {
  let row = noteRows.get(note);
  if (!row) {
    row = { kind: 'note', key: `note-${note.id}`, note };
    noteRows.set(note, row);
  }
  return row;
}

/** The thread's items: each note follows the message it was written after, and one whose
 * message is gone (another version shown) goes to the end. `live` is the streaming answer. */
export function threadItems(shown: readonly MessageView[], live: MessageView | null, notes: readonly Note[]): ThreadItem[] {
  const liveId = live?.id;
  const out: ThreadItem[] = [];
  // Most threads have no notes, or a few: looked up only then, and only for their messages.
  const byAfter = new Map<string | null, Note[]>();
  for (const note of notes) byAfter.set(note.after, [...(byAfter.get(note.after) ?? []), note]);
  const placed = new Set<Note>();
  const pushNotes = (after: string): void => {
    const here = byAfter.get(after);
    if (!here) return;
    for (const note of here) {
      out.push(noteRow(note));
      placed.add(note);
    }
  };
  for (const note of byAfter.get(null) ?? []) {
    out.push(noteRow(note));
    placed.add(note);
  }
  const withNotes = byAfter.size > 0;
  for (const message of shown) {
    if (message.id === liveId) continue;
    out.push(messageRow(message));
    if (withNotes) pushNotes(message.id);
  }
  if (live) {
    out.push({ kind: 'message', key: live.id, message: live, live: true });
    pushNotes(live.id);
  }
  for (const note of notes) if (!placed.has(note)) out.push(noteRow(note));
  return out;
}

// Row heights before a row is measured, close enough that opening a long thread renders the
// few rows that fill the screen rather than many short guesses (each row rendered costs its
// Markdown and layout). Measured heights replace these as soon as a row is drawn; the figures
// follow the thread's styles (a text line ~28 px at ~90 characters, a question's ~21 px at ~80).
const ROW = {
  note: 40,
  question: 34,
  questionLine: 21,
  questionChars: 80,
  answer: 110,
  answerLine: 28,
  answerChars: 90,
  foldedThought: 40,
  tool: 64,
};

const estimates = new WeakMap<object, number>();

/** Wrapped lines of `text` at `width` characters a line, counting each line as at least one. */
function wrappedLines(text: string, width: number): number {
  let lines = 0;
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    lines += Math.max(1, Math.ceil((stop - start) / width));
    if (end < 0) break;
    start = end + 1;
  }
  return lines;
}

/** A thread row's height in pixels before it is measured; worked out once per message. */
export function estimateRow(item: ThreadItem): number {
  if (item.kind === 'note') return ROW.note + 20 * Math.max(0, item.note.lines.length - 1);
  const message = item.message;
  const known = estimates.get(message);
  if (known !== undefined) return known;
  let height: number;
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    height = ROW.question + ROW.questionLine * wrappedLines(text, ROW.questionChars);
  } else {
    height = ROW.answer;
    for (const part of message.parts) {
      if (part.type === 'text') height += ROW.answerLine * wrappedLines(part.text, ROW.answerChars);
      else if (part.type === 'thinking') height += ROW.foldedThought;
      else height += ROW.tool;
    }
  }
  estimates.set(message, height);
  return height;
}

/**
 * The end of a conversation read again (`end`, read from a question on) joined below the
 * messages shown above it, which are kept as they are; null when the end does not start at
 * a message shown (the path changed above it: read it whole).
 */
export function joinAtEnd(shown: ConversationView, end: ConversationView): ConversationView | null {
  if (end.earlier === 0) return end;
  const first = end.messages[0]?.id;
  const at = first === undefined ? -1 : shown.messages.findIndex((m) => m.id === first);
  if (at < 0) return null;
  return { ...end, messages: [...shown.messages.slice(0, at), ...end.messages], earlier: shown.earlier };
}
