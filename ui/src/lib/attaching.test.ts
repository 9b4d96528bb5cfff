import { describe, expect, it } from 'vitest';

import { carriesFiles, droppedName, filesOf, isImage, MAX_FILE_BYTES, pastedFiles, pastedName, PIECE_BYTES, storeFile, tooLarge, withFiles } from './attaching';
import type { AttachedFile, Picked } from './ipc-generated';

const MIB = 1024 * 1024;
// 28 November 2026, 20:31:07 local time.
const AT = new Date(2026, 10, 28, 20, 31, 7);

const file = (sha256: string, name = `${sha256}.png`): AttachedFile => ({ sha256, kind: 'png', name, bytes: 10, pages: null });

/** A DataTransfer as a paste or a drop gives it: its files, or only items, and its text. */
function transfer({ files = [] as File[], items = null as File[] | null, text = '' } = {}) {
  const types = [...(text ? ['text/plain'] : []), ...(files.length > 0 || items ? ['Files'] : [])];
  return {
    types,
    getData: (type: string) => (type === 'text/plain' ? text : ''),
    files,
    items: (items ?? files).map((f) => ({ kind: 'file' as const, getAsFile: () => f })),
  };
}

/** What storeFile reads of a File (jsdom's Blob cannot be read): `reads` counts its reads. */
function data(bytes: number[] | Uint8Array, reads = { count: 0 }) {
  const all = Uint8Array.from(bytes);
  return {
    size: all.length,
    slice: (start: number, end: number) => ({
      arrayBuffer: () => {
        reads.count += 1;
        return Promise.resolve(all.slice(start, end).buffer);
      },
    }),
  };
}

const png = (name = 'image.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

describe('names', () => {
  it('names a pasted image the browser named "image.png" by when it was pasted, with its type\'s extension', () => {
    expect(pastedName('image.png', 'image/png', AT)).toBe('Pasted image 2026-11-28 20.31.png');
    expect(pastedName('image.png', 'image/jpeg', AT)).toBe('Pasted image 2026-11-28 20.31.jpg');
    expect(pastedName('', 'image/webp', AT)).toBe('Pasted image 2026-11-28 20.31.webp');
    expect(pastedName('blob', 'image/gif', new Date(2027, 0, 3, 7, 5))).toBe('Pasted image 2027-01-03 07.05.gif');
    expect(pastedName('', 'application/pdf', AT)).toBe('Pasted file 2026-11-28 20.31.pdf');
    expect(pastedName('', '', AT)).toBe('Pasted file 2026-11-28 20.31');
  });

  it('keeps a pasted file\'s own name, and a dropped file\'s', () => {
    expect(pastedName('whiteboard.png', 'image/png', AT)).toBe('whiteboard.png');
    expect(pastedName('images.png', 'image/png', AT)).toBe('images.png');
    expect(droppedName('image.png', 'image/png', AT)).toBe('image.png');
    expect(droppedName('', 'image/png', AT)).toBe('Pasted image 2026-11-28 20.31.png');
  });
});

describe('the size check', () => {
  it('takes a file of 100 MiB and refuses a larger one in the backend\'s words', () => {
    expect(tooLarge('a.pdf', MAX_FILE_BYTES)).toBeNull();
    expect(tooLarge('a.pdf', 0)).toBeNull();
    expect(tooLarge('big.pdf', MAX_FILE_BYTES + 1)).toBe('big.pdf is 100.0 MiB; Ponder takes files of at most 100 MiB.');
    expect(tooLarge('video.mp4', 1536 * MIB)).toBe('video.mp4 is 1536.0 MiB; Ponder takes files of at most 100 MiB.');
    expect(tooLarge('x', Math.round(123.46 * MIB))).toBe('x is 123.5 MiB; Ponder takes files of at most 100 MiB.');
  });

  it('rounds a tie to even, as the backend\'s formatting does', () => {
    expect(tooLarge('x', 100.25 * MIB)).toBe('x is 100.2 MiB; Ponder takes files of at most 100 MiB.');
    expect(tooLarge('x', 100.75 * MIB)).toBe('x is 100.8 MiB; Ponder takes files of at most 100 MiB.');
    expect(tooLarge('x', 100.95 * MIB + 1)).toBe('x is 101.0 MiB; Ponder takes files of at most 100 MiB.');
  });
});

describe('what a paste or a drag holds', () => {
  it('tells a drag of files from one of text or a link', () => {
    expect(carriesFiles({ types: ['Files'] })).toBe(true);
    expect(carriesFiles({ types: ['text/plain', 'text/uri-list'] })).toBe(false);
    expect(carriesFiles(null)).toBe(false);
  });

  it('reads the files, or else the items that are files', () => {
    const a = png('a.png');
    expect(filesOf(transfer({ files: [a] }))).toEqual([a]);
    expect(filesOf(transfer({ items: [a] }))).toEqual([a]);
    expect(filesOf(transfer({ text: 'hello' }))).toEqual([]);
    expect(filesOf(null)).toEqual([]);
  });

  it('leaves a paste of text to the text field, and one of text with its picture (a spreadsheet\'s cells) too', () => {
    expect(pastedFiles(transfer({ text: 'just words' }))).toEqual([]);
    expect(pastedFiles(transfer({ text: 'A1\tB1', files: [png()] }))).toEqual([]);
  });

  it('attaches a pasted screenshot, and files copied with their names', () => {
    const shot = png();
    expect(pastedFiles(transfer({ files: [shot] }))).toEqual([shot]);
    const named = png('plan.png');
    expect(pastedFiles(transfer({ text: '/home/ada/plan.png', files: [named] }))).toEqual([named]);
  });
});

describe('keeping each file once', () => {
  it('adds only files not held yet, in order, the same bytes given twice once', () => {
    const held = [file('a'), file('b')];
    expect(withFiles(held, [file('b'), file('c'), file('c', 'again.png'), file('d')]).map((f) => f.sha256)).toEqual(['a', 'b', 'c', 'd']);
    expect(withFiles([], [])).toEqual([]);
  });

  it('tells images from other files', () => {
    expect(['png', 'jpeg', 'gif', 'webp', 'pdf', 'text'].map((k) => isImage(k as AttachedFile['kind']))).toEqual([true, true, true, true, false, false]);
  });
});

describe('storing a file', () => {
  const stored: Picked = { files: [file('s', 'shot.png')], refused: [] };

  it('gives the backend the file\'s bytes under its name', async () => {
    const seen: [string, number[]][] = [];
    const picked = await storeFile(data([1, 2, 3]), 'shot.png', async (name, bytes) => {
      seen.push([name, [...bytes]]);
      return stored;
    });
    expect(picked).toBe(stored);
    expect(seen).toEqual([['shot.png', [1, 2, 3]]]);
  });

  it('sends a large file a megabyte at a time, in order, the last piece saying so', async () => {
    const size = 2 * PIECE_BYTES + 5;
    const bytes = new Uint8Array(size).map((_, i) => i % 251);
    const reads = { count: 0 };
    const pieces: { offset: number; last: boolean; upload: string; length: number; first: number }[] = [];
    const picked = await storeFile(data(bytes, reads), 'big.pdf', async (name, got, piece) => {
      expect(name).toBe('big.pdf');
      expect(piece).not.toBeNull();
      pieces.push({ ...piece!, length: got.length, first: got[0] ?? -1 });
      return piece!.last ? stored : { files: [], refused: [] };
    });
    expect(picked).toBe(stored);
    expect(reads.count).toBe(3);
    expect(pieces.map(({ offset, last, length, first }) => [offset, last, length, first])).toEqual([
      [0, false, PIECE_BYTES, 0],
      [PIECE_BYTES, false, PIECE_BYTES, PIECE_BYTES % 251],
      [2 * PIECE_BYTES, true, 5, (2 * PIECE_BYTES) % 251],
    ]);
    expect(new Set(pieces.map((p) => p.upload)).size).toBe(1);
    expect(pieces[0]?.upload).toMatch(/^[0-9a-f]{32}$/);
  });

  it('stops sending when a piece is refused', async () => {
    let asked = 0;
    const picked = await storeFile(data(new Uint8Array(3 * PIECE_BYTES)), 'big.bin', async () => {
      asked += 1;
      return { files: [], refused: ['big.bin is not a file Ponder can send.'] };
    });
    expect(asked).toBe(1);
    expect(picked.refused).toEqual(['big.bin is not a file Ponder can send.']);
  });

  it('refuses a file too large without reading it or asking the backend', async () => {
    let read = false;
    const big = { size: MAX_FILE_BYTES + MIB, slice: () => ({ arrayBuffer: () => ((read = true), Promise.resolve(new ArrayBuffer(0))) }) };
    const picked = await storeFile(big, 'film.mov', () => Promise.reject(new Error('not asked')));
    expect(picked).toEqual({ files: [], refused: ['film.mov is 101.0 MiB; Ponder takes files of at most 100 MiB.'] });
    expect(read).toBe(false);
  });

  it('refuses a file that cannot be read (a folder dropped)', async () => {
    const folder = { size: 4096, slice: () => ({ arrayBuffer: () => Promise.reject(new DOMException('not readable', 'NotReadableError')) }) };
    expect(await storeFile(folder, 'Photos', () => Promise.reject(new Error('not asked')))).toEqual({ files: [], refused: ['Photos could not be read.'] });
  });

  it('lets a failure of the backend itself through', async () => {
    await expect(storeFile(data([120]), 'a.txt', () => Promise.reject(new Error('storage is full')))).rejects.toThrow('storage is full');
  });
});
