// What the thread shows, in order: the stored messages (each tool loop already joined into
// one answer), the answer streaming now, and the notes Ponder put between them.
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

/** A row of the thread. The streaming answer's row is `live`: its `message` is the answer as
 * it was when the row was made (for the height estimate), and the row reads the run itself,
 * so a batch of tokens redraws that row alone instead of making the thread's rows again. */
export type ThreadItem =
  | { kind: 'message'; key: string; message: MessageView; live: boolean }
  | { kind: 'note'; key: string; note: Note };

/** The thread's items: each note follows the message it was written after, and one whose
 * message is gone (another version shown) goes to the end. `live` is the streaming answer. */
export function threadItems(shown: MessageView[], live: MessageView | null, notes: Note[]): ThreadItem[] {
  const list = live ? shown.filter((m) => m.id !== live.id) : shown;
  const byAfter = new Map<string | null, Note[]>();
  const ids = new Set(list.map((m) => m.id));
  if (live) ids.add(live.id);
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
    out.push({ kind: 'message', key: message.id, message, live: false });
    pushNotes(message.id);
  }
  if (live) {
    out.push({ kind: 'message', key: live.id, message: live, live: true });
    pushNotes(live.id);
  }
  pushNotes('\u0000end');
  return out;
}

// Row heights before a row is measured, close enough that opening a long thread renders the
// few rows that fill the screen rather than many short guesses (each row rendered costs its
// Markdown and layout). Measured heights replace these as soon as a row is drawn. The figures
// follow the thread's styles at its full width (48rem), measured in the app: a question's line
// ~21 px at ~80 characters; an answer's text line 22 px at ~78, 10.5 px between blocks, a code
// line 19.5 px in ~46 px of frame; a folded thought's header and margin 45 px and its preview
// ~20 px a line, at most ~108 px. An estimate above the height drawn costs more than one below:
// scrolling up, the rows above shrink when drawn, and the view moving up with them brings in
// another row in the same frame.
const ROW = {
  note: 40,
  question: 34,
  questionLine: 21,
  questionChars: 80,
  answer: 48,
  answerLine: 22,
  answerChars: 78,
  blockGap: 10.5,
  codeFrame: 46,
  codeLine: 19.5,
  thoughtHead: 45,
  previewLine: 20,
  previewMax: 108,
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

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A line that starts a line of its own: a list item, a heading, a quote, a table row. */
const OWN_LINE = /^\s*(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\|)/;

/** An answer's text as drawn: paragraphs (a single newline joins lines, as in the Markdown
 * renderer) wrapped in blocks apart, list items a line each, code blocks line by line. */
function answerTextHeight(text: string): number {
  let height = 0;
  let blocks = 0;
  /** Characters of the line being joined (-1: none). */
  let joined = -1;
  let fence: string | null = null;
  const endLine = (): void => {
    if (joined >= 0) height += ROW.answerLine * Math.max(1, Math.ceil(joined / ROW.answerChars));
    joined = -1;
  };
  let inBlock = false;
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      else height += ROW.codeLine;
    } else if (marker) {
      endLine();
      fence = marker;
      blocks++;
      inBlock = false;
      height += ROW.codeFrame;
    } else if (line.trim() === '') {
      endLine();
      inBlock = false;
    } else {
      if (!inBlock) blocks++;
      inBlock = true;
      if (OWN_LINE.test(line)) endLine();
      joined = joined < 0 ? line.length : joined + 1 + line.length;
    }
  }
  endLine();
  return height + ROW.blockGap * Math.max(0, blocks - 1);
}

/** A folded thought: its header, and a preview of its first lines (see ThoughtPane). */
function foldedThoughtHeight(text: string): number {
  let lines = 0;
  for (let start = 0; start < text.length && lines < 8; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    if (text.slice(start, stop).trim() !== '') lines++;
    start = stop + 1;
  }
  return ROW.thoughtHead + (lines > 0 ? Math.min(ROW.previewMax, 8 + ROW.previewLine * lines) : 0);
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
      if (part.type === 'text') height += answerTextHeight(part.text);
      else if (part.type === 'thinking') height += foldedThoughtHeight(part.text);
      else height += ROW.tool;
    }
  }
  estimates.set(message, height);
  return height;
}
