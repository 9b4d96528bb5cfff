// The notes Ponder writes into a thread between its messages: what a change of model means,
// a command's answer, an error with its fixes. They are the app's, not the conversation's, so
// they are kept per conversation while the app runs and never stored.
import type { AppError } from './ipc';
import type { LiveRun } from './stream';
import type { Note, NoteAction } from './thread';
import type { ConversationView } from './types';

/** What decides where a new note goes: under the answer streaming in the conversation on
 * screen, or else under its last message. */
export interface NotesHost {
  readonly key: string;
  readonly current: ConversationView | null;
  readonly run: LiveRun | null;
}

export class Notes {
  private byConversation = $state.raw<Record<string, Note[]>>({});
  private seq = 0;

  /** `alert` tells a screen reader of an error card at once (the card itself is not a live
   * region: a thread opened later would read out every old one). */
  constructor(
    private readonly host: NotesHost,
    private readonly alert: (text: string) => void = () => {},
  ) {}

  /** The notes of a conversation, in the order they were written. */
  of(key: string): Note[] {
    return this.byConversation[key] ?? [];
  }

  /** Writes a note in the conversation on screen. */
  add(lines: string[], tone: Note['tone'] = 'info', extra: Partial<Note> = {}): Note {
    const key = this.host.key;
    const after = this.host.run?.message.id ?? this.host.current?.messages.at(-1)?.id ?? null;
    const note: Note = { id: String(++this.seq), tone, lines, after, ...extra };
    this.byConversation = { ...this.byConversation, [key]: [...this.of(key), note] };
    return note;
  }

  /** An error card, with the fixes `extra` offers. */
  addError(err: AppError, extra: Partial<Note> = {}): void {
    const error = { code: err.code, message: err.message, retryAfterMs: err.retryAfterMs };
    this.add([err.message], 'error', { error, ...extra });
    this.alert(err.message);
  }

  /** Changes a note's lines and actions, in whichever conversation it is: a note that follows
   * runs may change after the user has moved to another conversation. */
  update(key: string, id: string, lines: string[], actions: NoteAction[] = []): void {
    const list = this.byConversation[key];
    if (!list?.some((n) => n.id === id)) return;
    this.byConversation = { ...this.byConversation, [key]: list.map((n) => (n.id === id ? { ...n, lines, actions } : n)) };
  }

  /** Removes a note from the conversation on screen. */
  dismiss(id: string): void {
    const key = this.host.key;
    this.byConversation = { ...this.byConversation, [key]: this.of(key).filter((n) => n.id !== id) };
  }

  clear(key: string): void {
    this.byConversation = { ...this.byConversation, [key]: [] };
  }

  /** The new chat's notes follow it once the backend has made it a conversation. */
  move(from: string, to: string): void {
    this.byConversation = { ...this.byConversation, [from]: [], [to]: this.of(from) };
  }
}
