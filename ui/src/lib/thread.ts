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
  return new ThreadRows().of(shown, live, notes);
}

/**
 * `threadItems` as the thread changes: the messages' rows are made once per list of messages,
 * and a change of the notes or of the streaming answer alone copies the rows above the first
 * place it touches rather than walking every message again ("Ask at several levels" rewrites
 * its note each time a level starts thinking, answers or ends).
 */
export class ThreadRows {
  private shown: readonly MessageView[] | null = null;
  /** One row per message of `shown`, in order. */
  private rows: ThreadItem[] = [];
  /** Where each message of `shown` is; made when notes or a streaming answer first need it. */
  private at: Map<string, number> | null = null;

  of(shown: readonly MessageView[], live: MessageView | null, notes: readonly Note[]): ThreadItem[] {
    if (shown !== this.shown) {
      this.shown = shown;
      this.rows = shown.map(messageRow);
      this.at = null;
    }
    if (notes.length === 0 && !live) return this.rows;
    const liveId = live?.id;
    const byAfter = new Map<string | null, Note[]>();
    for (const note of notes) byAfter.set(note.after, [...(byAfter.get(note.after) ?? []), note]);
    // Above the first message a note follows (or the streaming answer, left out there), the
    // rows are the messages' own, in order.
    const at = this.positions();
    let cut = shown.length;
    if (byAfter.has(null)) cut = 0;
    for (const after of byAfter.keys()) {
      const i = after === null ? undefined : at.get(after);
      if (i !== undefined) cut = Math.min(cut, i);
    }
    const liveAt = liveId === undefined ? undefined : at.get(liveId);
    if (liveAt !== undefined) cut = Math.min(cut, liveAt);

    const out = this.rows.slice(0, cut);
    const placed = new Set<Note>();
    const pushNotes = (after: string | null): void => {
      for (const note of byAfter.get(after) ?? []) {
        out.push(noteRow(note));
        placed.add(note);
      }
    };
    if (cut === 0) pushNotes(null);
    for (let i = cut; i < shown.length; i++) {
      const message = shown[i];
      if (!message || message.id === liveId) continue;
      out.push(this.rows[i] ?? messageRow(message));
      pushNotes(message.id);
    }
    if (live) {
      out.push({ kind: 'message', key: live.id, message: live, live: true });
      pushNotes(live.id);
    }
    for (const note of notes) if (!placed.has(note)) out.push(noteRow(note));
    return out;
  }

  private positions(): Map<string, number> {
    if (!this.at) {
      const at = new Map<string, number>();
      (this.shown ?? []).forEach((message, i) => {
        if (!at.has(message.id)) at.set(message.id, i);
      });
      this.at = at;
    }
    return this.at;
  }
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
