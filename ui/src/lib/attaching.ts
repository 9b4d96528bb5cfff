// Files given as data rather than through the file dialog: pasted into the composer or dropped
// on the window. What is pure lives here (names, the size check, what a paste or a drag holds,
// keeping each file once); the backend stores each file from its bytes (`ipc.attachBytes`).
import type { AttachedFile, AttachmentKind, Picked } from './ipc-generated';

const MIB = 1024 * 1024;

/** The largest file Ponder takes (the backend's `MAX_FILE_BYTES`). */
export const MAX_FILE_BYTES = 100 * MIB;

/** Whether a stored file is an image (the backend serves images only, as `fileUrl`). */
export function isImage(kind: AttachmentKind): boolean {
  return kind === 'png' || kind === 'jpeg' || kind === 'gif' || kind === 'webp';
}

/** What Ponder takes, as the drop overlay says it. */
export const TAKES = 'PNG, JPEG, GIF and WebP images, PDFs and text files';

/**
 * Why a file of `size` bytes is refused before it is read, in the backend's words (its
 * `{:.1}` rounds a tie to even, and so does this), or null when it is small enough.
 */
export function tooLarge(name: string, size: number): string | null {
  if (size <= MAX_FILE_BYTES) return null;
  // Tenths of a MiB, exactly: sizes are whole bytes, so the quotient is a fraction of 2^20.
  let tenths = Math.floor((size * 10) / MIB);
  const rest = size * 10 - tenths * MIB;
  if (rest * 2 > MIB || (rest * 2 === MIB && tenths % 2 === 1)) tenths += 1;
  const mib = `${Math.floor(tenths / 10)}.${tenths % 10}`;
  return `${name} is ${mib} MiB; Ponder takes files of at most ${MAX_FILE_BYTES / MIB} MiB.`;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

/** The names browsers give data pasted without one ("image.png"). */
function isGenericName(name: string): boolean {
  return /^\s*((image|blob|clipboard|untitled)(\.[a-z0-9]+)?)?\s*$/i.test(name);
}

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * The name a pasted file is shown and stored under: its own, unless the browser made one up
 * ("image.png"); then "Pasted image 2026-11-28 20.31.png", at the local time `at`, with the
 * extension of its type.
 */
export function pastedName(name: string, type: string, at: Date): string {
  if (!isGenericName(name)) return name;
  const stamp = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}.${two(at.getMinutes())}`;
  const what = type.startsWith('image/') ? 'Pasted image' : 'Pasted file';
  const extension = EXTENSIONS[type] ?? /\.([a-z0-9]+)\s*$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return extension ? `${what} ${stamp}.${extension}` : `${what} ${stamp}`;
}

/** The name a dropped file is stored under: its own (a dropped file always has one). */
export function droppedName(name: string, type: string, at: Date): string {
  return name.trim() === '' ? pastedName(name, type, at) : name;
}

/** The part of a DataTransfer these functions read. */
type Transfer = Pick<DataTransfer, 'types' | 'getData'> & {
  readonly files?: ArrayLike<File> | null;
  readonly items?: ArrayLike<Pick<DataTransferItem, 'kind' | 'getAsFile'>> | null;
};

/** Whether a drag carries files (and not only text or links). Their list is empty until the drop. */
export function carriesFiles(data: Pick<DataTransfer, 'types'> | null | undefined): boolean {
  return Array.from(data?.types ?? []).includes('Files');
}

/** The files a paste or a drop holds, in order. */
export function filesOf(data: Transfer | null | undefined): File[] {
  if (!data) return [];
  const files = Array.from(data.files ?? []);
  if (files.length > 0) return files;
  return Array.from(data.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
}

/**
 * The files a paste attaches; none leaves the paste to the text field. A program that copies
 * a selection as text and as a picture of it (a spreadsheet's cells, a document's lines)
 * pastes the text: the picture is only its rendering, and has no name of its own.
 */
export function pastedFiles(data: Transfer | null | undefined): File[] {
  const files = filesOf(data);
  if (!data || files.length === 0) return [];
  const text = Array.from(data.types ?? []).includes('text/plain') ? data.getData('text/plain') : '';
  if (text.trim() !== '' && files.every((f) => f.type.startsWith('image/') && isGenericName(f.name))) return [];
  return files;
}

/** `current` with the files of `added` it does not hold yet (the same bytes are one file). */
export function withFiles(current: readonly AttachedFile[], added: readonly AttachedFile[]): AttachedFile[] {
  const known = new Set(current.map((f) => f.sha256));
  const out = [...current];
  for (const file of added) {
    if (known.has(file.sha256)) continue;
    known.add(file.sha256);
    out.push(file);
  }
  return out;
}

/** What `storeFile` needs of a File: its size, and its bytes a part at a time. */
export interface FileData {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * A file larger than this goes to the backend a piece this size at a time: one call with
 * 20 MB in it holds the window for a frame or more while the web view hands the body over.
 */
export const PIECE_BYTES = MIB;

/** One piece of a file sent in pieces: which upload, where it starts, whether it ends it. */
export interface Piece {
  upload: string;
  offset: number;
  last: boolean;
}

/** Stores `bytes` (the whole file, or one `piece` of it) under `name`. */
export type StoreBytes = (name: string, bytes: Uint8Array, piece: Piece | null) => Promise<Picked>;

/** A new upload's id: 32 lowercase hex characters. */
export function uploadId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Stores one file under `name` through `store` (the backend's `attach_bytes`), in pieces when
 * it is large: one too large is refused before it is read, one that cannot be read (a folder
 * dropped) is refused too, and a piece refused ends the upload. A failure of the backend
 * itself is thrown.
 */
export async function storeFile(file: FileData, name: string, store: StoreBytes, upload = uploadId()): Promise<Picked> {
  const large = tooLarge(name, file.size);
  if (large) return { files: [], refused: [large] };
  const read = async (start: number, end: number): Promise<Uint8Array | null> => {
    try {
      return new Uint8Array(await file.slice(start, end).arrayBuffer());
    } catch {
      return null;
    }
  };
  const unreadable = { files: [], refused: [`${name} could not be read.`] };
  if (file.size <= PIECE_BYTES) {
    const bytes = await read(0, file.size);
    return bytes ? store(name, bytes, null) : unreadable;
  }
  for (let offset = 0; ; offset += PIECE_BYTES) {
    const end = Math.min(offset + PIECE_BYTES, file.size);
    const bytes = await read(offset, end);
    if (!bytes) return unreadable;
    const last = end === file.size;
    const picked = await store(name, bytes, { upload, offset, last });
    if (last || picked.files.length > 0 || picked.refused.length > 0) return picked;
  }
}
